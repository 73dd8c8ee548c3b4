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
	"os"
	"runtime/debug"
	"strings"
	"time"

	"github.com/spf13/cobra"
	"github.com/spf13/pflag"

	"parley/internal/demo"
	"parley/termsafe"
)

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
	// StdinIsTerminal, StdoutIsTerminal and StderrIsTerminal say whether
	// the streams are terminals (stdin is read as input only when it is
	// not one; ask shows reasoning on stderr when it is one).
	StdinIsTerminal, StdoutIsTerminal, StderrIsTerminal bool
	Getenv                                              func(string) string
	// Environ is the whole environment, which MCP servers parley starts
	// inherit; nil means the process's own (os.Environ).
	Environ func() []string
	HomeDir string
	Now     func() time.Time
	// RunTUI opens the full-screen chat; nil means it is not available.
	RunTUI func(ctx context.Context, req TUIRequest) error
	// PrepareTUI, when set, runs on a goroutine of its own as the chat
	// command begins: one-time work of the chat's first frame, done while
	// the config is read and the history opened. It must end on its own,
	// within milliseconds.
	PrepareTUI func()
}

// Main runs parley with the command-line arguments (without the program
// name) and returns the exit status.
func Main(ctx context.Context, args []string, env Env) (code int) {
	if env.Now == nil {
		env.Now = time.Now
	}
	if env.Getenv == nil {
		env.Getenv = func(string) string { return "" }
	}
	app := newApp(env)
	defer func() {
		if r := recover(); r != nil {
			code = app.crashed(r)
		}
	}()
	defer app.closeDemo()
	root := app.rootCommand()
	root.SetArgs(args)
	root.SetIn(env.Stdin)
	root.SetOut(env.Stdout)
	root.SetErr(env.Stderr)
	checkCompletionCommand(root)
	_, err := root.ExecuteContextC(ctx)
	if err == nil {
		return ExitOK
	}
	return app.console.report(err)
}

