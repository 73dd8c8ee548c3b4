package imagepane

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"
)

// mkfiles creates files (and their folders) under dir; a name ending in
// "/" is an empty folder.
func mkfiles(t *testing.T, dir string, names ...string) {
	t.Helper()
	for _, n := range names {
		p := filepath.Join(dir, filepath.FromSlash(n))
		if strings.HasSuffix(n, "/") {
			if err := os.MkdirAll(p, 0o755); err != nil {
				t.Fatal(err)
			}
			continue
		}
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte("x"), 0o644); err != nil {
			t.Fatal(err)
		}
	}
}

// promptPane is a pane over a real home folder with its save prompt open
// for the image "fox.png".
func promptPane(t *testing.T) (*Pane, string) {
	t.Helper()
	home := t.TempDir()
	p := newPane(t, home)
	it := item("fox", 1)
	it.Path = "/elsewhere/fox.png"
	p.setItems([]Item{it, item("older", 0)})
	if a, _ := handle(p, press("s")); a.kind != "none" || !p.PromptOpen() {
		t.Fatalf("s: %v, prompt open %v", a, p.PromptOpen())
	}
	return p, home
}

func promptValue(p *Pane) string { return p.prompt.edit.Value() }

// tab presses tab and delivers the completion's answer, as the root
// would.
func tab(t *testing.T, p *Pane) {
	t.Helper()
	a, cmd := handle(p, press("tab"))
	if a.kind != "none" {
		t.Fatalf("tab returned %v", a)
	}
	if cmd != nil {
		if c := p.handleMsg(cmd()); c != nil {
			t.Fatal("a completion asked for another command")
		}
	}
}

func TestSavePromptDefault(t *testing.T) {
	p, home := promptPane(t)
	if got := promptValue(p); got != "~/Pictures/fox.png" {
		t.Fatalf("prefilled %q", got)
	}
	a, _ := handle(p, press("enter"))
	if a.kind != "save" || a.savePath != filepath.Join(home, "Pictures", "fox.png") {
		t.Fatalf("enter: %v %q", a, a.savePath)
	}
	if p.PromptOpen() {
		t.Fatal("the prompt stayed open after enter")
	}
}

func TestSavePromptEditing(t *testing.T) {
	cases := []struct {
		name string
		keys []string // "type:…" types text
		want string   // the value
	}{
		{"ctrl+u clears to the start", []string{"ctrl+u", "type:/tmp/x.png"}, "/tmp/x.png"},
		{"backspace", []string{"backspace", "backspace", "backspace", "type:jpg"}, "~/Pictures/fox.jpg"},
		{"ctrl+w drops the last part", []string{"ctrl+w", "type:bar.png"}, "~/Pictures/bar.png"},
		{"left and insert", []string{"left", "left", "left", "left", "type:-2"}, "~/Pictures/fox-2.png"},
		{"home, delete, end", []string{"home", "delete", "delete", "end", "type:!"}, "Pictures/fox.png!"},
		{"ctrl+a then ctrl+k", []string{"ctrl+a", "ctrl+k", "type:a.png"}, "a.png"},
		{"control characters typed are dropped", []string{"ctrl+u", "type:a\x1b]52;c;x\x07b\u202e.png"}, "a]52;c;xb.png"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			p, _ := promptPane(t)
			for _, k := range c.keys {
				if s, ok := strings.CutPrefix(k, "type:"); ok {
					handle(p, tea.KeyPressMsg{Code: tea.KeyExtended, Text: s})
					continue
				}
				if a, _ := handle(p, press(k)); a.kind != "none" {
					t.Fatalf("%s returned %v", k, a)
				}
			}
			if got := promptValue(p); got != c.want {
				t.Fatalf("value %q, want %q", got, c.want)
			}
		})
	}
}

func TestSavePromptTyping(t *testing.T) {
	p, home := promptPane(t)
	handle(p, press("ctrl+u"))
	typeText(t, p, "shots/a.png")
	// A paste goes into the prompt too, folded to clean text.
	p.handleMsg(tea.PasteMsg{Content: "\n"})
	a, _ := handle(p, press("enter"))
	if a.kind != "save" {
		t.Fatalf("enter: %v", a)
	}
	// Relative paths start in the working folder (home here).
	if want := filepath.Join(home, "shots", "a.png"); a.savePath != want {
		t.Fatalf("SavePath %q, want %q", a.savePath, want)
	}
}

