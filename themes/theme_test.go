package themes

import (
	"slices"
	"strings"
	"testing"
)

func TestParseColor(t *testing.T) {
	good := map[string]Color{
		"#FF8800": "#ff8800", "#abc": "#aabbcc", " #123456 ": "#123456",
		"0": "0", "212": "212", "255": "255", "": "", "none": "",
	}
	for in, want := range good {
		got, err := ParseColor(in)
		if err != nil || got != want {
			t.Errorf("ParseColor(%q) = %q, %v; want %q", in, got, err, want)
		}
	}
	for _, in := range []string{"#12345", "#ggg000", "256", "-1", "red", "#", "12a"} {
		if _, err := ParseColor(in); err == nil || !strings.Contains(err.Error(), "#rrggbb") {
			t.Errorf("ParseColor(%q): want an error naming the accepted forms, got %v", in, err)
		}
	}
}

func TestANSIColorsBecomeHexForChroma(t *testing.T) {
	for in, want := range map[Color]string{"1": "#af0000", "16": "#000000", "21": "#0000ff", "196": "#ff0000", "244": "#808080", "#a1b2c3": "#a1b2c3", "": ""} {
		if got := in.hex(); got != want {
			t.Errorf("%q.hex() = %q, want %q", in, got, want)
		}
	}
}

// optional roles may be empty in a built-in.
var optional = []string{"syntax.text", "inline_code_bg"}

func TestBuiltins(t *testing.T) {
	bs := Builtins()
	var names []string
	for _, th := range bs {
		names = append(names, th.Name)
		if th.Source != "builtin" {
			t.Errorf("%s: Source = %q", th.Name, th.Source)
		}
		for _, key := range Roles() {
			c, ok := th.Color(key)
			if !ok {
				t.Fatalf("role %q not found", key)
			}
			if c == "" && !slices.Contains(optional, key) {
				t.Errorf("%s: role %s is empty", th.Name, key)
			}
			if parsed, err := ParseColor(string(c)); err != nil || parsed != c {
				t.Errorf("%s: role %s = %q is not canonical (%v)", th.Name, key, c, err)
			}
		}
	}
	for _, want := range []string{Dark, Light, HighContrast, Nord, Gruvbox, SolarizedLight} {
		if !slices.Contains(names, want) {
			t.Errorf("built-in %q missing from %v", want, names)
		}
	}
	if len(names) < 5 {
		t.Errorf("want at least five built-ins, got %v", names)
	}
	if d, _ := builtin(Dark); !d.Dark {
		t.Error("dark is not marked Dark")
	}
	if l, _ := builtin(Light); l.Dark {
		t.Error("light is marked Dark")
	}
	// Builtins returns fresh values.
	bs[0].Accent = "#000000"
	if Builtins()[0].Accent == "#000000" {
		t.Error("Builtins shares state between calls")
	}
}

func TestSetResolve(t *testing.T) {
	s := NewSet()
	for _, tc := range []struct {
		name string
		dark bool
		want string
	}{
		{"auto", true, Dark}, {"auto", false, Light}, {"", true, Dark}, {"AUTO", false, Light},
		{"nord", false, Nord}, {"Gruvbox", true, Gruvbox}, {"solarized-light", true, SolarizedLight},
		{"no-such-theme", true, Dark}, {"no-such-theme", false, Light},
	} {
		if got := s.Resolve(tc.name, tc.dark).Name; got != tc.want {
			t.Errorf("Resolve(%q, %v) = %q, want %q", tc.name, tc.dark, got, tc.want)
		}
	}
	if _, ok := s.Get("auto"); ok {
		t.Error(`Get("auto") must not find a theme`)
	}
	if th, ok := s.Get(" High-Contrast "); !ok || th.Name != HighContrast {
		t.Errorf("Get is not case-insensitive: %v %v", th.Name, ok)
	}
	if got := s.Names(); !slices.Equal(got, builtinNames()) {
		t.Errorf("Names() = %v", got)
	}
}

func TestSetUserThemes(t *testing.T) {
	myDark := darkTheme()
	myDark.Accent, myDark.Source = "#123456", "/x/dark.toml"
	dusk := nordTheme()
	dusk.Name, dusk.Source = "dusk", "/x/dusk.toml"
	dusk2 := dusk
	dusk2.Accent = "#654321"
	s := NewSet(dusk, myDark, dusk2)

	names := s.Names()
	if names[0] != Dark || names[len(names)-1] != "dusk" || len(names) != len(Builtins())+1 {
		t.Fatalf("Names() = %v: want built-ins first, the override in place, user themes after", names)
	}
	if got := s.Resolve("auto", true); got.Accent != "#123456" || got.Source != "/x/dark.toml" {
		t.Errorf("auto on dark resolves to %+v, want the user's dark", got.Source)
	}
	if got, _ := s.Get("dusk"); got.Accent != dusk.Accent {
		t.Errorf("first user theme with a name must win, got accent %s", got.Accent)
	}
	if len(s.Themes()) != len(names) {
		t.Error("Themes and Names disagree")
	}
}
