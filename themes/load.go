package themes

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/BurntSushi/toml"

	"parley/internal/bytesize"
	"parley/internal/safefile"
	"parley/internal/suggest"
	"parley/internal/tomlnest"
)

// FileError is a problem with one theme file: the file, the line (0 when it
// is not tied to one), what is wrong, and whether the file was skipped.
// Unknown keys are reported but do not skip the file, so that a theme
// written for a newer parley still loads.
type FileError struct {
	Path    string
	Line    int
	Msg     string
	Skipped bool
	Err     error // underlying error, if any
}

func (e *FileError) Error() string {
	loc := e.Path
	if e.Line > 0 {
		loc = fmt.Sprintf("%s:%d", e.Path, e.Line)
	}
	if e.Skipped {
		return fmt.Sprintf("theme file %s: %s; the theme was skipped, fix the file to use it", loc, e.Msg)
	}
	return fmt.Sprintf("theme file %s: %s", loc, e.Msg)
}

func (e *FileError) Unwrap() error { return e.Err }

// LoadDir loads the user themes in dir: every "*.toml" file, in file-name
// order. A missing dir is not an error. A file with a problem is reported
// as a *FileError and, unless the only problem is an unknown key, skipped.
// When two files define the same name, the first one wins and the second
// is reported and skipped.
//
// A theme file holds a name, an optional base and the colours that differ
// from the base:
//
//	name = "dusk"          # optional: defaults to the file name without .toml
//	base = "nord"          # optional built-in to inherit from; default: dark, or light if dark = false
//	dark = true            # optional: is it meant for a dark background? default: the base's
//	accent = "#ff8800"     # role = "#rrggbb", "#rgb", an ANSI number 0-255 (212 or "212"), or "" for none
//	[syntax]
//	keyword = "#c678dd"
//
// The role keys are listed by Roles.
func LoadDir(dir string) ([]Theme, []error) {
	entries, err := os.ReadDir(dir)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, []error{fmt.Errorf("reading the theme directory %s: %w", dir, err)}
	}
	var (
		themes []Theme
		errs   []error
		seen   = map[string]string{} // lower-case name -> file
	)
	for _, e := range entries {
		if e.IsDir() || !strings.HasSuffix(e.Name(), ".toml") {
			continue
		}
		path := filepath.Join(dir, e.Name())
		t, ferrs := LoadFile(path)
		for _, fe := range ferrs {
			errs = append(errs, fe)
		}
		if slices.ContainsFunc(ferrs, func(fe *FileError) bool { return fe.Skipped }) {
			continue
		}
		key := strings.ToLower(t.Name)
		if first, dup := seen[key]; dup {
			errs = append(errs, &FileError{Path: path, Line: lineOf(mustRead(path), "name"), Skipped: true,
				Msg: fmt.Sprintf("the name %q is already used by %s", t.Name, first)})
			continue
		}
		seen[key] = path
		themes = append(themes, t)
	}
	return themes, errs
}

func mustRead(path string) string {
	b, _ := safefile.Read(path, MaxFileSize)
	return string(b)
}

// MaxFileSize caps a theme file: a real one is under a kilobyte.
const MaxFileSize = 1 << 20

// LoadFile loads one theme file (see LoadDir). If any returned error is
// Skipped, the Theme is not usable. Only a regular file of at most
// MaxFileSize is read, and one nested more than tomlnest.MaxDepth levels
// is refused before it is decoded.
func LoadFile(path string) (Theme, []*FileError) {
	data, err := safefile.Read(path, MaxFileSize)
	var (
		notRegular *safefile.NotRegularError
		tooLarge   *safefile.TooLargeError
		deep       *tomlnest.Error
	)
	switch {
	case errors.As(err, &notRegular):
		return Theme{}, []*FileError{{Path: path, Msg: "is " + notRegular.Kind + ", not a regular file", Skipped: true, Err: err}}
	case errors.As(err, &tooLarge):
		return Theme{}, []*FileError{{Path: path, Msg: "is larger than " + bytesize.Format(MaxFileSize) + ", far more than a theme needs", Skipped: true, Err: err}}
	case err != nil:
		return Theme{}, []*FileError{{Path: path, Msg: "cannot be read: " + err.Error(), Skipped: true, Err: err}}
	}
	if err := tomlnest.Check(string(data), tomlnest.MaxDepth); errors.As(err, &deep) {
		return Theme{}, []*FileError{{Path: path, Line: deep.Line, Msg: deep.Error(), Skipped: true, Err: err}}
	}
	return parseTheme(path, string(data))
}

// parseTheme does the work of LoadFile on the file's text.
func parseTheme(path, text string) (Theme, []*FileError) {
	raw, fe := decodeTheme(path, text)
	if fe != nil {
		return Theme{}, []*FileError{fe}
	}
	p := &themeParser{path: path, text: text, raw: raw}
	name := p.name()
	t := p.base()
	t.Name, t.Source = name, path
	p.colours(&t)
	// Report in file order.
	slices.SortStableFunc(p.errs, func(a, b *FileError) int { return a.Line - b.Line })
	return t, p.errs
}

// decodeTheme decodes the file's TOML, or says where it is not valid.
func decodeTheme(path, text string) (map[string]any, *FileError) {
	var raw map[string]any
	if _, err := toml.Decode(text, &raw); err != nil {
		fe := &FileError{Path: path, Msg: "is not valid TOML: " + err.Error(), Skipped: true, Err: err}
		var pe toml.ParseError
		if errors.As(err, &pe) {
			fe.Line = pe.Position.Line
			fe.Msg = "is not valid TOML: " + pe.Message
		}
		return nil, fe
	}
	return raw, nil
}

