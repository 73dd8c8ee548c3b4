package api

import (
	"bytes"
	"context"
	"strings"
	"testing"

	"parley/api/apitest"
	"parley/media"
)

// Text files are recognised from their bytes, whatever their names say.
func TestAttachTextFiles(t *testing.T) {
	dir := t.TempDir()
	for _, tt := range []struct {
		name     string
		data     string
		lines    int
		lang     string
		describe string
	}{
		{"main.go", "package main\n\nfunc main() {}\n", 3, "go", "main.go: text, 3 lines, 29 B"},
		{"README.md", "# Title\n\n```sh\nmake\n```\n", 5, "markdown", "README.md: text, 5 lines, 24 B"},
		{"data.csv", "a,b\n1,2", 2, "csv", "data.csv: text, 2 lines, 7 B"},
		{"app.log", "one line only\n", 1, "text", "app.log: text, 1 line, 14 B"},
		{"notes.jpg", "not a picture, just notes\n", 1, "", "notes.jpg: text, 1 line, 26 B"},
		{"Makefile", "all:\n\tgo build\n", 2, "makefile", "Makefile: text, 2 lines, 15 B"},
		{"bom.txt", "\ufeffwith a byte order mark\n", 1, "text", "bom.txt: text, 1 line, 26 B"},
		{"unicode.json", `{"name": "Zoë 🌍"}`, 1, "json", "unicode.json: text, 1 line, 21 B"},
	} {
		path := writeTestFile(t, dir, tt.name, []byte(tt.data))
		a, err := Attach(path, AttachLimits{})
		if err != nil {
			t.Fatalf("%s: %v", tt.name, err)
		}
		if !a.IsText() || a.Kind != KindText || a.MIME != TextMIME || a.Lines != tt.lines || a.Bytes != len(tt.data) ||
			!bytes.Equal(a.Data, []byte(tt.data)) || a.SHA256 != HashBytes([]byte(tt.data)) || a.Name != tt.name || a.Width != 0 {
			t.Errorf("%s: %+v", tt.name, a)
		}
		if got := a.Describe(); got != tt.describe {
			t.Errorf("%s: Describe %q, want %q", tt.name, got, tt.describe)
		}
		if got := FenceLanguage(tt.name); got != tt.lang {
			t.Errorf("%s: language %q, want %q", tt.name, got, tt.lang)
		}
		part := a.Part()
		if part.Type != PartText || part.ImageURL != nil || !strings.HasPrefix(part.Text, "File: "+tt.name+"\n\n```") {
			t.Errorf("%s: part %+v", tt.name, part)
		}
	}
}

func TestAttachTextRefusals(t *testing.T) {
	dir := t.TempDir()
	for _, tt := range []struct {
		name string
		data []byte
		want string
	}{
		{"nul.txt", []byte("text\x00with a NUL"), `cannot attach "nul.txt": it holds binary data, neither a PNG, JPEG, WEBP or GIF image nor a text file; attach an image or a text file`},
		{"latin1.txt", []byte("caf\xe9 au lait\n"), `cannot attach "latin1.txt": it holds binary data, neither a PNG, JPEG, WEBP or GIF image nor a text file; attach an image or a text file`},
		{"wide.txt", []byte("\xff\xfeh\x00i\x00"), `cannot attach "wide.txt": it is text in UTF-16, which parley does not send; save it as UTF-8 and attach it again`},
		{"program", []byte("\x7fELF\x02\x01\x01\x00"), `cannot attach "program": it is a program, neither a PNG, JPEG, WEBP or GIF image nor a text file; convert it or attach another file`},
		{"big.log", bytes.Repeat([]byte("0123456789\n"), 30_000), `cannot attach "big.log": it is a text file of 330 KB, more than parley sends of one (256 KB, attach_max_text_bytes in the config); attach a part of it or raise the limit`},
	} {
		_, err := Attach(writeTestFile(t, dir, tt.name, tt.data), AttachLimits{})
		if err == nil || err.Error() != tt.want {
			t.Errorf("%s: %v\nwant %s", tt.name, err, tt.want)
		}
	}
	// The cap is the config's when it sets one.
	small := AttachLimits{MaxTextBytes: 10}
	if _, err := AttachBytesContext(context.Background(), "a.txt", []byte("eleven char"), small); err == nil || !strings.Contains(err.Error(), "(10 B, attach_max_text_bytes") {
		t.Fatalf("small cap: %v", err)
	}
	if _, err := AttachBytesContext(context.Background(), "a.txt", []byte("ten chars!"), small); err != nil {
		t.Fatalf("at the cap: %v", err)
	}
}

func TestCheckTextTotal(t *testing.T) {
	lim := AttachLimits{MaxTextTotal: 25}
	a, _ := AttachBytesContext(context.Background(), "a.txt", []byte("0123456789"), lim)
	b, _ := AttachBytesContext(context.Background(), "b.txt", []byte("0123456789"), lim)
	c, _ := AttachBytesContext(context.Background(), "c.txt", []byte("0123456789"), lim)
	img := Attachment{Name: "big.png", Data: make([]byte, 1000), MIME: "image/png"}
	if err := lim.CheckTextTotal([]Attachment{a, b, img}); err != nil {
		t.Fatalf("20 bytes of text and an image: %v", err)
	}
	err := lim.CheckTextTotal([]Attachment{a, b, img, c})
	want := "the 3 text files of this message come to 30 B, more than one message sends (25 B, attach_max_text_total in the config); send some of them in another message"
	if err == nil || err.Error() != want {
		t.Fatalf("over: %v", err)
	}
	if err := (AttachLimits{}).CheckTextTotal([]Attachment{a, b, c}); err != nil {
		t.Fatalf("default 1 MB: %v", err)
	}
}

