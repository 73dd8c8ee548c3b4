package ui

import (
	"path/filepath"
	"strings"
	"testing"

	"parley/config"
)

// In the demo the image pane's save prompt proposes the pictures folder,
// not the temporary image_dir the demo says to copy things out of; out of
// the demo it proposes image_dir.
func TestDemoSaveProposesThePicturesFolder(t *testing.T) {
	home, tmp := t.TempDir(), t.TempDir()
	env := map[string]string{"HOME": home}
	cfg := &config.Config{}
	cfg.UseImageDir(tmp)
	o := Options{Config: cfg, Demo: true, Getenv: func(k string) string { return env[k] }}
	if got, want := o.saveDir(), filepath.Join(home, "Pictures", "parley"); got != want {
		t.Fatalf("the demo proposes %q, want %q", got, want)
	}
	o.Demo = false
	if got := o.saveDir(); got != tmp {
		t.Fatalf("out of the demo the prompt proposes %q, want image_dir %q", got, tmp)
	}
}

// The same through the pane a user opens: in the demo, with image_dir a
// temporary folder, s on an image made in the chat proposes a path in
// the pictures folder.
func TestDemoImagePaneSaveProposesThePicturesFolder(t *testing.T) {
	home, tmp := t.TempDir(), t.TempDir()
	env := map[string]string{"XDG_CONFIG_HOME": t.TempDir(), "XDG_PICTURES_DIR": filepath.Join(home, "Pics"), "HOME": home}
	cfg := configFrom(t, "default_model = \"gpt-4o\"\nimage_model = \"gpt-image-1\"\n[[providers]]\nname = \"demo\"\nbase_url = \"http://127.0.0.1:9/v1\"\n")
	cfg.UseImageDir(tmp)
	h := newHarness(t, 140, 50, func(o *Options) {
		o.Getenv = func(k string) string { return env[k] }
		o.Config = cfg
		o.Demo = true
	})
	makeTwo(t, h, tmp)
	h.key("alt+i")
	p, ok := h.m.imagePaneFocused()
	if !ok {
		t.Fatal("alt+i opened no image pane")
	}
	h.key("s")
	if !p.PromptOpen() {
		t.Fatal("s opened no save prompt")
	}
	scr := h.screen()
	_, prompt, _ := strings.Cut(scr, "Save a copy to: ")
	if prompt, _, _ = strings.Cut(prompt, "\n"); !strings.HasPrefix(prompt, "~/Pics/parley/") {
		t.Fatalf("the save prompt proposes %q, not the pictures folder:\n%s", prompt, scr)
	}
}
