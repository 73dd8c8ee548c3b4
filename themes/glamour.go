package themes

import (
	"fmt"
	"hash/fnv"
	"slices"
	"sync"

	"charm.land/glamour/v2"
	"charm.land/glamour/v2/ansi"
	"github.com/alecthomas/chroma/v2"
	chromastyles "github.com/alecthomas/chroma/v2/styles"

	"parley/termsafe"
)

// Glamour returns the glamour style for the theme, designed to be cheap to
// render and to print. Glamour pads every line to the wrap width with
// spaces styled like the enclosing block, so a colour on the document, a
// paragraph or a list multiplies the output (glamour's standard dark style
// colours the document: 36x the input for a 20 KB answer). Here no document,
// paragraph, list, table or code block carries a colour or background: body
// text, bullets and plain code keep the terminal's default colour, which
// also guarantees contrast, and the padding is plain spaces (Tidy removes
// them). Colours sit on headings, quotes, links, inline code, rules and the
// syntax tokens of code blocks (a chroma style made from the theme's Syntax
// colours). The document margin is 0 and code blocks are indented by one
// column. With noColor nothing has a colour: headings stay bold, links
// underlined, inline code keeps its backticks, and code blocks are not
// highlighted.
//
// Using this config with a glamour renderer of your own? Two things
// Renderer.Render does for you: glamour decodes HTML character references
// ("&#27;" becomes a raw ESC) after parsing, so pass the input through
// termsafe.Markdown; and glamour v2 wraps every link and image in an OSC 8
// hyperlink with no option or style setting to stop it (the URL is printed
// as text as well), so pass the output through termsafe.KeepSGR.
func (t Theme) Glamour(noColor bool) ansi.StyleConfig {
	c := func(col Color) *string {
		if noColor || col == "" {
			return nil
		}
		s := string(col)
		return &s
	}
	yes := func() *bool { v := true; return &v }
	uintp := func(v uint) *uint { return &v }
	str := func(s string) *string { return &s }

	cfg := ansi.StyleConfig{
		Document:  ansi.StyleBlock{Margin: uintp(0)},
		Paragraph: ansi.StyleBlock{},
		// A margin, not an indent, of one "│ ": glamour writes indent plus
		// margin tokens but takes indent plus twice the margin cells off
		// the width, so this is the one setting where a two-cell bar
		// leaves the quoted text exactly the room it has (with an indent
		// of 1 every quoted line was one cell too wide, and the last word
		// was wrapped again onto a line of its own, without the bar).
		BlockQuote: ansi.StyleBlock{StylePrimitive: ansi.StylePrimitive{Color: c(t.Quote), Italic: yes()}, Margin: uintp(1), IndentToken: str("│ ")},
		List:       ansi.StyleList{LevelIndent: 2},
		Heading: ansi.StyleBlock{StylePrimitive: ansi.StylePrimitive{
			BlockSuffix: "\n", Color: c(t.Heading), Bold: yes(),
		}},
		H1:             ansi.StyleBlock{StylePrimitive: ansi.StylePrimitive{Prefix: "# ", Underline: yes()}},
		H2:             ansi.StyleBlock{StylePrimitive: ansi.StylePrimitive{Prefix: "## "}},
		H3:             ansi.StyleBlock{StylePrimitive: ansi.StylePrimitive{Prefix: "### "}},
		H4:             ansi.StyleBlock{StylePrimitive: ansi.StylePrimitive{Prefix: "#### "}},
		H5:             ansi.StyleBlock{StylePrimitive: ansi.StylePrimitive{Prefix: "##### "}},
		H6:             ansi.StyleBlock{StylePrimitive: ansi.StylePrimitive{Prefix: "###### "}},
		Text:           ansi.StylePrimitive{},
		Strikethrough:  ansi.StylePrimitive{CrossedOut: yes()},
		Emph:           ansi.StylePrimitive{Italic: yes()},
		Strong:         ansi.StylePrimitive{Bold: yes()},
		HorizontalRule: ansi.StylePrimitive{Color: c(t.Subtle), Format: "\n────────\n"},
		Item:           ansi.StylePrimitive{BlockPrefix: "• "},
		Enumeration:    ansi.StylePrimitive{BlockPrefix: ". "},
		Task:           ansi.StyleTask{Ticked: "[✓] ", Unticked: "[ ] "},
		Link:           ansi.StylePrimitive{Color: c(t.Link), Underline: yes()},
		LinkText:       ansi.StylePrimitive{Color: c(t.Link), Bold: yes()},
		Image:          ansi.StylePrimitive{Color: c(t.Link), Underline: yes()},
		ImageText:      ansi.StylePrimitive{Color: c(t.Muted), Format: "Image: {{.text}} →"},
		Code: ansi.StyleBlock{StylePrimitive: ansi.StylePrimitive{
			Color: c(t.InlineCode), BackgroundColor: c(t.InlineCodeBg),
		}},
		CodeBlock:             ansi.StyleCodeBlock{StyleBlock: ansi.StyleBlock{Margin: uintp(1)}},
		Table:                 ansi.StyleTable{},
		DefinitionDescription: ansi.StylePrimitive{BlockPrefix: "\n→ "},
	}
	switch {
	case noColor:
		// Without colour, backticks are what tells code from prose.
		cfg.Code.Prefix, cfg.Code.Suffix = "`", "`"
	case t.InlineCodeBg != "":
		cfg.Code.Prefix, cfg.Code.Suffix = " ", " "
	}
	if !noColor {
		cfg.CodeBlock.Theme = RegisterChroma(t.Syntax)
	}
	return cfg
}

