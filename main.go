// Command parley is a full-screen terminal chat for OpenAI-compatible
// gateways, with scriptable `ask`, `image` and `models` commands. This file
// only wires the process (streams, signals, environment) to the cli and ui
// packages.
package main

import (
	"context"
	"os"
	"os/signal"
	"syscall"
	"time"

	"github.com/charmbracelet/x/term"

	"parley/cli"
	"parley/ui"
)

func main() {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	// After the first signal, restore the default handling so a second
	// ctrl+c ends a process that is stuck on the way out.
	go func() {
		<-ctx.Done()
		stop()
	}()
	home, _ := os.UserHomeDir()
	env := cli.Env{
		Stdin:            os.Stdin,
		Stdout:           os.Stdout,
		Stderr:           os.Stderr,
		StdinIsTerminal:  term.IsTerminal(os.Stdin.Fd()),
		StdoutIsTerminal: term.IsTerminal(os.Stdout.Fd()),
		Getenv:           os.Getenv,
		HomeDir:          home,
		Now:              time.Now,
		RunTUI:           runTUI,
	}
	code := cli.Main(ctx, os.Args[1:], env)
	stop()
	os.Exit(code)
}

// runTUI opens the full-screen chat with what the command line resolved.
func runTUI(ctx context.Context, req cli.TUIRequest) error {
	return ui.Run(ctx, ui.Options{
		Config:     req.Config,
		ConfigPath: req.Config.Path,
		Model:      req.Model,
		Theme:      req.Theme,
		Version:    req.Version,
		NewClient:  req.NewClient,
		Getenv:     os.Getenv,
		Mouse:      req.Mouse,
		Demo:       req.Demo,
		Warnings:   req.Warnings,
		History: ui.History{
			Store:     req.History.Store,
			Off:       req.History.Off,
			SessionID: req.History.SessionID,
			AutoTitle: req.History.AutoTitle,
		},
	})
}
