package themes

import (
	"bytes"
	"fmt"
	"image/color"
	"math/rand/v2"
	"reflect"
	"strconv"
	"strings"
	"testing"

	"charm.land/glamour/v2/ansi"
	"charm.land/lipgloss/v2"
	chromastyles "github.com/alecthomas/chroma/v2/styles"
	"github.com/charmbracelet/colorprofile"
	xansi "github.com/charmbracelet/x/ansi"
)

// The pairs the issue named, and the reference points of the rule.
func TestReadable16(t *testing.T) {
	for _, tc := range []struct {
		fg, bg int
		want   bool
		what   string
	}{
		{4, 0, false, "dark blue on black"},
		{9, 4, false, "red on blue"},
		{1, 4, false, "dark red on blue"},
		{0, 0, false, "a colour on itself"},
		{15, 15, false, "white on white"},
		{8, 0, true, "dark grey on black"},
		{7, 0, true, "light grey on black"},
		{12, 0, true, "bright blue on black"},
		{11, 15, false, "yellow on white"},
		{6, 15, false, "cyan on white"},
		{2, 15, true, "green on white"},
		{12, 4, false, "bright blue on blue"},
		{1, 15, true, "red on white"},
		{15, 4, true, "white on blue"},
	} {
		if got := Readable16(tc.fg, tc.bg); got != tc.want {
			t.Errorf("Readable16(%d, %d) (%s) = %v, want %v", tc.fg, tc.bg, tc.what, got, tc.want)
		}
	}
}

// index16 returns the palette index a 16-colour style colour stands for.
func index16(c color.Color) (int, bool) {
	switch c := c.(type) {
	case xansi.BasicColor:
		return int(c), true
	case xansi.IndexedColor:
		return int(c), c < 16
	}
	return 0, false
}

// checkStyle checks a style's text colour against its own background, or
// the terminal's (bg) when it has none, and its border colours against the
// terminal's.
func checkStyle(t *testing.T, theme, name string, s lipgloss.Style, bg int) {
	t.Helper()
	on := bg
	if c := s.GetBackground(); HasColor(c) {
		n, ok := index16(c)
		if !ok {
			t.Errorf("%s: %s has background %v, not one of the 16 colours", theme, name, c)
			return
		}
		on = n
	}
	if c := s.GetForeground(); HasColor(c) {
		n, ok := index16(c)
		switch {
		case !ok:
			t.Errorf("%s: %s has text colour %v, not one of the 16 colours", theme, name, c)
		case !Readable16(n, on):
			t.Errorf("%s: %s is colour %d on %d, which is not readable", theme, name, n, on)
		}
	}
	for side, c := range map[string]color.Color{
		"top": s.GetBorderTopForeground(), "right": s.GetBorderRightForeground(),
		"bottom": s.GetBorderBottomForeground(), "left": s.GetBorderLeftForeground(),
	} {
		if !HasColor(c) {
			continue
		}
		if n, ok := index16(c); !ok || !Readable16(n, bg) {
			t.Errorf("%s: %s has a %s border in %v on %d, which is not visible", theme, name, side, c, bg)
		}
	}
}

// checkStyles walks every lipgloss.Style in v (Styles and the help and
// textarea style sets inside it).
func checkStyles(t *testing.T, theme, path string, v reflect.Value, bg int) {
	t.Helper()
	if s, ok := v.Interface().(lipgloss.Style); ok {
		checkStyle(t, theme, path, s, bg)
		return
	}
	if v.Kind() != reflect.Struct {
		return
	}
	for i := range v.NumField() {
		if f := v.Type().Field(i); f.IsExported() {
			checkStyles(t, theme, path+"."+f.Name, v.Field(i), bg)
		}
	}
}

// checkGlamour walks the glamour style for every primitive with a colour:
// its text on its own background or the terminal's.
func checkGlamour(t *testing.T, theme, path string, v reflect.Value, bg int) {
	t.Helper()
	switch v.Kind() {
	case reflect.Pointer:
		if !v.IsNil() {
			checkGlamour(t, theme, path, v.Elem(), bg)
		}
		return
	case reflect.Struct:
	default:
		return
	}
	if p, ok := v.Interface().(ansi.StylePrimitive); ok {
		on := bg
		if p.BackgroundColor != nil {
			n, err := strconv.Atoi(*p.BackgroundColor)
			if err != nil || n > 15 {
				t.Errorf("%s: glamour %s has background %q, not one of the 16 colours", theme, path, *p.BackgroundColor)
				return
			}
			on = n
		}
		if p.Color != nil {
			n, err := strconv.Atoi(*p.Color)
			if err != nil || !Readable16(n, on) {
				t.Errorf("%s: glamour %s is colour %q on %d, which is not readable", theme, path, *p.Color, on)
			}
		}
	}
	for i := range v.NumField() {
		if f := v.Type().Field(i); f.IsExported() {
			checkGlamour(t, theme, path+"."+f.Name, v.Field(i), bg)
		}
	}
}