// chromaMu serialises the check and the write of RegisterChroma on
// chroma's global style registry (a plain map), so a style is made and
// registered once. It guards that external registry, not state of this
// package.
var chromaMu sync.Mutex

// RegisterChroma makes sure chroma's registry holds a style with the
// given syntax colours and returns its name, which is derived from the
// colours ("parley-<hash>"), so equal colours share a style and a changed
// theme gets a new one. Glamour's own mechanism (StyleCodeBlock.Chroma)
// registers a single style called "charm" once per process and ignores
// every later theme, which would break theme switching.
//
// Register before starting concurrent renders: Set does it for all its
// themes when it is built, which leaves later calls with nothing but a
// lookup (glamour reads the registry's map directly, without chroma's lock,
// for its own style). The lookup reads the map itself: in parley's chroma
// (third_party/chroma/PATCHED.md) it holds the registered styles only, so
// reading it never makes chroma read its embedded ones, as Get of a name
// not registered would.
func RegisterChroma(s Syntax) string {
	entries := chroma.StyleEntries{
		chroma.Background:          chromaEntry(s.Text, ""),
		chroma.Text:                chromaEntry(s.Text, ""),
		chroma.Error:               chromaEntry(s.Error, ""),
		chroma.Comment:             chromaEntry(s.Comment, "italic"),
		chroma.CommentPreproc:      chromaEntry(s.Decorator, ""),
		chroma.Keyword:             chromaEntry(s.Keyword, ""),
		chroma.KeywordType:         chromaEntry(s.Type, ""),
		chroma.Operator:            chromaEntry(s.Operator, ""),
		chroma.Punctuation:         chromaEntry(s.Punctuation, ""),
		chroma.Name:                chromaEntry(s.Text, ""),
		chroma.NameBuiltin:         chromaEntry(s.Builtin, ""),
		chroma.NameTag:             chromaEntry(s.Tag, ""),
		chroma.NameAttribute:       chromaEntry(s.Attribute, ""),
		chroma.NameClass:           chromaEntry(s.Type, "bold"),
		chroma.NameConstant:        chromaEntry(s.Constant, ""),
		chroma.NameDecorator:       chromaEntry(s.Decorator, ""),
		chroma.NameException:       chromaEntry(s.Error, ""),
		chroma.NameFunction:        chromaEntry(s.Function, ""),
		chroma.NameOther:           chromaEntry(s.Text, ""),
		chroma.Literal:             chromaEntry(s.String, ""),
		chroma.LiteralNumber:       chromaEntry(s.Number, ""),
		chroma.LiteralDate:         chromaEntry(s.Number, ""),
		chroma.LiteralString:       chromaEntry(s.String, ""),
		chroma.LiteralStringEscape: chromaEntry(s.Constant, ""),
		chroma.GenericDeleted:      chromaEntry(s.Deleted, ""),
		chroma.GenericEmph:         chromaEntry("", "italic"),
		chroma.GenericInserted:     chromaEntry(s.Inserted, ""),
		chroma.GenericStrong:       chromaEntry("", "bold"),
		chroma.GenericSubheading:   chromaEntry(s.Comment, "bold"),
		chroma.GenericHeading:      chromaEntry(s.Function, "bold"),
	}
	types := make([]chroma.TokenType, 0, len(entries))
	for tt := range entries {
		types = append(types, tt)
	}
	slices.Sort(types) // map order is random; the hash must be stable
	h := fnv.New64a()
	for _, tt := range types {
		fmt.Fprintf(h, "%d=%s;", tt, entries[tt])
	}
	name := fmt.Sprintf("parley-%016x", h.Sum64())

	chromaMu.Lock()
	defer chromaMu.Unlock()
	if _, ok := chromastyles.Registry[name]; !ok {
		chromastyles.Register(chroma.MustNewStyle(name, entries))
	}
	return name
}

func chromaEntry(c Color, attrs string) string {
	h := c.hex()
	switch {
	case h == "":
		return attrs
	case attrs == "":
		return h
	}
	return h + " " + attrs
}

// ChromaFormatter is the chroma formatter NewRenderer uses: 24-bit colour,
// so code gets the theme's exact colours. Bubble Tea and lipgloss.Print
// downsample to what the terminal supports.
const ChromaFormatter = "terminal16m"

// Renderer renders untrusted Markdown with a theme's glamour style into
// terminal-safe, compact ANSI text. Like glamour's renderer it is not safe
// for concurrent use. It is glamour's own pipeline, whose cost hostile
// Markdown can blow up (deeply nested quotes and lists); the chat renders
// replies with ui/mdstream, which bounds nesting, time and output.
type Renderer struct {
	tr *glamour.TermRenderer
}

// NewRenderer returns a Renderer wrapping at width columns.
func (t Theme) NewRenderer(width int, noColor bool) (*Renderer, error) {
	tr, err := glamour.NewTermRenderer(
		glamour.WithStyles(t.Glamour(noColor)),
		glamour.WithWordWrap(width),
		glamour.WithChromaFormatter(ChromaFormatter),
	)
	if err != nil {
		return nil, fmt.Errorf("creating the Markdown renderer for theme %q: %w", t.Name, err)
	}
	return &Renderer{tr: tr}, nil
}

// Render renders md: termsafe.Markdown before glamour (which decodes
// "&#27;" into a raw ESC), termsafe.KeepSGR after it (which drops glamour's
// OSC 8 hyperlinks and anything else that is not SGR), then Tidy (which
// removes the padding glamour adds to every line).
func (r *Renderer) Render(md string) (string, error) {
	out, err := r.tr.Render(termsafe.Markdown(md))
	if err != nil {
		return "", fmt.Errorf("rendering Markdown: %w", err)
	}
	return Tidy(termsafe.KeepSGR(out)), nil
}