// crashed reports a panic as one sentence instead of a Go trace, which
// could show the key in the panic value; the trace (masked) follows only
// with --verbose.
func (a *app) crashed(r any) int {
	what := strings.Join(strings.Fields(fmt.Sprint(r)), " ")
	a.console.say(fmt.Sprintf("internal error (%s); this is a bug in parley, so please report it with the output of the same command run with --verbose", what))
	if a.verbose {
		fmt.Fprint(a.env.Stderr, a.console.mask(string(debug.Stack())))
	}
	return ExitFailure
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
// every message reads as a sentence whatever produced it. Only a plain
// lower-case word is capitalised: a message that starts with a name keeps
// it as written, since on a case-sensitive disk "Adir" is another path
// than "adir". A name is a word with anything but letters ("nope.toml",
// "gpt-4o", "adir/x"), a label before a colon ("adir: this is a
// directory", "jpeg: ..."), or a file or folder that exists ("notes
// exists already"). A closing quote or bracket after the stop ("... (see
// x.)") counts as the end. So is any of names, the names the message
// holds (a model id such as "nosuchmodel" is spelled as the gateway
// knows it).
func sentence(s string, names ...string) string {
	s = strings.TrimSpace(s)
	if s == "" {
		return "Something went wrong."
	}
	first, _, _ := strings.Cut(s, " ")
	word := strings.TrimRight(first, ";,")
	// A sentence that starts with a command ("parley sessions export
	// takes …") keeps it as it is typed.
	if word != "" && word != "parley" && !named(word, names) && !strings.HasSuffix(word, ":") && strings.Trim(word, "abcdefghijklmnopqrstuvwxyz") == "" && !exists(word) {
		s = string(s[0]-'a'+'A') + s[1:]
	}
	if end := strings.TrimRight(s, ")\"'`"); end != "" && strings.ContainsRune(".!?", rune(end[len(end)-1])) {
		return s
	}
	return s + "."
}

// named reports whether word is one of names, as sanitized for the
// terminal like the message.
func named(word string, names []string) bool {
	for _, n := range names {
		if word == termsafe.Sanitize(n) {
			return true
		}
	}
	return false
}

// exists reports a file or folder of that name in the working folder.
func exists(name string) bool {
	_, err := os.Lstat(name)
	return err == nil
}

// app holds what the commands share while one invocation runs.
type app struct {
	env     Env
	verbose bool
	cfgPath string
	// console speaks on stderr, masking the API keys seen (which the
	// history redacts too).
	console *console

	demo    bool          // --demo: use the built-in demo gateway
	demoDPS float64       // --demo-dps: its streaming pace
	gateway *demo.Gateway // the running demo gateway, once started
}

func newApp(env Env) *app {
	return &app{env: env, console: &console{stderr: env.Stderr, getenv: env.Getenv}}
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
file (see "parley help config"). To try it without a gateway, run
"parley --demo" (see "parley help demo").`,
		// The whole --version text (see Build.String), printed as is by
		// the template below; cobra uses the field for nothing else.
		Version:       CurrentBuild().String(),
		SilenceUsage:  true,
		SilenceErrors: true,
		Args:          noArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			return a.runTUI(cmd.Context(), tui)
		},
	}
	root.SetVersionTemplate("{{.Version}}")
	root.SetUsageFunc(writeUsage)
	root.SetFlagErrorFunc(flagError)
	root.PersistentFlags().BoolVarP(&a.verbose, "verbose", "v", false, "trace gateway requests on stderr (the chat writes them to a log file and says which); the API key is masked")
	root.PersistentFlags().StringVar(&a.cfgPath, "config", "", "read this config file instead of the default one")
	root.PersistentFlags().BoolVar(&a.demo, "demo", false, "use the built-in demo gateway: no account needed, nothing leaves this machine")
	root.PersistentFlags().Float64Var(&a.demoDPS, "demo-dps", 0, "the demo's streaming pace in deltas per second (-1: no pauses)")
	_ = root.PersistentFlags().MarkHidden("demo-dps") // for benchmarks and tests
	root.PersistentPreRunE = a.checkDemoFlags
	root.Flags().StringVarP(&tui.model, "model", "m", "", "model to chat with (default: a reopened session's own, else default_model from the config)")
	root.Flags().StringVarP(&tui.system, "system", "s", "", "system prompt for this run's conversations (default: a reopened session's own, else system_prompt)")
	root.Flags().StringVar(&tui.role, "role", "", "start with a role of the config ([[roles]]): its system prompt, model and params")
	root.Flags().StringVar(&tui.theme, "theme", "", `colour theme: auto, dark, light, high-contrast, … (default "auto")`)
	root.Flags().BoolVar(&tui.mouse, "mouse", false, "scroll with the mouse wheel (the terminal's own text selection then needs shift)")
	root.Flags().BoolVar(&tui.noImages, "no-images", false, "show no image previews (the images config setting for this run)")
	tui.history.register(root.Flags())
	root.AddCommand(a.askCommand(), a.imageCommand(), a.modelsCommand(), (&sessionsCmd{env: a.env, console: a.console, priceOf: a.priceOf}).sessionsCommand(), a.doctorCommand(), configHelpTopic(), demoHelpTopic())
	for _, c := range root.Commands() {
		c.SetFlagErrorFunc(root.FlagErrorFunc())
	}
	a.registerCompletions(root)
	return root
}

// noArgs refuses arguments with a sentence that says what went wrong;
// cobra's own check calls a stray word an unknown command.
func noArgs(cmd *cobra.Command, args []string) error {
	if len(args) == 0 {
		return nil
	}
	if !cmd.HasParent() {
		return usagef("%q is not a parley command; the commands are ask, image, models, sessions and doctor (see \"parley --help\")", args[0])
	}
	return usagef("unexpected argument %q: %s takes none; see \"%s --help\"", strings.Join(args, " "), cmd.CommandPath(), cmd.CommandPath())
}

// flagError rewrites pflag's messages ("invalid argument "x" for "-n, --n"
// flag: strconv.ParseInt: ...") as sentences naming the flag and pointing at
// the command's help.
func flagError(cmd *cobra.Command, err error) error {
	help := fmt.Sprintf("see \"%s --help\"", cmd.CommandPath())
	var (
		notExist *pflag.NotExistError
		required *pflag.ValueRequiredError
		invalid  *pflag.InvalidValueError
	)
	switch {
	case errors.As(err, &notExist):
		name := "--" + notExist.GetSpecifiedName()
		if notExist.GetSpecifiedShortnames() != "" {
			name = "-" + notExist.GetSpecifiedName()
		}
		return usagef("unknown flag %s for %s; %s", name, cmd.CommandPath(), help)
	case errors.As(err, &required):
		return usagef("the flag %s needs a value; %s", flagName(required.GetFlag()), help)
	case errors.As(err, &invalid):
		what := "is not valid"
		switch invalid.GetFlag().Value.Type() {
		case "int":
			what = "is not a whole number"
		case "bool":
			what = "is not true or false"
		}
		return usagef("%q %s, as the flag %s needs; %s", invalid.GetValue(), what, flagName(invalid.GetFlag()), help)
	}
	return usage(fmt.Errorf("%w; %s", err, help))
}

func flagName(f *pflag.Flag) string {
	if f == nil {
		return "flag"
	}
	if f.Shorthand != "" {
		return "-" + f.Shorthand + "/--" + f.Name
	}
	return "--" + f.Name
}
