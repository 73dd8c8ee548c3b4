// Command parley is a full-screen terminal chat for OpenAI-compatible
// gateways, with scriptable `ask`, `image` and `models` commands. This file
// only wires the process (streams, signals, environment) to the cli and ui
// packages.
package main

import (
	"context"
	"os"
	"time"

	"github.com/charmbracelet/x/term"

	"parley/cli"
	"parley/internal/hugeheap"
	"parley/internal/signals"
	"parley/ui"
)

func main() {
	// The package inits grew the heap past the chunk hugeheap's init
	// advised (see internal/hugeheap).
	hugeheap.Advise()
	// The one owner of signals, first of all, so a signal during start-up
	// is handled like any other.
	sig := signals.Start(context.Background(), signals.Options{Terminal: terminalAtStart()})
	lighterGCAtStart(startGCSpan, os.Getenv)
	// The start's huge pages end with it (internal/hugeheap).
	time.AfterFunc(startGCSpan, hugeheap.Done)
	home, _ := os.UserHomeDir()
	env := cli.Env{
		Stdin:            os.Stdin,
		Stdout:           os.Stdout,
		Stderr:           os.Stderr,
		StdinIsTerminal:  term.IsTerminal(os.Stdin.Fd()),
		StdoutIsTerminal: term.IsTerminal(os.Stdout.Fd()),
		StderrIsTerminal: term.IsTerminal(os.Stderr.Fd()),
		Getenv:           os.Getenv,
		HomeDir:          home,
		Now:              time.Now,
		RunTUI: func(ctx context.Context, req cli.TUIRequest) error {
			return runTUI(ctx, sig, req)
		},
		PrepareTUI: ui.Prepare,
	}
	code := cli.Main(sig.Context(), os.Args[1:], env)
	os.Exit(sig.ExitCode(code))
}

// terminalAtStart saves the terminal's modes before anything changes them,
// so the signal owner can put them back if the process has to end while
// the chat holds the terminal. nil when stdin is not a terminal (the chat
// refuses to start then).
func terminalAtStart() *signals.Terminal {
	fd := os.Stdin.Fd()
	if !term.IsTerminal(fd) {
		return nil
	}
	state, err := term.GetState(fd)
	if err != nil {
		return nil
	}
	t := &signals.Terminal{Restore: func() error { return term.Restore(fd, state) }}
	if term.IsTerminal(os.Stdout.Fd()) {
		t.Out = os.Stdout
	}
	return t
}

// runTUI opens the full-screen chat with what the command line resolved.
func runTUI(ctx context.Context, sig *signals.Owner, req cli.TUIRequest) error {
	hugeheap.Advise() // the config and the history have grown the heap
	jc, detach := sig.AttachTUI()
	defer detach()
	return ui.Run(ctx, ui.Options{
		Config:       req.Config,
		ConfigPath:   req.Config.Path,
		Model:        req.Model,
		ModelGiven:   req.ModelGiven,
		SystemPrompt: req.System,
		Role:         req.Role,
		Theme:        req.Theme,
		Version:      req.Version,
		NewClient:    req.NewClient,
		ServerClient: req.ServerClient,
		Getenv:       os.Getenv,
		WorkDir:      workDir(),
		Mouse:        req.Mouse,
		Demo:         req.Demo,
		Warnings:     req.Warnings,
		History: ui.History{
			Store:     req.History.Store,
			Off:       req.History.Off,
			SessionID: req.History.SessionID,
			AutoTitle: req.History.AutoTitle,
		},
		VerboseLog:  req.VerboseLog,
		KnownModels: req.KnownModels,
		KnownSaid:   req.KnownSaid,
		NoImages:    req.NoImages,
		MCP:         req.MCP,
		JobControl: &ui.JobControl{Stops: jc.Stops, Continued: jc.Continued, CanStop: jc.CanStop, Stop: jc.Stop,
			Released: detach},
	})
}

// workDir is the process's working directory ("" when it is gone: the
// chat then resolves relative paths from home).
func workDir() string {
	wd, err := os.Getwd()
	if err != nil {
		return ""
	}
	return wd
}
