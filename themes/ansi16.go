package themes

import (
	"math"
	"slices"
	"strconv"

	"github.com/charmbracelet/colorprofile"
)

// ForProfile returns the theme as it is drawn with the colour profile p.
// With 16 colours (TERM=xterm, the Linux console) the renderer would pick
// the nearest of the 16 for each colour, which turns the dark theme's grey
// descriptions into dark blue on black and its inline code into red on
// blue; there the theme's colours are remapped instead (see ansi16). 256
// and 24-bit colours stay as they are; with no colour (ASCII, NO_COLOR)
// nothing is painted anyway.
func (t Theme) ForProfile(p colorprofile.Profile) Theme {
	if p != colorprofile.ANSI {
		return t
	}
	return t.ansi16()
}

// ansi16 maps every role to one of the 16 ANSI colours so that each text
// stays readable on the background it is drawn on (Readable16): the
// terminal's background (assumed black for a dark theme, white for a
// light one), the status bar's surface, the selection.
//
// A colour keeps its hue where it can: greys become white, light grey or
// dark grey by lightness (black or dark grey on light), other colours take
// their hue's bright variant on a dark background and its normal variant on
// a light one. A choice that is not readable gives way to the next-nearest
// hue, then to a grey. Colours the theme gives as 0–15 are the user's own
// choice for their palette and stay. Inline code loses its background (no
// 16-colour background keeps every hue readable) and the status bar's
// surface becomes the background colour.
func (t Theme) ansi16() Theme {
	bg := 15
	if t.Dark {
		bg = 0
	}
	v := t
	for _, r := range roles {
		switch r.key {
		case "surface", "selection", "selection_text", "inline_code_bg":
			continue
		}
		c := r.field(&v)
		*c = fg16(*c, bg, greyTierOf(r.key))
	}
	v.InlineCodeBg = ""
	if t.Surface != "" {
		v.Surface = Color(strconv.Itoa(bg))
	}
	v.Selection, v.SelectionText = selection16(t.Selection, t.SelectionText, v.Accent, bg)
	return v
}

// ansiIndex returns c's palette index when it is one of the 16 colours.
func ansiIndex(c Color) (int, bool) {
	n, err := strconv.Atoi(string(c))
	return n, err == nil && n >= 0 && n < 16
}

// greyTier ranks the roles that are shades of the text colour in most
// themes; with only two or three readable greys in 16 colours, they are
// mapped by rank, not by their exact lightness, so the ranks stay apart.
type greyTier int

const (
	notGrey   greyTier = iota
	primary            // text itself
	secondary          // muted text, quotes
	tertiary           // hints, borders, comments
)

func greyTierOf(key string) greyTier {
	switch key {
	case "text", "user_text", "syntax.text":
		return primary
	case "muted", "quote", "syntax.punctuation":
		return secondary
	case "subtle", "border", "syntax.comment":
		return tertiary
	}
	return notGrey
}

// fg16 maps a text colour of the given tier for the background bg.
func fg16(c Color, bg int, tier greyTier) Color {
	if c == "" {
		return ""
	}
	if _, ok := ansiIndex(c); ok {
		return c
	}
	for _, n := range candidates16(c, bg == 0, tier) {
		if Readable16(n, bg) {
			return Color(strconv.Itoa(n))
		}
	}
	// Unreachable: the greys at the end of every list are readable.
	return ""
}

// selection16 maps the selection's background and text. The text must
// also be readable on the accent (the "new text below" marker draws it
// there; on the terminal's background bg when the theme has no accent),
// so the pair is searched together.
func selection16(sel, text, accent Color, bg int) (Color, Color) {
	if _, ok := ansiIndex(sel); ok {
		if _, ok := ansiIndex(text); ok {
			return sel, text
		}
	}
	acc, ok := ansiIndex(accent)
	if !ok {
		acc = bg
	}
	texts := []int{15, 0}
	if r, g, b, ok := rgbOf(text); ok && lightness(r, g, b) < 0.5 {
		texts = []int{0, 15}
	}
	bgs := []int{4, 7, 0}
	if sel != "" {
		bgs = append(candidates16(sel, false, notGrey), bgs...)
	}
	for _, b := range bgs {
		for _, f := range texts {
			if Readable16(f, b) && Readable16(f, acc) {
				return Color(strconv.Itoa(b)), Color(strconv.Itoa(f))
			}
		}
	}
	return "4", "15"
}

// hueFamily is one of the six hues of the palette: the angle of its
// centre on the colour wheel and its normal (1–6) palette index.
type hueFamily struct {
	angle float64
	index int
}

// hueFamilies lists red, yellow, green, cyan, blue and magenta. The
// centres follow how the hues are named rather than the RGB primaries:
// lime (90°) reads as green, violet (265°) as magenta.
func hueFamilies() []hueFamily {
	return []hueFamily{{0, 1}, {50, 3}, {110, 2}, {180, 6}, {230, 4}, {290, 5}}
}

