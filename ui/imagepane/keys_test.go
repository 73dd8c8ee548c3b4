package imagepane

import (
	"strings"
	"testing"
	"time"
)

// rowShown reports whether a list row (starting with an origin marker)
// of the frame names name.
func rowShown(frame, name string) bool {
	for _, l := range strings.Split(plain(frame), "\n") {
		if strings.Contains(l, name) && strings.Contains(l, "✦ ") {
			return true
		}
	}
	return false
}

func TestMovement(t *testing.T) {
	// 50 images, newest first: row i is k(49-i). At 120×20 the list shows
	// 18 rows, so a page moves by 17.
	cases := []struct {
		keys []string
		want string
	}{
		{[]string{"down"}, "k048"},
		{[]string{"j", "j", "j"}, "k046"},
		{[]string{"ctrl+n"}, "k048"},
		{[]string{"down", "up"}, "k049"},
		{[]string{"j", "k"}, "k049"},
		{[]string{"up"}, "k049"},
		{[]string{"pgdown"}, "k032"},
		{[]string{"pgdown", "pgdown", "pgdown", "pgdown"}, "k000"},
		{[]string{"pgdown", "pgup"}, "k049"},
		{[]string{"end"}, "k000"},
		{[]string{"G"}, "k000"},
		{[]string{"G", "down"}, "k000"},
		{[]string{"G", "home"}, "k049"},
		{[]string{"G", "g"}, "k049"},
	}
	for _, c := range cases {
		t.Run(strings.Join(c.keys, ","), func(t *testing.T) {
			p := newPane(t, "/home/u")
			p.setItems(many(50))
			p.render(120, 20, nil, true)
			for _, k := range c.keys {
				if a, cmd := handle(p, press(k)); a.kind != "none" || cmd != nil {
					t.Fatalf("%s returned %v, %v", k, a, cmd)
				}
			}
			it, _ := p.Selected()
			if it.Key != c.want {
				t.Fatalf("selected %q, want %q", it.Key, c.want)
			}
			frame := p.render(120, 20, nil, true)
			if !rowShown(frame, c.want+".png") {
				t.Fatalf("the selection %s is not in the list:\n%s", c.want, plain(frame))
			}
			// The selected row is the one marked.
			if !strings.Contains(plain(frame), "▸✦ "+c.want+".png") {
				t.Fatalf("the selected row is not marked:\n%s", plain(frame))
			}
		})
	}
}

func TestScrollKeepsWindow(t *testing.T) {
	p := newPane(t, "/home/u")
	p.setItems(many(50))
	p.render(120, 20, nil, true) // 18 list rows
	for range 20 {
		handle(p, press("down"))
	}
	frame := plain(p.render(120, 20, nil, true))
	// Row 20 selected: the window is rows 3..20, so k046 is the first row
	// shown and k049 scrolled out.
	if !rowShown(frame, "k046.png") || rowShown(frame, "k049.png") || rowShown(frame, "k028.png") {
		t.Fatalf("the window is not rows 3–20:\n%s", frame)
	}
	// Moving up inside the window does not scroll.
	handle(p, press("up"))
	if got := plain(p.render(120, 20, nil, true)); !rowShown(got, "k046.png") {
		t.Fatalf("moving up inside the window scrolled:\n%s", got)
	}
	// A smaller pane scrolls to keep the selection visible.
	small := plain(p.render(120, 8, nil, true))
	if !rowShown(small, "k030.png") {
		t.Fatalf("a smaller pane lost the selection:\n%s", small)
	}
}

func TestActionKeys(t *testing.T) {
	pasted := Item{Key: "p", Origin: Attached, Name: "clipboard image", Width: 10, Height: 10, Bytes: 99, MIME: "image/png", Created: base.Add(time.Hour)}
	cases := []struct {
		name  string
		items []Item
		key   string
		want  string // what the pane asks (outcome.kind)
		said  string // what the pane says through the chat's notices ("" for nothing)
	}{
		{"a attaches", many(3), "a", "attach", ""},
		{"o opens", many(3), "o", "open", ""},
		{"c copies the path", many(3), "c", "copy path", ""},
		{"y copies the image", many(3), "y", "copy image", ""},
		{"e edits", many(3), "e", "edit", ""},
		{"esc closes", many(3), "esc", "close", ""},
		{"s opens the prompt, no action yet", many(3), "s", "none", ""},
		{"an unknown letter does nothing", many(3), "x", "none", ""},
		{"esc closes an empty pane", nil, "esc", "close", ""},
		{"a on an empty pane", nil, "a", "say", "there are no images yet"},
		{"o on a pasted image", []Item{pasted}, "o", "say", "this image was pasted and has no file yet; s saves a copy first"},
		{"c on a pasted image", []Item{pasted}, "c", "say", "this image was pasted and has no file yet; s saves a copy first"},
		{"y on a pasted image", []Item{pasted}, "y", "copy image", ""},
		{"a on a pasted image", []Item{pasted}, "a", "attach", ""},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			p := newPane(t, "/home/u")
			p.setItems(c.items)
			a, cmd := handle(p, press(c.key))
			if a.kind != c.want || (cmd != nil) != (c.key == "s") {
				t.Fatalf("%s: %v, %v; want %v", c.key, a, cmd, c.want)
			}
			if c.said != "" && !strings.Contains(a.said, c.said) {
				t.Fatalf("the pane says %q, want %q", a.said, c.said)
			}
			frame := plain(p.render(120, 20, nil, true))
			hint := strings.Split(frame, "\n")[19]
			if !strings.Contains(hint, "esc back") && !p.PromptOpen() {
				t.Fatalf("the hint line is not the hint: %q", hint)
			}
			if p.PromptOpen() != (c.key == "s") {
				t.Fatalf("PromptOpen = %v after %s", p.PromptOpen(), c.key)
			}
		})
	}
}
