package themes

import (
	"os"
	"regexp"
	"strings"
	"testing"

	"charm.land/glamour/v2"
	"github.com/charmbracelet/x/ansi"

	"parley/termsafe"
)

var emptySGR = regexp.MustCompile(`\x1b\[[0-9;:]*m\x1b\[0?m`)

func sampleMarkdown(t testing.TB) string {
	t.Helper()
	b, err := os.ReadFile("testdata/sample.md")
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

func render(t testing.TB, th Theme, noColor bool, md string) string {
	t.Helper()
	r, err := th.NewRenderer(80, noColor)
	if err != nil {
		t.Fatal(err)
	}
	out, err := r.Render(md)
	if err != nil {
		t.Fatal(err)
	}
	return out
}

func TestGlamourConfigHasNoDocumentColour(t *testing.T) {
	for _, th := range Builtins() {
		for _, noColor := range []bool{false, true} {
			cfg := th.Glamour(noColor)
			for name, blk := range map[string]struct {
				c, bg *string
			}{
				"document":  {cfg.Document.Color, cfg.Document.BackgroundColor},
				"paragraph": {cfg.Paragraph.Color, cfg.Paragraph.BackgroundColor},
				"list":      {cfg.List.Color, cfg.List.BackgroundColor},
				"table":     {cfg.Table.Color, cfg.Table.BackgroundColor},
				"codeblock": {cfg.CodeBlock.Color, cfg.CodeBlock.BackgroundColor},
			} {
				if blk.c != nil || blk.bg != nil {
					t.Errorf("%s: %s block has a colour; glamour pads every line with it", th.Name, name)
				}
			}
			if m := cfg.Document.Margin; m == nil || *m > 1 {
				t.Errorf("%s: document margin %v, want 0-1", th.Name, m)
			}
			if m := cfg.CodeBlock.Margin; m == nil || *m > 1 {
				t.Errorf("%s: code block margin %v, want 0-1", th.Name, m)
			}
			if cfg.CodeBlock.Chroma != nil {
				t.Errorf("%s: CodeBlock.Chroma is set; glamour registers it once per process as \"charm\"", th.Name)
			}
			if noColor != (cfg.CodeBlock.Theme == "") {
				t.Errorf("%s noColor=%v: code block theme %q", th.Name, noColor, cfg.CodeBlock.Theme)
			}
		}
	}
}

func TestGlamourRendersEveryBuiltin(t *testing.T) {
	md := sampleMarkdown(t)
	for _, th := range Builtins() {
		t.Run(th.Name, func(t *testing.T) {
			out := render(t, th, false, md)
			plain := ansi.Strip(out)
			for _, want := range []string{
				"# Parsing config files in Go", "standard library", "https://pkg.go.dev/errors",
				"• TOML with BurntSushi/toml", "│ Errors should say", "return nil, fmt.Errorf",
				"BurntSushi/toml", "[✓] parse",
			} {
				if !strings.Contains(plain, want) {
					t.Errorf("rendered text lacks %q:\n%s", want, plain)
				}
			}
			// Syntax highlighting with the theme's own colours.
			for _, c := range []Color{th.Syntax.Keyword, th.Syntax.String, th.Syntax.Comment} {
				if !strings.Contains(out, fgCode(c)) {
					t.Errorf("code block lacks syntax colour %s", c)
				}
			}
			if !strings.Contains(out, fgCode(th.Heading)) {
				t.Errorf("headings lack the heading colour")
			}
			// Nothing but SGR: no hyperlinks.
			if termsafe.KeepSGR(out) != out || strings.Contains(out, "\x1b]") {
				t.Errorf("output holds non-SGR sequences: %q", out)
			}
			for i, line := range strings.Split(out, "\n") {
				visible := ansi.Strip(line)
				if strings.TrimSpace(visible) == "" && hasBackground(line) {
					t.Errorf("blank line %d carries a background: %q", i, line)
				}
				if strings.HasSuffix(visible, " ") && !hasBackground(line) {
					t.Errorf("line %d keeps trailing padding: %q", i, line)
				}
			}
			if ratio := float64(len(out)) / float64(len(md)); ratio > 6 {
				t.Errorf("output is %.1fx the input (%d bytes)", ratio, len(out))
			}
		})
	}
}

// TestGlamourRawOutputIsLean checks the style alone, without Tidy: blank
// lines carry no background and no colour at all, and the output stays far
// below glamour's standard dark style.
func TestGlamourRawOutputIsLean(t *testing.T) {
	md := sampleMarkdown(t)
	std, err := glamour.NewTermRenderer(glamour.WithStandardStyle("dark"), glamour.WithWordWrap(80))
	if err != nil {
		t.Fatal(err)
	}
	stdOut, err := std.Render(md)
	if err != nil {
		t.Fatal(err)
	}
	if len(colouredBlankLines(stdOut)) == 0 {
		t.Fatal("premise: glamour's standard dark style colours the padding of blank lines")
	}
	for _, th := range Builtins() {
		r, err := glamour.NewTermRenderer(glamour.WithStyles(th.Glamour(false)), glamour.WithWordWrap(80),
			glamour.WithChromaFormatter(ChromaFormatter))
		if err != nil {
			t.Fatal(err)
		}
		out, err := r.Render(md)
		if err != nil {
			t.Fatal(err)
		}
		if bad := colouredBlankLines(out); len(bad) > 0 {
			t.Errorf("%s: blank lines %v are coloured", th.Name, bad)
		}
		if len(out)*2 > len(stdOut) {
			t.Errorf("%s: %d bytes, glamour's dark style %d: want less than half", th.Name, len(out), len(stdOut))
		}
		if ratio := float64(len(out)) / float64(len(md)); ratio > 10 {
			t.Errorf("%s: raw output is %.1fx the input", th.Name, ratio)
		}
	}
}

// colouredBlankLines returns the numbers of lines without visible text
// whose padding is coloured. An SGR directly followed by a reset styles
// nothing (a rule's colour opens on the line before it) and is ignored.
func colouredBlankLines(out string) []int {
	var bad []int
	for i, line := range strings.Split(out, "\n") {
		if strings.TrimSpace(ansi.Strip(line)) != "" {
			continue
		}
		if colourSGR(emptySGR.ReplaceAllString(line, "")) != "" || hasBackground(line) {
			bad = append(bad, i)
		}
	}
	return bad
}

func TestGlamourNoColor(t *testing.T) {
	md := sampleMarkdown(t)
	for _, th := range Builtins() {
		out := render(t, th, true, md)
		if c := colourSGR(out); c != "" {
			t.Errorf("%s: colour SGR %q with NO_COLOR", th.Name, c)
		}
		if !hasAttr(out, "1") {
			t.Errorf("%s: headings lost bold with NO_COLOR", th.Name)
		}
		if !strings.Contains(ansi.Strip(out), "`%w`") {
			t.Errorf("%s: inline code lost its backticks with NO_COLOR", th.Name)
		}
	}
}

func TestThemeSwitchChangesCodeColours(t *testing.T) {
	md := "```go\nfunc main() { return \"s\" }\n```\n"
	a, b := darkTheme(), gruvboxTheme()
	for _, th := range []Theme{a, b, a} {
		out := render(t, th, false, md)
		if !strings.Contains(out, fgCode(th.Syntax.Keyword)) {
			t.Errorf("%s: keyword not in %s: %q", th.Name, th.Syntax.Keyword, out)
		}
		other := b
		if th.Name == b.Name {
			other = a
		}
		if strings.Contains(out, fgCode(other.Syntax.Keyword)) {
			t.Errorf("%s: output uses %s's keyword colour", th.Name, other.Name)
		}
	}
}

func TestRegisterChroma(t *testing.T) {
	s := darkTheme().Syntax
	n1, n2 := RegisterChroma(s), RegisterChroma(s)
	if n1 != n2 || !strings.HasPrefix(n1, "parley-") {
		t.Fatalf("names %q %q", n1, n2)
	}
	s.Keyword = "#010203"
	if RegisterChroma(s) == n1 {
		t.Fatal("different colours share a chroma style name")
	}
	s.Keyword = "196" // ANSI numbers work too
	out := render(t, Theme{Name: "ansi", Syntax: s}, false, "```go\nfunc f() {}\n```\n")
	if !strings.Contains(out, "38;2;255;0;0") {
		t.Fatalf("ANSI 196 keyword not rendered as #ff0000: %q", out)
	}
}

func TestRendererNeutralisesAttacks(t *testing.T) {
	md := "hi &#27;[2J &#x1b;]0;pwned&#7; [click](https://evil.example/) \x1b]52;c;aGk=\x07 `&#27;[8m`\n"
	out := render(t, darkTheme(), false, md)
	if termsafe.KeepSGR(out) != out {
		t.Fatalf("non-SGR sequence survived: %q", out)
	}
	plain := ansi.Strip(out)
	for _, want := range []string{"␛[2J", "␛]0;pwned␇", "https://evil.example/", "␛]52;c;aGk=␇", "␛[8m"} {
		if !strings.Contains(plain, want) {
			t.Errorf("%q not visible in %q", want, plain)
		}
	}
}
