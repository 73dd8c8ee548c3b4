package themes

import (
	"fmt"
	"image/color"
	"strconv"
	"strings"

	"charm.land/lipgloss/v2"
)

// Color is a theme colour: "#rrggbb" (24-bit) or "0"–"255" (an index into
// the terminal's 256-colour palette; 0–15 follow the user's terminal
// scheme). The empty Color means the terminal's default colour.
type Color string

// ParseColor accepts "#rrggbb", "#rgb" and decimal ANSI numbers 0–255 (as
// text), and returns the colour in canonical form (lower-case "#rrggbb" or
// the decimal number). "" and "none" give the empty Color.
func ParseColor(s string) (Color, error) {
	s = strings.TrimSpace(s)
	switch {
	case s == "" || strings.EqualFold(s, "none"):
		return "", nil
	case s[0] == '#':
		hex := strings.ToLower(s[1:])
		if len(hex) == 3 {
			hex = string([]byte{hex[0], hex[0], hex[1], hex[1], hex[2], hex[2]})
		}
		if len(hex) != 6 || strings.Trim(hex, "0123456789abcdef") != "" {
			return "", fmt.Errorf("%q is not a colour; use \"#rrggbb\" or an ANSI colour number 0-255", s)
		}
		return Color("#" + hex), nil
	default:
		n, err := strconv.Atoi(s)
		if err != nil || n < 0 || n > 255 {
			return "", fmt.Errorf("%q is not a colour; use \"#rrggbb\" or an ANSI colour number 0-255", s)
		}
		return Color(strconv.Itoa(n)), nil
	}
}

// lip converts c for lipgloss; ok is false for the empty Color.
func (c Color) lip() (color.Color, bool) {
	if c == "" {
		return nil, false
	}
	return lipgloss.Color(string(c)), true
}

// hex returns c as "#rrggbb", for chroma, which only understands RGB: ANSI
// numbers 16–255 via the xterm palette, 0–15 via ansiHex16.
func (c Color) hex() string {
	if c == "" || c[0] == '#' {
		return string(c)
	}
	n, err := strconv.Atoi(string(c))
	if err != nil || n < 0 || n > 255 {
		return ""
	}
	if n < 16 {
		return ansiHex16(n)
	}
	r, g, b := xterm256(n)
	return fmt.Sprintf("#%02x%02x%02x", r, g, b)
}

// ansiHex16 is an RGB value for each of the 16 palette colours that the
// 16-colour renderer maps back to the same colour (ansi.Convert16, nearest
// 256-colour entry, then its 16-colour equivalent). Code colours reach the
// terminal as RGB from chroma, so a 16-colour theme's syntax colours must
// survive that trip; xterm's own values do not (its 1, #cd0000, comes back
// as 9, and its 8 as 7).
func ansiHex16(n int) string {
	return [16]string{
		"#000000", "#af0000", "#00af00", "#afaf00", "#0000af", "#af00af", "#00afaf", "#afafaf",
		"#6c6c6c", "#ff0000", "#00ff00", "#ffff00", "#5f5fff", "#ff00ff", "#00ffff", "#ffffff",
	}[n]
}

// xterm256 returns the RGB value xterm uses by default for palette index n.
func xterm256(n int) (r, g, b uint8) {
	basic := [16][3]uint8{
		{0, 0, 0}, {205, 0, 0}, {0, 205, 0}, {205, 205, 0}, {0, 0, 238}, {205, 0, 205}, {0, 205, 205}, {229, 229, 229},
		{127, 127, 127}, {255, 0, 0}, {0, 255, 0}, {255, 255, 0}, {92, 92, 255}, {255, 0, 255}, {0, 255, 255}, {255, 255, 255},
	}
	switch {
	case n < 16:
		return basic[n][0], basic[n][1], basic[n][2]
	case n < 232:
		n -= 16
		level := func(v int) uint8 {
			if v == 0 {
				return 0
			}
			return uint8(55 + v*40)
		}
		return level(n / 36), level(n / 6 % 6), level(n % 6)
	default:
		v := uint8(8 + (n-232)*10)
		return v, v, v
	}
}

// Theme is a named set of colour roles. Every colour the UI and the
// Markdown renderer use comes from one of these roles; an empty role means
// the terminal's default colour.
type Theme struct {
	Name   string
	Dark   bool   // designed for a dark terminal background
	Source string // "builtin", or the file the theme was loaded from

	// Interface.
	Text        Color // ordinary interface text (Markdown body text keeps the terminal's default colour: see Glamour)
	Muted       Color // secondary text: status details, descriptions
	Subtle      Color // tertiary text: hints, separators, rules, placeholders
	Accent      Color // the theme's signature colour: titles, focus, key names
	Border      Color // borders of unfocused boxes
	BorderFocus Color // border of the focused box (composer, overlay)
	Surface     Color // background of the status bar and toasts; empty = none

	UserLabel      Color // "You" label and the bar beside user turns
	UserText       Color // text of user turns
	AssistantLabel Color // the assistant/model label

	Error   Color // failed turns, error toasts
	Warning Color // interrupted turns, trimmed history
	Success Color // "copied", done
	Info    Color // streaming state, capability badges

	Selection     Color // background of the selected picker item
	SelectionText Color // text of the selected picker item
	Control       Color // placeholders for neutralised control characters (␛ ⟨U+202E⟩)

	// Markdown.
	Heading      Color
	Link         Color
	Quote        Color
	InlineCode   Color
	InlineCodeBg Color // background of inline code; empty = none

	// Syntax colours for fenced code blocks.
	Syntax Syntax
}