// themeParser reads the decoded keys of one theme file and gathers its
// problems.
type themeParser struct {
	path, text string
	raw        map[string]any
	errs       []*FileError
}

// fail records a problem that makes the theme unusable.
func (p *themeParser) fail(key, format string, args ...any) {
	p.errs = append(p.errs, &FileError{Path: p.path, Line: lineOf(p.text, key), Msg: fmt.Sprintf(format, args...), Skipped: true})
}

// warn records a problem the theme loads despite.
func (p *themeParser) warn(key, format string, args ...any) {
	p.errs = append(p.errs, &FileError{Path: p.path, Line: lineOf(p.text, key), Msg: fmt.Sprintf(format, args...)})
}

// str returns the string value of a top-level key; ok is false when the
// key is absent or (reported) not a string.
func (p *themeParser) str(key string) (string, bool) {
	v, ok := p.raw[key]
	if !ok {
		return "", false
	}
	s, isStr := v.(string)
	if !isStr {
		p.fail(key, "%s must be a string", key)
	}
	return s, isStr
}

// name is the theme's name: the name key, else the file name without
// ".toml".
func (p *themeParser) name() string {
	name := strings.TrimSuffix(filepath.Base(p.path), ".toml")
	if s, ok := p.str("name"); ok {
		name = strings.TrimSpace(s)
	}
	if err := validName(name); err != nil {
		p.fail("name", "%v", err)
	}
	return name
}

// base returns the built-in the theme starts from (the base key, else dark,
// or light when dark = false), with the dark key applied.
func (p *themeParser) base() Theme {
	baseName := ""
	if s, ok := p.str("base"); ok {
		baseName = s
	}
	var dark *bool
	if v, ok := p.raw["dark"]; ok {
		if b, isBool := v.(bool); isBool {
			dark = &b
		} else {
			p.fail("dark", "dark must be true or false")
		}
	}
	if baseName == "" {
		baseName = Dark
		if dark != nil && !*dark {
			baseName = Light
		}
	}
	t, ok := builtin(baseName)
	if !ok {
		p.fail("base", "base %q is not a built-in theme; use one of %s", baseName, strings.Join(builtinNames(), ", "))
	}
	if dark != nil {
		t.Dark = *dark
	}
	return t
}

// colours applies every colour key of the file, top-level and in the
// [syntax] table, to t.
func (p *themeParser) colours(t *Theme) {
	for _, k := range sortedKeys(p.raw) {
		switch k {
		case "name", "base", "dark":
			continue
		case "syntax":
			tbl, isTable := p.raw[k].(map[string]any)
			if !isTable {
				p.fail(k, "syntax must be a table: [syntax]")
				continue
			}
			for _, sk := range sortedKeys(tbl) {
				p.colour(t, "syntax."+sk, tbl[sk])
			}
		default:
			p.colour(t, k, p.raw[k])
		}
	}
}

// colour sets the role with the given key to v, or reports why it cannot.
func (p *themeParser) colour(t *Theme, key string, v any) {
	r, known := roleByKey(key)
	if !known {
		if near := suggest.Closest(key, Roles()); near != "" {
			p.warn(key, "unknown key %q ignored; did you mean %q?", key, near)
		} else {
			p.warn(key, "unknown key %q ignored; it is not a colour role", key)
		}
		return
	}
	var s string
	switch v := v.(type) {
	case string:
		s = v
	case int64:
		s = fmt.Sprint(v)
	default:
		p.fail(key, "%s must be a colour: \"#rrggbb\" or an ANSI colour number 0-255", key)
		return
	}
	c, err := ParseColor(s)
	if err != nil {
		p.fail(key, "%s: %v", key, err)
		return
	}
	*r.field(t) = c
}

func sortedKeys(m map[string]any) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	return keys
}

func roleByKey(key string) (role, bool) {
	for _, r := range roles {
		if r.key == key {
			return r, true
		}
	}
	return role{}, false
}

// validName accepts names that are easy to type in a config file and on
// the command line.
func validName(name string) error {
	switch {
	case name == "":
		return errors.New("name is empty")
	case len(name) > 40:
		return fmt.Errorf("name %q is longer than 40 characters", name)
	case strings.EqualFold(name, Auto):
		return fmt.Errorf("name %q is reserved (it picks dark or light from the terminal)", name)
	}
	for _, r := range name {
		if !(r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' || r == '-' || r == '_' || r == '.') {
			return fmt.Errorf("name %q may only contain letters, digits, '-', '_' and '.'", name)
		}
	}
	return nil
}

func builtin(name string) (Theme, bool) {
	for _, t := range Builtins() {
		if strings.EqualFold(t.Name, name) {
			return t, true
		}
	}
	return Theme{}, false
}

func builtinNames() []string {
	var names []string
	for _, t := range Builtins() {
		names = append(names, t.Name)
	}
	return names
}

// lineOf finds the line that sets key ("accent", or "syntax.keyword" for a
// key in the [syntax] table or written as a dotted key), or 0. The TOML
// decoder does not expose key positions, and theme files are flat enough
// for a line scan.
func lineOf(text, key string) int {
	table := ""
	for i, line := range strings.Split(text, "\n") {
		line = strings.TrimSpace(line)
		if strings.HasPrefix(line, "[") {
			table = strings.Trim(strings.TrimSpace(strings.Trim(line, "[]")), `"'`)
			continue
		}
		k, _, ok := strings.Cut(line, "=")
		if !ok {
			continue
		}
		parts := strings.Split(strings.TrimSpace(k), ".")
		for j := range parts {
			parts[j] = strings.Trim(strings.TrimSpace(parts[j]), `"'`)
		}
		full := strings.Join(parts, ".")
		if table != "" {
			full = table + "." + full
		}
		if full == key {
			return i + 1
		}
	}
	return 0
}