// checkTheme16 checks everything a 16-colour theme paints.
func checkTheme16(t *testing.T, th Theme) {
	t.Helper()
	v := th.ForProfile(colorprofile.ANSI)
	bg := 15
	if v.Dark {
		bg = 0
	}
	for _, key := range Roles() {
		c, _ := v.Color(key)
		if _, ok := ansiIndex(c); c != "" && !ok {
			t.Errorf("%s: role %s = %q under 16 colours, not one of the 16", th.Name, key, c)
		}
	}
	if v.InlineCodeBg != "" {
		t.Errorf("%s: inline code keeps background %q under 16 colours", th.Name, v.InlineCodeBg)
	}
	checkStyles(t, th.Name, "Styles", reflect.ValueOf(v.Styles(false)), bg)
	checkGlamour(t, th.Name, "Glamour", reflect.ValueOf(v.Glamour(false)), bg)
	s := reflect.ValueOf(v.Syntax)
	for i := range s.NumField() {
		c := s.Field(i).Interface().(Color)
		if c == "" {
			continue
		}
		n, _ := ansiIndex(c)
		if !Readable16(n, bg) {
			t.Errorf("%s: syntax.%s is colour %d on %d, which is not readable", th.Name, s.Type().Field(i).Name, n, bg)
		}
	}
}

// Every built-in theme, drawn with 16 colours, keeps every text readable:
// each style's colour on its background, the Markdown style's, the code
// colours'.
func TestBuiltinsReadableIn16Colours(t *testing.T) {
	for _, th := range Builtins() {
		checkTheme16(t, th)
	}
}

// The issue's case: the dark theme's descriptions (help, pickers) were
// dark blue on black, and inline code red on blue.
func TestDarkThemeIn16ColoursIssueCase(t *testing.T) {
	dark, _ := NewSet().Get(Dark)
	s := dark.ForProfile(colorprofile.ANSI).Styles(false)
	for name, st := range map[string]lipgloss.Style{"help description": s.Help.ShortDesc, "picker description": s.PickerDesc, "key hint": s.KeyHint} {
		if n, _ := index16(st.GetForeground()); n == 4 || n == 0 {
			t.Errorf("%s is colour %d on black", name, n)
		}
	}
	g := dark.ForProfile(colorprofile.ANSI).Glamour(false)
	if g.Code.BackgroundColor != nil {
		t.Errorf("inline code has background %q under 16 colours", *g.Code.BackgroundColor)
	}
}

// User themes get the same guarantee, whatever their colours: random
// themes, dark and light, all come out readable.
func TestRandomThemesReadableIn16Colours(t *testing.T) {
	r := rand.New(rand.NewPCG(7, 11))
	for i := range 300 {
		th := Theme{Name: fmt.Sprintf("random-%d", i), Dark: i%2 == 0}
		for _, role := range roles {
			if r.IntN(10) == 0 {
				continue // some roles left to the terminal's default
			}
			*role.field(&th) = Color(fmt.Sprintf("#%06x", r.IntN(1<<24)))
		}
		checkTheme16(t, th)
	}
}

// Colours a theme gives as 0–15 are the user's choice for their own
// palette and stay; other profiles leave the theme alone.
func TestForProfileKeepsOtherProfilesAndExplicitIndices(t *testing.T) {
	dark, _ := NewSet().Get(Dark)
	for _, p := range []colorprofile.Profile{colorprofile.TrueColor, colorprofile.ANSI256, colorprofile.ASCII, colorprofile.NoTTY} {
		if got := dark.ForProfile(p); !reflect.DeepEqual(got, dark) {
			t.Errorf("profile %v changed the theme", p)
		}
	}
	dark.Accent, dark.Syntax.Keyword = "4", "13"
	v := dark.ForProfile(colorprofile.ANSI)
	if v.Accent != "4" || v.Syntax.Keyword != "13" {
		t.Errorf("explicit indices changed: accent %q keyword %q", v.Accent, v.Syntax.Keyword)
	}
	if v.Text != "15" || v.Muted != "7" || v.Subtle != "8" {
		t.Errorf("dark greys became %q/%q/%q, want 15/7/8 (text, muted, subtle)", v.Text, v.Muted, v.Subtle)
	}
}