func TestSavePromptEnter(t *testing.T) {
	cases := []struct {
		typed   string
		want    string // relative to home; "" when enter must refuse
		errText string
	}{
		{"~/out/fox.png", "out/fox.png", ""},
		{"~/out/", "out/fox.png", ""},           // a folder gets the image's name
		{"~", "fox.png", ""},                    // so does home itself
		{"out/../b.png", "b.png", ""},           // cleaned
		{"", "", "Type where to save the copy"}, // nothing typed
		{"   ", "", "Type where to save the copy"},
		{"~bob/x.png", "", "Only ~/ (your home folder) is expanded"},
	}
	for _, c := range cases {
		t.Run(c.typed, func(t *testing.T) {
			p, home := promptPane(t)
			handle(p, press("ctrl+u"))
			typeText(t, p, c.typed)
			a, _ := handle(p, press("enter"))
			if c.want == "" {
				if a.kind != "none" || !p.PromptOpen() {
					t.Fatalf("enter on %q: %v, open %v; want the prompt to stay", c.typed, a, p.PromptOpen())
				}
				if frame := plain(p.render(100, 20, nil, true)); !strings.Contains(frame, c.errText) {
					t.Fatalf("no %q in\n%s", c.errText, frame)
				}
				return
			}
			if want := filepath.Join(home, c.want); a.kind != "save" || a.savePath != want {
				t.Fatalf("enter on %q: %v %q, want Save %q", c.typed, a, a.savePath, want)
			}
		})
	}
}

func TestSavePromptEscCancelsOnlyThePrompt(t *testing.T) {
	p, _ := promptPane(t)
	a, cmd := handle(p, press("esc"))
	if a.kind != "none" || cmd != nil || p.PromptOpen() {
		t.Fatalf("esc in the prompt: %v, %v, open %v", a, cmd, p.PromptOpen())
	}
	// Letters typed in the prompt were not actions; now they are.
	if a, _ := handle(p, press("a")); a.kind != "attach" {
		t.Fatalf("a after the prompt closed: %v", a)
	}
	if a, _ := handle(p, press("esc")); a.kind != "close" {
		t.Fatalf("esc after the prompt closed: %v", a)
	}
}

func TestSavePromptKeysGoToIt(t *testing.T) {
	p, _ := promptPane(t)
	for _, k := range []string{"a", "o", "c", "y", "e", "j", "k", "G"} {
		if a, _ := handle(p, press(k)); a.kind != "none" {
			t.Fatalf("%s in the prompt returned %v", k, a)
		}
	}
	if got := promptValue(p); got != "~/Pictures/fox.pngaocyejkG" {
		t.Fatalf("value %q", got)
	}
	if it, _ := p.Selected(); it.Key != "fox" {
		t.Fatalf("the selection moved to %q", it.Key)
	}
}

func TestSavePromptCompletion(t *testing.T) {
	p, home := promptPane(t)
	mkfiles(t, home, "Pictures/", "Pipes/", "Documents/a.png", "shots/one.png", "shots/other.png", "shots/two.png")
	steps := []struct {
		typed string // replaces the value ("" keeps it)
		want  string // the value after tab
		cands string // what the candidate line shows ("" for none)
	}{
		{"~/Do", "~/Documents/", ""},             // one folder: completed, ready for more
		{"", "~/Documents/a.png", ""},            // then its only file
		{"~/Pi", "~/Pi", "Pictures/  Pipes/"},    // two: no longer prefix; both listed
		{"", "~/Pictures/", "Pictures/  Pipes/"}, // tab again steps through them
		{"", "~/Pipes/", "Pictures/  Pipes/"},
		{"", "~/Pictures/", "Pictures/  Pipes/"}, // and around
		{"shots/o", "shots/o", "one.png  other.png"},
		{"shots/t", "shots/two.png", ""}, // relative to the working folder
		{"shots/", "shots/", "one.png  other.png  two.png"},
	}
	for _, s := range steps {
		if s.typed != "" {
			handle(p, press("ctrl+u"))
			typeText(t, p, s.typed)
		}
		tab(t, p)
		if got := promptValue(p); got != s.want {
			t.Fatalf("tab on %q: value %q, want %q", s.typed, got, s.want)
		}
		frame := plain(p.render(100, 20, nil, true))
		msg := strings.Split(frame, "\n")[18]
		if s.cands != "" && !strings.Contains(msg, s.cands) {
			t.Fatalf("tab on %q: candidate line %q, want %q", s.typed, msg, s.cands)
		}
		if s.cands == "" && !strings.Contains(msg, "tab complete") {
			t.Fatalf("tab on %q: message line %q, want the prompt's hint", s.typed, msg)
		}
	}
	// Nothing to complete says so.
	handle(p, press("ctrl+u"))
	typeText(t, p, "~/zzz")
	tab(t, p)
	if frame := plain(p.render(100, 20, nil, true)); !strings.Contains(frame, "Nothing here starts with that.") {
		t.Fatalf("no message for a path that completes nothing:\n%s", frame)
	}
	// Enter saves the completed path, expanded.
	handle(p, press("ctrl+u"))
	typeText(t, p, "~/Do")
	tab(t, p)
	typeText(t, p, "copy.png")
	if a, _ := handle(p, press("enter")); a.kind != "save" || a.savePath != filepath.Join(home, "Documents", "copy.png") {
		t.Fatalf("enter after completion: %v %q", a, a.savePath)
	}
}

