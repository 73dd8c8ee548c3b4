package slash

import (
	"context"
	"fmt"
	"slices"
	"strings"

	"parley/ui/keys"
)

// Command is one slash command. The root registers it and handles its
// Invocation; the command itself holds no handler, so running a command can
// only change state where the root dispatches it (in Update).
type Command[E any] struct {
	// Name is typed after the slash: "model" for /model. Lower-case letters,
	// digits and "-", starting with a letter.
	Name string
	// Aliases are other names that run the same command ("q" for "quit").
	Aliases []string
	// Args is the usage of the arguments as the list shows it: "[name]",
	// "PROMPT", "PATH…". An Args that does not start with "[" means the
	// arguments are required: enter on the command in the list then types
	// "/name " instead of running it.
	Args string
	// Summary says what the command does, in a few words.
	Summary string
	// Action is the key-table action the command mirrors (keys.ModelPicker),
	// so the list can show its key; "" when there is none.
	Action string
	// Flags are the options the command takes (--n 2). A command with flags
	// gets them parsed into Invocation.Flags; one without leaves words that
	// start with "--" as ordinary words.
	Flags []Flag
	// Complete returns the candidates for the argument being typed. It runs
	// in a tea.Cmd, off the Update goroutine, with a deadline: it may read
	// the disk (paths) but must only read arg and env, and should return
	// when ctx is done. nil means the argument is not completed.
	Complete func(ctx context.Context, arg Arg, env E) []Completion
}

// Usage is the command as the list and error messages show it:
// "/model [name]".
func (c Command[E]) Usage() string {
	if c.Args == "" {
		return "/" + c.Name
	}
	return "/" + c.Name + " " + c.Args
}

// needsArgs reports whether the command cannot run without arguments.
func (c Command[E]) needsArgs() bool {
	return c.Args != "" && !strings.HasPrefix(c.Args, "[")
}

// flag returns the command's flag called name.
func (c Command[E]) flag(name string) (Flag, bool) {
	for _, f := range c.Flags {
		if f.Name == name {
			return f, true
		}
	}
	return Flag{}, false
}

// Arg describes the argument being completed.
type Arg struct {
	// Line is everything after the command name, as typed.
	Line string
	// Word is the word being completed, with quotes and escapes removed;
	// "" when a new word is started.
	Word string
	// Index is the word's position among the words that are neither
	// options nor option values (0 for the first).
	Index int
	// Flag is the option whose value the word is ("model" for
	// "--model gp"), or "".
	Flag string
}

// Completion is one candidate for the word being completed.
type Completion struct {
	// Value replaces the word (unquoted: the list quotes it as needed).
	Value string
	// Display is shown in the list instead of Value ("Pictures/" for
	// "~/Pictures/"); "" shows Value.
	Display string
	// Detail is muted text after it ("dark", "vision", "directory").
	Detail string
	// More says the value is not finished (a directory): no space follows
	// it, and completion goes on from there.
	More bool
}

// Registry holds the commands. Register them all at start-up; after that
// it is only read, so the list and the root may share it.
type Registry[E any] struct {
	cmds  []Command[E]
	index map[string]int // name or alias -> position in cmds
}

// NewRegistry returns an empty registry.
func NewRegistry[E any]() *Registry[E] {
	return &Registry[E]{index: map[string]int{}}
}

// Register adds commands in the order the list shows them. It refuses a
// name or alias that is malformed or already taken, a flag that is
// malformed or repeated, an Action the key table does not know, and a
// command without a summary; nothing of a refused call is added.
func (r *Registry[E]) Register(cmds ...Command[E]) error {
	taken := map[string]bool{}
	for _, c := range cmds {
		if err := checkCommand(c, taken, r.index); err != nil {
			return err
		}
	}
	for _, c := range cmds {
		c.Aliases = slices.Clone(c.Aliases)
		c.Flags = slices.Clone(c.Flags)
		r.index[c.Name] = len(r.cmds)
		for _, a := range c.Aliases {
			r.index[a] = len(r.cmds)
		}
		r.cmds = append(r.cmds, c)
	}
	return nil
}

// checkCommand validates one command; taken collects the names of the
// commands of this call so two of them cannot share one.
func checkCommand[E any](c Command[E], taken map[string]bool, index map[string]int) error {
	for _, n := range append([]string{c.Name}, c.Aliases...) {
		if !validName(n) {
			return fmt.Errorf("slash command name %q must be lower-case letters, digits and \"-\", starting with a letter", n)
		}
		if _, dup := index[n]; dup || taken[n] {
			return fmt.Errorf("slash command name %q is registered twice", n)
		}
		taken[n] = true
	}
	if strings.TrimSpace(c.Summary) == "" {
		return fmt.Errorf("slash command /%s has no summary", c.Name)
	}
	if c.Action != "" && !slices.Contains(keys.Actions(), c.Action) {
		return fmt.Errorf("slash command /%s mirrors %q, which is not an action of the key table", c.Name, c.Action)
	}
	seen := map[string]bool{}
	for _, f := range c.Flags {
		if !validName(f.Name) {
			return fmt.Errorf("slash command /%s: flag name %q must be lower-case letters, digits and \"-\", starting with a letter", c.Name, f.Name)
		}
		if seen[f.Name] {
			return fmt.Errorf("slash command /%s: flag --%s is declared twice", c.Name, f.Name)
		}
		seen[f.Name] = true
	}
	return nil
}

func validName(s string) bool {
	if s == "" || s[0] < 'a' || s[0] > 'z' {
		return false
	}
	for i := 0; i < len(s); i++ {
		c := s[i]
		if (c < 'a' || c > 'z') && (c < '0' || c > '9') && c != '-' {
			return false
		}
	}
	return true
}

// Commands returns the commands in the order they were registered.
func (r *Registry[E]) Commands() []Command[E] { return slices.Clone(r.cmds) }

// Lookup returns the command called name (or one of its aliases); case
// does not matter.
func (r *Registry[E]) Lookup(name string) (Command[E], bool) {
	i, ok := r.index[strings.ToLower(name)]
	if !ok {
		return Command[E]{}, false
	}
	return r.cmds[i], true
}

// lookupIndex is Lookup returning the command's position.
func (r *Registry[E]) lookupIndex(name string) (int, bool) {
	i, ok := r.index[strings.ToLower(name)]
	return i, ok
}

// names returns every name and alias, names first in registration order,
// so a "did you mean" tie goes to a command's own name.
func (r *Registry[E]) names() []string {
	out := make([]string, 0, len(r.index))
	for _, c := range r.cmds {
		out = append(out, c.Name)
	}
	for _, c := range r.cmds {
		out = append(out, c.Aliases...)
	}
	return out
}