// Code colours reach the terminal as RGB (chroma) and are brought down to
// 16 colours by the renderer: each of the 16 must come back as itself.
func TestANSIHexRoundTrips16(t *testing.T) {
	for n := range 16 {
		c := Color(strconv.Itoa(n))
		if got := xansi.Convert16(lipgloss.Color(c.hex())); int(got) != n {
			t.Errorf("colour %d as %s comes back as %d", n, c.hex(), got)
		}
	}
}

// What a 16-colour terminal receives for a reply with inline code and a
// code block, through the renderer and the 16-colour downsampling: every
// text colour readable on the background, no background colour at all.
func TestRenderedMarkdownIn16Colours(t *testing.T) {
	md := "Run `go vet ./...` first.\n\n> quoted\n\n```go\n// comment\nfunc main() { fmt.Println(\"hi\", 42) }\n```\n\nSee [docs](https://example.com).\n"
	for _, th := range Builtins() {
		v := th.ForProfile(colorprofile.ANSI)
		bg := 15
		if v.Dark {
			bg = 0
		}
		r, err := v.NewRenderer(60, false)
		if err != nil {
			t.Fatal(err)
		}
		out, err := r.Render(md)
		if err != nil {
			t.Fatal(err)
		}
		var buf bytes.Buffer
		w := &colorprofile.Writer{Forward: &buf, Profile: colorprofile.ANSI}
		if _, err := w.WriteString(out); err != nil {
			t.Fatal(err)
		}
		for _, ps := range sgrParams(buf.String()) {
			for _, p := range ps {
				n, err := strconv.Atoi(p)
				switch {
				case err != nil:
				case (n >= 40 && n <= 47) || (n >= 100 && n <= 107) || n == 48:
					t.Errorf("%s: a background colour (SGR %s) in %q", th.Name, strings.Join(ps, ";"), buf.String())
				case n >= 30 && n <= 37 && !Readable16(n-30, bg), n >= 90 && n <= 97 && !Readable16(n-90+8, bg):
					t.Errorf("%s: text colour SGR %d on %d is not readable", th.Name, n, bg)
				case n == 38:
					t.Errorf("%s: an extended colour (SGR %s) survived 16-colour output", th.Name, strings.Join(ps, ";"))
				}
			}
		}
	}
}

// Building a set registers the chroma styles of the 16-colour forms too:
// switching to them later (on the UI goroutine, while a render may run
// elsewhere) must not write chroma's unlocked registry.
func TestNewSetRegistersThe16ColourChromaStyles(t *testing.T) {
	s := NewSet()
	chromaMu.Lock()
	before := len(chromastyles.Registry)
	chromaMu.Unlock()
	for _, th := range s.Themes() {
		th.ForProfile(colorprofile.ANSI).Glamour(false)
	}
	chromaMu.Lock()
	after := len(chromastyles.Registry)
	chromaMu.Unlock()
	if after != before {
		t.Errorf("the 16-colour themes registered %d new chroma styles after the set was built", after-before)
	}
}

// The "new text below" marker is readable in every built-in theme's own
// colours too (it drew the selection text on the accent, 1.5:1 in gruvbox).
func TestNewBelowMarkerReadable(t *testing.T) {
	for _, th := range Builtins() {
		s := th.Styles(false)
		fg, bg := s.NewBelow.GetForeground(), s.NewBelow.GetBackground()
		// 3:1, WCAG's level for bold text: solarized's blue accent takes no
		// more than 3.4 with any of its own colours.
		if c := Contrast(rgb8(fg), rgb8(bg)); c < 3 {
			t.Errorf("%s: the new-text-below marker has contrast %.2f, want at least 3", th.Name, c)
		}
	}
}

func rgb8(c color.Color) [3]uint8 {
	r, g, b, _ := c.RGBA()
	return [3]uint8{uint8(r >> 8), uint8(g >> 8), uint8(b >> 8)}
}
