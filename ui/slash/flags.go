package slash

import (
	"fmt"
	"strconv"
	"strings"
	"unicode/utf8"

	"parley/internal/suggest"
	"parley/termsafe"
)

// Flag is an option a command takes, typed as --name value or --name=value.
type Flag struct {
	// Name is typed after "--": "n" for --n.
	Name string
	// Value names the option's value in usage text ("N", "WxH", "PATH");
	// "" makes the option a switch that takes no value.
	Value string
	// Usage says what the option does, for the command list.
	Usage string
}

// usage is "--n N" or "--all".
func (f Flag) usage() string {
	if f.Value == "" {
		return "--" + f.Name
	}
	return "--" + f.Name + " " + f.Value
}

// Flags holds the options given to a command: name -> value ("true" for a
// switch).
type Flags map[string]string

// ParseFlags separates options from the other words of argv. Options are
// "--name value", "--name=value" or, for a switch, "--name"; "--" ends the
// options, so every word after it is positional (a prompt that starts with
// "--"); a word with a single dash is positional. The error, one sentence,
// names the option and says what to write.
func ParseFlags(argv []string, flags []Flag) (Flags, []string, error) {
	out := Flags{}
	var pos []string
	for i := 0; i < len(argv); i++ {
		w := argv[i]
		if w == "--" {
			pos = append(pos, argv[i+1:]...)
			break
		}
		if !strings.HasPrefix(w, "--") {
			pos = append(pos, w)
			continue
		}
		name, value, hasValue := strings.Cut(w[2:], "=")
		name = strings.ToLower(name)
		f, ok := findFlag(flags, name)
		if !ok {
			return nil, nil, unknownFlag(w[2:], name, flags)
		}
		if _, dup := out[name]; dup {
			return nil, nil, fmt.Errorf("--%s is given twice; give it once", name)
		}
		switch {
		case f.Value == "" && hasValue:
			return nil, nil, fmt.Errorf("--%s takes no value; write just --%s", name, name)
		case f.Value == "":
			value = "true"
		case !hasValue:
			if i+1 >= len(argv) || strings.HasPrefix(argv[i+1], "--") {
				return nil, nil, fmt.Errorf("--%s needs a value, like %s", name, f.usage())
			}
			i++
			value = argv[i]
		}
		if f.Value != "" && value == "" {
			return nil, nil, fmt.Errorf("--%s needs a value, like %s", name, f.usage())
		}
		out[name] = value
	}
	return out, pos, nil
}

func findFlag(flags []Flag, name string) (Flag, bool) {
	for _, f := range flags {
		if f.Name == name {
			return f, true
		}
	}
	return Flag{}, false
}

// unknownFlag words the error for an option the command does not take.
func unknownFlag(typed, name string, flags []Flag) error {
	names := make([]string, len(flags))
	all := make([]string, len(flags))
	for i, f := range flags {
		names[i] = f.Name
		all[i] = f.usage()
	}
	shown := shorten(termsafe.Sanitize(typed), maxShownName)
	if near := suggest.Closest(name, names); near != "" {
		return fmt.Errorf("--%s is not an option here; did you mean --%s?", shown, near)
	}
	if len(all) == 0 {
		return fmt.Errorf("--%s is not an option here; this command takes none (put -- before text that starts with --)", shown)
	}
	return fmt.Errorf("--%s is not an option here; the options are %s (put -- before text that starts with --)", shown, strings.Join(all, ", "))
}

// Has reports whether the option was given.
func (f Flags) Has(name string) bool {
	_, ok := f[name]
	return ok
}

// String returns the option's value, "" when it was not given.
func (f Flags) String(name string) string { return f[name] }

// Int returns the option's value as a whole number from lo to hi, or def
// when it was not given.
func (f Flags) Int(name string, def, lo, hi int) (int, error) {
	v, ok := f[name]
	if !ok {
		return def, nil
	}
	n, err := strconv.Atoi(strings.TrimSpace(v))
	if err != nil {
		return 0, fmt.Errorf("--%s must be a whole number, like --%s %d, not %q", name, name, lo, shorten(termsafe.Sanitize(v), maxShownName))
	}
	if n < lo || n > hi {
		return 0, fmt.Errorf("--%s must be from %d to %d, not %d", name, lo, hi, n)
	}
	return n, nil
}

// maxSide bounds each side of a size option; what a model accepts is
// checked by the command itself.
const maxSide = 65535

// Size returns the option's value as WIDTHxHEIGHT in pixels ("1024x1024";
// "X" and "×" work too), or 0, 0 when it was not given.
func (f Flags) Size(name string) (w, h int, err error) {
	v, ok := f[name]
	if !ok {
		return 0, 0, nil
	}
	s := strings.ToLower(strings.TrimSpace(v))
	a, b, found := strings.Cut(strings.ReplaceAll(s, "×", "x"), "x")
	w, errW := strconv.Atoi(a)
	h, errH := strconv.Atoi(b)
	if !found || errW != nil || errH != nil {
		return 0, 0, fmt.Errorf("--%s must be WIDTHxHEIGHT in pixels, like --%s 1024x1024, not %q", name, name, shorten(termsafe.Sanitize(v), maxShownName))
	}
	if w < 1 || h < 1 || w > maxSide || h > maxSide {
		return 0, 0, fmt.Errorf("--%s needs both sides from 1 to %d pixels, not %dx%d", name, maxSide, w, h)
	}
	return w, h, nil
}

// shorten cuts s to at most n runes, marking the cut.
func shorten(s string, n int) string {
	if utf8.RuneCountInString(s) <= n {
		return s
	}
	return string([]rune(s)[:n-1]) + "…"
}