// candidates16 lists palette indices for c, best first: for a colour, its
// hue family and then the others by distance round the colour wheel (each
// bright before normal on a dark background, normal before bright on a
// light one); for a grey, the greys of its tier, or by lightness. The greys
// that end every list are readable on the background, so a choice always
// exists.
func candidates16(c Color, dark bool, tier greyTier) []int {
	r, g, b, ok := rgbOf(c)
	if !ok {
		return greys16(0.5, dark, tier)
	}
	l, s, h := lightness(r, g, b), saturation(r, g, b), hue(r, g, b)
	// Text shades stay greys unless clearly coloured; other roles keep
	// even a muted hue (gruvbox's greyish aqua links are aqua). Pale tints
	// read as white on dark, very dark ones as black on light (gruvbox's
	// cream text is not yellow text).
	greyBelow := 0.12
	if tier != notGrey {
		greyBelow = 0.5
	}
	if s < greyBelow || (dark && l > 0.8) || (!dark && l < 0.2) {
		return greys16(l, dark, tier)
	}
	fams := hueFamilies()
	slices.SortStableFunc(fams, func(a, b hueFamily) int {
		da, db := angleDistance(h, a.angle), angleDistance(h, b.angle)
		switch {
		case da < db:
			return -1
		case da > db:
			return 1
		}
		return 0
	})
	var out []int
	for _, f := range fams {
		if dark {
			out = append(out, f.index+8, f.index)
		} else {
			out = append(out, f.index, f.index+8)
		}
	}
	return append(out, greys16(l, dark, tier)...)
}

// greys16 lists the greys for a tier, or for lightness l: white, light
// grey, dark grey on a dark background; black and dark grey on a light
// one (light grey is not readable on white).
func greys16(l float64, dark bool, tier greyTier) []int {
	switch {
	case dark && (tier == primary || tier == notGrey && l >= 0.8):
		return []int{15, 7}
	case dark && (tier == secondary || tier == notGrey && l >= 0.6):
		return []int{7, 15}
	case dark:
		return []int{8, 7, 15}
	case tier == primary || tier == notGrey && l <= 0.25:
		return []int{0, 8}
	}
	return []int{8, 0}
}

func angleDistance(a, b float64) float64 {
	d := math.Abs(a - b)
	return math.Min(d, 360-d)
}

// rgbOf returns c's red, green and blue (0–1); ANSI numbers use the xterm
// palette.
func rgbOf(c Color) (r, g, b float64, ok bool) {
	h := c.hex()
	if len(h) != 7 {
		return 0, 0, 0, false
	}
	v, err := strconv.ParseUint(h[1:], 16, 32)
	if err != nil {
		return 0, 0, 0, false
	}
	return float64(v>>16) / 255, float64(v>>8&0xff) / 255, float64(v&0xff) / 255, true
}

func lightness(r, g, b float64) float64 {
	return (max(r, g, b) + min(r, g, b)) / 2
}

func saturation(r, g, b float64) float64 {
	mx, mn := max(r, g, b), min(r, g, b)
	if mx == mn {
		return 0
	}
	l := (mx + mn) / 2
	return (mx - mn) / (1 - math.Abs(2*l-1))
}

func hue(r, g, b float64) float64 {
	mx, mn := max(r, g, b), min(r, g, b)
	d := mx - mn
	if d == 0 {
		return 0
	}
	var h float64
	switch mx {
	case r:
		h = math.Mod((g-b)/d, 6)
	case g:
		h = (b-r)/d + 2
	default:
		h = (r-g)/d + 4
	}
	h *= 60
	if h < 0 {
		h += 360
	}
	return h
}

// palettes16 are the default 16-colour palettes of xterm and of VGA text
// mode (the Linux console, many terminals' "classic" scheme): between them
// they span how bright or dark the normal colours come out.
func palettes16() [2][16][3]uint8 {
	var xterm [16][3]uint8
	for n := range xterm {
		r, g, b := xterm256(n)
		xterm[n] = [3]uint8{r, g, b}
	}
	vga := [16][3]uint8{{0, 0, 0}, {170, 0, 0}, {0, 170, 0}, {170, 85, 0}, {0, 0, 170}, {170, 0, 170}, {0, 170, 170}, {170, 170, 170},
		{85, 85, 85}, {255, 85, 85}, {85, 255, 85}, {255, 255, 85}, {85, 85, 255}, {255, 85, 255}, {85, 255, 255}, {255, 255, 255}}
	return [2][16][3]uint8{xterm, vga}
}

// The contrast ratios (WCAG's measure, 1–21) a text colour needs against
// its background in both palettes16. The floor lets dark grey on black
// through (2.8 on VGA) and green on white (2.2 on xterm), and stops dark
// blue on black (1.6 on VGA) and cyan or yellow on white (2.0, 1.7 on
// xterm). Coloured text on a coloured background needs more: red on blue
// measures 2.4 on xterm and still swims.
const (
	MinContrast16         = 2.0
	MinContrast16OnColour = 3.0
)

// Readable16 reports whether text in palette colour fg is readable on
// palette colour bg in both palettes16.
func Readable16(fg, bg int) bool {
	if fg == bg || fg < 0 || fg > 15 || bg < 0 || bg > 15 {
		return false
	}
	need := MinContrast16
	if !grey16(fg) && !grey16(bg) {
		need = MinContrast16OnColour
	}
	for _, p := range palettes16() {
		if Contrast(p[fg], p[bg]) < need {
			return false
		}
	}
	return true
}

// grey16 reports whether palette colour n is black, a grey or white.
func grey16(n int) bool { return n == 0 || n == 7 || n == 8 || n == 15 }

// Contrast is the WCAG contrast ratio of two sRGB colours.
func Contrast(a, b [3]uint8) float64 {
	la, lb := luminance(a), luminance(b)
	if la < lb {
		la, lb = lb, la
	}
	return (la + 0.05) / (lb + 0.05)
}

func luminance(c [3]uint8) float64 {
	f := func(v uint8) float64 {
		x := float64(v) / 255
		if x <= 0.03928 {
			return x / 12.92
		}
		return math.Pow((x+0.055)/1.055, 2.4)
	}
	return 0.2126*f(c[0]) + 0.7152*f(c[1]) + 0.0722*f(c[2])
}