// unfence reads a TextBlock back as a Markdown reader does: the name from
// the first line, then the content between an opening fence and the
// first line that is exactly that fence.
func unfence(t *testing.T, block string) (name, content string) {
	t.Helper()
	head, rest, ok := strings.Cut(block, "\n\n")
	if !ok || !strings.HasPrefix(head, "File: ") {
		t.Fatalf("no header: %q", block)
	}
	open, body, ok := strings.Cut(rest, "\n")
	if !ok {
		t.Fatalf("no fence: %q", block)
	}
	fence := strings.TrimRight(open, "abcdefghijklmnopqrstuvwxyz")
	if len(fence) < 3 || strings.Trim(fence, "`") != "" {
		t.Fatalf("opening fence %q", open)
	}
	lines := strings.SplitAfter(body, "\n")
	for i, l := range lines {
		if strings.TrimRight(l, "\n") == fence {
			if i != len(lines)-1 {
				t.Fatalf("the fence closes early, at line %d of %d: %q", i+1, len(lines), block)
			}
			return strings.TrimPrefix(head, "File: "), strings.Join(lines[:i], "")
		}
		// A closing fence may be longer; a line of backticks at least as
		// long as the fence would end the block.
		if trimmed := strings.TrimSpace(l); len(trimmed) >= len(fence) && strings.Trim(trimmed, "`") == "" {
			t.Fatalf("line %d (%q) would close the fence %q", i+1, l, fence)
		}
	}
	t.Fatalf("the fence never closes: %q", block)
	return "", ""
}

// Whatever a file holds, its block gives it back whole: backtick runs of
// any length, no final newline, a byte order mark, an empty last line.
func TestTextBlockKeepsContent(t *testing.T) {
	corpus := []string{
		"plain\n", "no newline", "```\ncode\n```\n", "````\n```\n````", "`", "a ``` b\n```go\n",
		"\n\n\n", "```", strings.Repeat("`", 12) + "\n", "tabs\tand\r\nCRLF\r\n", "ünïcödé ✓\n",
	}
	for _, content := range corpus {
		for _, bom := range []bool{false, true} {
			data := []byte(content)
			if bom {
				data = append([]byte("\ufeff"), data...)
			}
			a, err := AttachBytesContext(context.Background(), "f.md", data, AttachLimits{})
			if err != nil {
				t.Fatalf("%q: %v", content, err)
			}
			name, got := unfence(t, a.TextBlock())
			want := content
			if !strings.HasSuffix(want, "\n") {
				want += "\n"
			}
			if name != "f.md" || got != want {
				t.Fatalf("%q (bom %v): got %q", content, bom, got)
			}
		}
	}
}

func FuzzTextBlock(f *testing.F) {
	for _, s := range []string{"", "```", "a\n````\nb", "x`y``z```"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, content string) {
		a, err := AttachBytesContext(context.Background(), "f.txt", []byte(content), AttachLimits{})
		if !media.IsText([]byte(content)) || media0(content) {
			return
		}
		if err != nil {
			t.Fatalf("%q: %v", content, err)
		}
		_, got := unfence(t, a.TextBlock())
		want := strings.TrimPrefix(content, "\ufeff")
		if !strings.HasSuffix(want, "\n") {
			want += "\n"
		}
		if got != want {
			t.Fatalf("%q: got %q", content, got)
		}
	})
}

// media0 reports content that starts like an image, which Attach takes
// for one.
func media0(content string) bool {
	for _, magic := range []string{"\x89PNG", "\xff\xd8\xff", "GIF8", "RIFF"} {
		if strings.HasPrefix(content, magic) {
			return true
		}
	}
	return false
}

// A text file reaches the gateway as a text part with its name, also for
// a model that cannot see images.
func TestTextFileReachesTheGateway(t *testing.T) {
	gw := apitest.New(t)
	c := newTestClient(t, gw)
	a, err := AttachBytesContext(context.Background(), "notes.md", []byte("# Notes\n\nship it\n"), AttachLimits{})
	if err != nil {
		t.Fatal(err)
	}
	msg := Message{Role: RoleUser, Content: Content{Parts: []Part{TextPart("summarise"), a.Part()}}}
	if _, err := c.Chat(context.Background(), ChatRequest{Model: "llama3", Messages: []Message{msg}}); err != nil {
		t.Fatalf("llama3 (no vision): %v", err)
	}
	r, _ := gw.LastRequest()
	parts := r.Chat.Messages[0].Content.Parts
	if len(parts) != 2 || parts[1].Type != "text" || parts[1].Text != "File: notes.md\n\n```markdown\n# Notes\n\nship it\n```" {
		t.Fatalf("parts %+v", parts)
	}
}
