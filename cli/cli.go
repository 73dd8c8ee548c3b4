// Package cli is parley's command line: the root command that opens the
// full-screen chat, and the scriptable commands `ask`, `image` and `models`.
// It loads the configuration, builds gateway clients and maps every failure
// to one sentence on stderr and an exit status (0 success, 1 runtime or
// gateway error, 2 usage error).
package cli

import (
	"context"
	"errors"
	"fmt"
	"io"
	"strings"
	"time"

	"github.com/spf13/cobra"

	"parley/termsafe"
)

// Version is parley's version, sent in the User-Agent and shown by --version.
const Version = "0.1.0"

// Exit statuses.
const (
	ExitOK      = 0
	ExitFailure = 1
	ExitUsage   = 2
	// ExitInterrupted is the shell convention for a program stopped by SIGINT.
	ExitInterrupted = 130
)

// Env is everything the commands take from the outside world, so tests can
// run them hermetically.
type Env struct {
	Stdin          io.Reader
	Stdout, Stderr io.Writer
	// StdinIsTerminal and StdoutIsTerminal say whether the streams are
	// terminals (stdin is read as input only when it is not one).
	StdinIsTerminal, StdoutIsTerminal bool
	Getenv                            func(string) string
	HomeDir                           string
	Now                               func() time.Time
	// RunTUI opens the full-screen chat; nil means it is not available.
	RunTUI func(ctx context.Context, req TUIRequest) error
}

// Main runs parley with the command-line arguments (without the program
// name) and returns the exit status.
func Main(ctx context.Context, args []string, env Env) int {
	if env.Now == nil {
		env.Now = time.Now
	}
	if env.Getenv == nil {
		env.Getenv = func(string) string { return "" }
	}
	app := &app{env: env}
	root := app.rootCommand()
	root.SetArgs(args)
	root.SetIn(env.Stdin)
	root.SetOut(env.Stdout)
	root.SetErr(env.Stderr)
	_, err := root.ExecuteContextC(ctx)
	if err == nil {
		return ExitOK
	}
	return app.report(err)
}

// report prints err as one sentence on stderr and returns its exit status.
func (a *app) report(err error) int {
	code := ExitFailure
	var ue *usageError
	switch {
	case errors.As(err, &ue):
		code = ExitUsage
	case errors.Is(err, context.Canceled):
		fmt.Fprintln(a.env.Stderr, "parley: interrupted.")
		return ExitInterrupted
	}
	fmt.Fprintln(a.env.Stderr, "parley: "+sentence(termsafe.Sanitize(err.Error())))
	return code
}

// usageError marks a mistake in how parley was called or configured: exit 2.
type usageError struct{ err error }

func (e *usageError) Error() string { return e.err.Error() }
func (e *usageError) Unwrap() error { return e.err }

// usage wraps err (or a formatted message) as a usage error.
func usage(err error) error {
	if err == nil {
		return nil
	}
	return &usageError{err: err}
}

func usagef(format string, args ...any) error {
	return &usageError{err: fmt.Errorf(format, args...)}
}

// sentence makes s start with a capital letter and end with a full stop, so
// every message reads as a sentence whatever produced it.
func sentence(s string) string {
	s = strings.TrimSpace(s)
	if s == "" {
		return "something went wrong."
	}
	if c := s[0]; c >= 'a' && c <= 'z' {
		s = string(c-'a'+'A') + s[1:]
	}
	switch s[len(s)-1] {
	case '.', '!', '?', ')', '"':
		return s
	}
	return s + "."
}

// app holds what the commands share while one invocation runs.
type app struct {
	env     Env
	verbose bool
	cfgPath string
}

func (a *app) rootCommand() *cobra.Command {
	var tui tuiFlags
	root := &cobra.Command{
		Use:   "parley",
		Short: "Chat with language models in your terminal, ask about images, and generate them.",
		Long: `parley is a full-screen terminal chat for any OpenAI-compatible gateway.

Run it without a command to open the chat. The commands below serve scripts:
"parley ask" answers one prompt on stdout and "parley image" saves generated
images as files.

Point it at a gateway with OPENAI_BASE_URL and OPENAI_API_KEY, or with a config
file (see "parley help config").`,
		Version:       Version,
		SilenceUsage:  true,
		SilenceErrors: true,
		Args:          usageArgs(cobra.NoArgs),
		RunE: func(cmd *cobra.Command, _ []string) error {
			return a.runTUI(cmd.Context(), tui)
		},
	}
	root.SetVersionTemplate("parley {{.Version}}\n")
	root.SetFlagErrorFunc(func(_ *cobra.Command, err error) error {
		return usage(fmt.Errorf("%w; see \"parley --help\"", err))
	})
	root.PersistentFlags().BoolVarP(&a.verbose, "verbose", "v", false, "trace gateway requests on stderr (the API key is masked)")
	root.PersistentFlags().StringVar(&a.cfgPath, "config", "", "read this config file instead of the default one")
	root.Flags().StringVarP(&tui.model, "model", "m", "", "model to chat with (default: default_model from the config)")
	root.Flags().StringVar(&tui.theme, "theme", "", `colour theme: auto, dark, light, high-contrast, … (default "auto")`)
	root.Flags().BoolVar(&tui.mouse, "mouse", false, "scroll with the mouse wheel (the terminal's own text selection then needs shift)")
	root.AddCommand(a.askCommand(), a.imageCommand(), a.modelsCommand(), configHelpTopic())
	for _, c := range root.Commands() {
		c.SetFlagErrorFunc(root.FlagErrorFunc())
	}
	return root
}

// usageArgs turns cobra's argument checks into usage errors (exit 2).
func usageArgs(check cobra.PositionalArgs) cobra.PositionalArgs {
	return func(cmd *cobra.Command, args []string) error {
		if err := check(cmd, args); err != nil {
			return usage(fmt.Errorf("%w; see \"%s --help\"", err, cmd.CommandPath()))
		}
		return nil
	}
}
