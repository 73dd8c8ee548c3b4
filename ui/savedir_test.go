package ui

import (
	"path/filepath"
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
