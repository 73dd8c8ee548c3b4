package slash

import (
	"errors"
	"fmt"
	"strings"
	"unicode"

	"parley/internal/suggest"
	"parley/termsafe"
)

// Invocation is a parsed command line, ready for the root to dispatch by
// Name.
type Invocation struct {
	// Name is the command's name; an alias has been resolved to it.
	Name string
	// Args is everything after the name, white space around it trimmed:
	// free text such as /system's prompt, exactly as typed.
	Args string
	// Argv is Args split into words (quotes and escapes removed).
	Argv []string
	// Flags holds the options of a command that declares Flags (nil for
	// one that does not).
	Flags Flags
	// Positional is Argv without the options and their values: the prompt
	// words of /image, the paths of /attach. For a command without Flags it
	// is Argv.
	Positional []string
	// Usage is the command's usage ("/copy [n]") for the handler's own
	// error messages.
	Usage string
}

// UnknownError is the error for a command name no command has.
type UnknownError struct {
	// Name is the name as typed (sanitised, shortened when long).
	Name string
	// Suggestion is the nearest command's name, or "".
	Suggestion string
}

func (e *UnknownError) Error() string {
	if e.Suggestion != "" {
		return fmt.Sprintf("unknown command /%s; did you mean /%s? Type / to see every command", e.Name, e.Suggestion)
	}
	return fmt.Sprintf("unknown command /%s; type / to see every command, or start with // to send text that begins with /", e.Name)
}

// errBareSlash is the error for a line that is only "/".
var errBareSlash = errors.New("a slash alone is not a command; type a command name after it, or start with // to send text that begins with /")

// Parse reads what the user sent from the composer.
//
//   - Text that does not start with "/" is a message: send is the text.
//   - "//text" is the message "/text": send is the text without the first
//     slash.
//   - "/name args" is a command: inv is set, send is "".
//
// err is set (and nothing else) for an unknown name (an *UnknownError with
// the nearest name), a bare "/" and options the command does not accept.
// The root shows err and keeps the composer's text so nothing is lost.
func (r *Registry[E]) Parse(line string) (inv Invocation, send string, err error) {
	if !strings.HasPrefix(line, "/") {
		return Invocation{}, line, nil
	}
	if strings.HasPrefix(line, "//") {
		return Invocation{}, line[1:], nil
	}
	name, rest := splitName(line[1:])
	if name == "" {
		return Invocation{}, "", errBareSlash
	}
	i, ok := r.lookupIndex(name)
	if !ok {
		return Invocation{}, "", r.unknown(name)
	}
	inv, err = r.invocation(i, rest)
	return inv, "", err
}

// invocation parses the arguments of command i.
func (r *Registry[E]) invocation(i int, rest string) (Invocation, error) {
	c := r.cmds[i]
	args := strings.TrimSpace(rest)
	argv := texts(splitWords(args))
	inv := Invocation{Name: c.Name, Args: args, Argv: argv, Positional: argv, Usage: c.Usage()}
	if len(c.Flags) > 0 {
		flags, pos, err := ParseFlags(argv, c.Flags)
		if err != nil {
			return Invocation{}, fmt.Errorf("/%s: %w", c.Name, err)
		}
		inv.Flags, inv.Positional = flags, pos
	}
	if c.needsArgs() && len(inv.Positional) == 0 {
		return Invocation{}, fmt.Errorf("/%s is missing its arguments; write %s", c.Name, c.Usage())
	}
	return inv, nil
}

// splitName splits "name rest" at the first white space.
func splitName(s string) (name, rest string) {
	for i, r := range s {
		if unicode.IsSpace(r) {
			return s[:i], s[i:]
		}
	}
	return s, ""
}

// maxShownName bounds how much of a mistyped name an error repeats.
const maxShownName = 32

// unknown builds the error for a name no command has: the first command
// the name is a prefix of, else the nearest by spelling.
func (r *Registry[E]) unknown(name string) *UnknownError {
	lower := strings.ToLower(name)
	sugg := ""
	for _, c := range r.cmds {
		if strings.HasPrefix(c.Name, lower) {
			sugg = c.Name
			break
		}
	}
	if sugg == "" {
		if near := suggest.Closest(lower, r.names()); near != "" {
			sugg = r.cmds[r.index[near]].Name
		}
	}
	return &UnknownError{Name: shorten(termsafe.Sanitize(name), maxShownName), Suggestion: sugg}
}