func TestSavePromptLateCompletionDropped(t *testing.T) {
	p, home := promptPane(t)
	mkfiles(t, home, "Documents/")
	handle(p, press("ctrl+u"))
	typeText(t, p, "~/Do")
	_, cmd := handle(p, press("tab"))
	msg := cmd()
	typeText(t, p, "x") // the value changed while completing
	p.handleMsg(msg)
	if got := promptValue(p); got != "~/Dox" {
		t.Fatalf("a stale completion changed the value to %q", got)
	}
	// A newer request wins over an older answer for the same value.
	handle(p, press("backspace"))
	_, first := handle(p, press("tab"))
	_, second := handle(p, press("tab"))
	old := first()
	p.handleMsg(old)
	if got := promptValue(p); got != "~/Do" {
		t.Fatalf("the older of two completions applied: %q", got)
	}
	p.handleMsg(second())
	if got := promptValue(p); got != "~/Documents/" {
		t.Fatalf("the newer completion did not apply: %q", got)
	}
	// An answer after the prompt closed changes nothing.
	_, cmd = handle(p, press("tab"))
	handle(p, press("esc"))
	p.handleMsg(cmd())
	if p.PromptOpen() {
		t.Fatal("a completion reopened the prompt")
	}
}

func TestSavePromptClosesWhenItsImageGoes(t *testing.T) {
	p, _ := promptPane(t)
	p.setItems([]Item{item("older", 0)})
	if p.PromptOpen() {
		t.Fatal("the prompt stayed open for an image that is gone")
	}
	p, _ = promptPane(t)
	p.setItems([]Item{item("fox", 1), item("older", 0), item("newer", 9)})
	if !p.PromptOpen() {
		t.Fatal("a new image closed the prompt")
	}
}

func TestDefaultFileName(t *testing.T) {
	cases := []struct {
		it   Item
		want string
	}{
		{Item{Path: "/a/fox.png"}, "fox.png"},
		{Item{Name: "clipboard", MIME: "image/jpeg"}, "clipboard.jpg"},
		{Item{Name: "shot", MIME: "image/webp"}, "shot.webp"},
		{Item{Name: "anim", MIME: "image/gif"}, "anim.gif"},
		{Item{Name: "a/b\\c"}, "a_b_c.png"},
		{Item{Name: "..hidden.png"}, "hidden.png"},
		{Item{Name: "evil\x1b]52;c;x\x07\u202e.png"}, "evil_]52;c;x__.png"},
		{Item{}, "image.png"},
	}
	for _, c := range cases {
		if got := fileName(c.it); got != c.want {
			t.Errorf("fileName(%+v) = %q, want %q", c.it, got, c.want)
		}
	}
}

// s proposes a file that does not exist yet: the image's own file is
// usually in the save folder, so the proposal gets "-2" (then "-3" …).
func TestSaveProposesAFreeName(t *testing.T) {
	dir := t.TempDir()
	for _, n := range []string{"fox.png", "fox-2.png"} {
		if err := os.WriteFile(filepath.Join(dir, n), []byte("x"), 0o600); err != nil {
			t.Fatal(err)
		}
	}
	p := New(testCtx(t, false), Dirs{Save: dir, Work: dir}, true)
	p.setItems([]Item{{Key: "k", Origin: Generated, Path: filepath.Join(dir, "fox.png"), MIME: "image/png", Created: time.Now()}})
	_, cmd := handle(p, press("s"))
	if cmd == nil {
		t.Fatal("no proposal asked for")
	}
	p.handleMsg(cmd())
	if got := p.prompt.edit.Value(); got != filepath.Join(dir, "fox-3.png") {
		t.Fatalf("proposed %q", got)
	}
}