// Syntax holds the colours for code highlighting (through chroma).
type Syntax struct {
	Text        Color // identifiers and other plain code; built-ins leave it empty (terminal default)
	Comment     Color
	Keyword     Color
	Type        Color // keyword types, class names
	String      Color
	Number      Color
	Function    Color
	Builtin     Color
	Operator    Color
	Punctuation Color
	Constant    Color
	Tag         Color // markup tags
	Attribute   Color // markup attributes
	Decorator   Color
	Deleted     Color // diff: removed lines
	Inserted    Color // diff: added lines
	Error       Color // lexer errors
}

// role ties a key in a theme file to a field of Theme.
type role struct {
	key   string // top-level key, or "syntax.<key>"
	field func(*Theme) *Color
}

// roles lists every colour role, in the order of the Theme struct; theme
// files use these keys. It is never modified.
var roles = []role{
	{"text", func(t *Theme) *Color { return &t.Text }},
	{"muted", func(t *Theme) *Color { return &t.Muted }},
	{"subtle", func(t *Theme) *Color { return &t.Subtle }},
	{"accent", func(t *Theme) *Color { return &t.Accent }},
	{"border", func(t *Theme) *Color { return &t.Border }},
	{"border_focus", func(t *Theme) *Color { return &t.BorderFocus }},
	{"surface", func(t *Theme) *Color { return &t.Surface }},
	{"user_label", func(t *Theme) *Color { return &t.UserLabel }},
	{"user_text", func(t *Theme) *Color { return &t.UserText }},
	{"assistant_label", func(t *Theme) *Color { return &t.AssistantLabel }},
	{"error", func(t *Theme) *Color { return &t.Error }},
	{"warning", func(t *Theme) *Color { return &t.Warning }},
	{"success", func(t *Theme) *Color { return &t.Success }},
	{"info", func(t *Theme) *Color { return &t.Info }},
	{"selection", func(t *Theme) *Color { return &t.Selection }},
	{"selection_text", func(t *Theme) *Color { return &t.SelectionText }},
	{"control", func(t *Theme) *Color { return &t.Control }},
	{"heading", func(t *Theme) *Color { return &t.Heading }},
	{"link", func(t *Theme) *Color { return &t.Link }},
	{"quote", func(t *Theme) *Color { return &t.Quote }},
	{"inline_code", func(t *Theme) *Color { return &t.InlineCode }},
	{"inline_code_bg", func(t *Theme) *Color { return &t.InlineCodeBg }},
	{"syntax.text", func(t *Theme) *Color { return &t.Syntax.Text }},
	{"syntax.comment", func(t *Theme) *Color { return &t.Syntax.Comment }},
	{"syntax.keyword", func(t *Theme) *Color { return &t.Syntax.Keyword }},
	{"syntax.type", func(t *Theme) *Color { return &t.Syntax.Type }},
	{"syntax.string", func(t *Theme) *Color { return &t.Syntax.String }},
	{"syntax.number", func(t *Theme) *Color { return &t.Syntax.Number }},
	{"syntax.function", func(t *Theme) *Color { return &t.Syntax.Function }},
	{"syntax.builtin", func(t *Theme) *Color { return &t.Syntax.Builtin }},
	{"syntax.operator", func(t *Theme) *Color { return &t.Syntax.Operator }},
	{"syntax.punctuation", func(t *Theme) *Color { return &t.Syntax.Punctuation }},
	{"syntax.constant", func(t *Theme) *Color { return &t.Syntax.Constant }},
	{"syntax.tag", func(t *Theme) *Color { return &t.Syntax.Tag }},
	{"syntax.attribute", func(t *Theme) *Color { return &t.Syntax.Attribute }},
	{"syntax.decorator", func(t *Theme) *Color { return &t.Syntax.Decorator }},
	{"syntax.deleted", func(t *Theme) *Color { return &t.Syntax.Deleted }},
	{"syntax.inserted", func(t *Theme) *Color { return &t.Syntax.Inserted }},
	{"syntax.error", func(t *Theme) *Color { return &t.Syntax.Error }},
}

// Roles returns the theme-file keys of all colour roles, in a stable
// order ("syntax.keyword" is the key "keyword" in the [syntax] table).
func Roles() []string {
	out := make([]string, len(roles))
	for i, r := range roles {
		out[i] = r.key
	}
	return out
}

// Color returns the colour of the role with the given theme-file key.
func (t Theme) Color(key string) (Color, bool) {
	for _, r := range roles {
		if r.key == key {
			return *r.field(&t), true
		}
	}
	return "", false
}
