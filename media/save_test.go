package media

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"parley/media/mediatest"
)

func listDir(t *testing.T, dir string) []string {
	t.Helper()
	ents, err := os.ReadDir(dir)
	if err != nil && !os.IsNotExist(err) {
		t.Fatal(err)
	}
	var names []string
	for _, e := range ents {
		names = append(names, e.Name())
	}
	return names
}

func verified(t *testing.T, images ...[]byte) []Verified {
	t.Helper()
	var out []Verified
	for _, data := range images {
		v, err := Verify(context.Background(), data, nil, nil)
		if err != nil {
			t.Fatal(err)
		}
		out = append(out, v)
	}
	return out
}

var saveTime = time.Date(2025, 1, 2, 3, 4, 5, 0, time.UTC)

func TestSaveImagesNamesAndContent(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "new", "pictures")
	imgs := [][]byte{mediatest.PNG(t, mediatest.LineArt(20, 10)), mediatest.PNG(t, mediatest.Photo(30, 15))}
	saved, err := SaveImages(dir, "A cat, in Space!", saveTime, verified(t, imgs...))
	if err != nil {
		t.Fatal(err)
	}
	want := []string{"20250102-030405-a-cat-in-space-1.png", "20250102-030405-a-cat-in-space-2.png"}
	if got := listDir(t, dir); strings.Join(got, ",") != strings.Join(want, ",") {
		t.Fatalf("files %v, want %v (and no temporary files)", got, want)
	}
	for i, s := range saved {
		if s.Path != filepath.Join(dir, want[i]) || s.Format != PNG || s.Note != "" || s.Bytes != len(imgs[i]) {
			t.Errorf("saved[%d] = %+v", i, s)
		}
		b, _ := os.ReadFile(s.Path)
		if !bytes.Equal(b, imgs[i]) {
			t.Errorf("%s content differs", s.Path)
		}
		if st, _ := os.Stat(s.Path); st.Mode().Perm() != 0o644 {
			t.Errorf("%s mode %v", s.Path, st.Mode().Perm())
		}
	}
	if saved[1].Width != 30 || saved[1].Height != 15 {
		t.Errorf("dimensions %dx%d", saved[1].Width, saved[1].Height)
	}
	if st, _ := os.Stat(dir); st.Mode().Perm() != 0o755 {
		t.Errorf("dir mode %v", st.Mode().Perm())
	}
}

func TestSaveImagesNeverOverwrites(t *testing.T) {
	dir := t.TempDir()
	taken := filepath.Join(dir, "20250102-030405-sunset-1.png")
	os.WriteFile(taken, []byte("precious"), 0o644)
	os.WriteFile(filepath.Join(dir, "20250102-030405-sunset-1_2.png"), []byte("also precious"), 0o644)
	img := verified(t, mediatest.PNG(t, mediatest.LineArt(8, 8)))
	saved, err := SaveImages(dir, "sunset", saveTime, img)
	if err != nil {
		t.Fatal(err)
	}
	if want := filepath.Join(dir, "20250102-030405-sunset-1_3.png"); saved[0].Path != want {
		t.Errorf("saved to %s, want %s", saved[0].Path, want)
	}
	if b, _ := os.ReadFile(taken); string(b) != "precious" {
		t.Error("an existing file was overwritten")
	}
	// Saving the same thing again picks yet another name.
	again, err := SaveImages(dir, "sunset", saveTime, img)
	if err != nil || again[0].Path == saved[0].Path {
		t.Errorf("second save: %v %v", again, err)
	}
}

func TestSaveImagesWrongFormat(t *testing.T) {
	dir := t.TempDir()
	jpg := mediatest.JPEG(t, mediatest.Photo(16, 16), 80)
	saved, err := SaveImages(dir, "photo", saveTime, verified(t, mediatest.PNG(t, mediatest.LineArt(8, 8)), jpg))
	if err != nil {
		t.Fatal(err)
	}
	s := saved[1]
	if filepath.Base(s.Path) != "20250102-030405-photo-2.jpg" || s.Format != JPEG {
		t.Errorf("saved %+v", s)
	}
	if !strings.Contains(s.Note, "JPEG") || !strings.Contains(s.Note, ".jpg") {
		t.Errorf("note %q does not say what happened", s.Note)
	}
	if saved[0].Note != "" {
		t.Errorf("the PNG got a note: %q", saved[0].Note)
	}
}

func TestSaveImagesErrors(t *testing.T) {
	if _, err := SaveImages(t.TempDir(), "x", saveTime, nil); err == nil {
		t.Fatal("saved nothing without an error")
	}
	blocker := filepath.Join(t.TempDir(), "a-file")
	os.WriteFile(blocker, []byte("x"), 0o644)
	_, err := SaveImages(filepath.Join(blocker, "sub"), "x", saveTime, verified(t, mediatest.PNG(t, mediatest.LineArt(8, 8))))
	if err == nil || !strings.Contains(err.Error(), "cannot create the image directory") || strings.Count(err.Error(), blocker) != 1 {
		t.Fatalf("error %v: want one sentence naming the directory once", err)
	}
}

func TestVerify(t *testing.T) {
	good := mediatest.PNG(t, mediatest.LineArt(16, 16))
	v, err := Verify(context.Background(), good, nil, nil)
	if err != nil || v.Info.Format != PNG || v.Info.Width != 16 || !bytes.Equal(v.Data, good) {
		t.Fatalf("Verify(good) = %+v, %v", v.Info, err)
	}
	cases := map[string]struct {
		data []byte
		want string
	}{
		"html":      {[]byte("<html><body>oops"), "is not an image (it looks like an HTML page)"},
		"binary":    {[]byte{0, 1, 2}, "is not an image"},
		"truncated": {good[:len(good)-20], "is a damaged PNG image"},
		"bad jpeg":  {[]byte{0xFF, 0xD8, 0xFF, 0x00}, "is a damaged JPEG image"},
	}
	for name, c := range cases {
		if _, err := Verify(context.Background(), c.data, nil, nil); err == nil || !strings.HasPrefix(err.Error(), c.want) {
			t.Errorf("%s: %v, want %q", name, err, c.want)
		}
	}
}

func TestSlug(t *testing.T) {
	cases := map[string]string{
		"A cat, in Space!":          "a-cat-in-space",
		"  Hello   WORLD 2025 ":     "hello-world-2025",
		"Café crème brûlée":         "cafe-creme-brulee",
		"Straße über Ærø":           "strasse-uber-aero",
		"Łódź þing":                 "lodz-thing",
		"don't stop":                "dont-stop",
		"猫の絵":                       "image",
		"кот в космосе":             "image",
		"猫 cat 🐱":                   "cat",
		"":                          "image",
		"--- ... !!!":               "image",
		"path/../../etc/passwd":     "path-etc-passwd",
		strings.Repeat("word ", 20): "word-word-word-word-word-word-word-word", // 39 chars
		strings.Repeat("x", 60):     strings.Repeat("x", 40),
		"an extraordinarily detailed watercolour painting of a lighthouse": "an-extraordinarily-detailed-watercolour",
	}
	for in, want := range cases {
		got := Slug(in)
		if got != want {
			t.Errorf("Slug(%q) = %q, want %q", in, got, want)
		}
		if len(got) > 40 {
			t.Errorf("Slug(%q) is %d chars", in, len(got))
		}
	}
}

func TestDefaultImageDir(t *testing.T) {
	home := t.TempDir()
	cfg := filepath.Join(home, "cfg")
	os.MkdirAll(cfg, 0o755)
	env := func(m map[string]string) func(string) string {
		return func(k string) string { return m[k] }
	}
	if got, want := DefaultImageDir(env(nil), home), filepath.Join(home, "Pictures", "parley"); got != want {
		t.Errorf("no env: %s, want %s", got, want)
	}
	if got := DefaultImageDir(env(map[string]string{"XDG_PICTURES_DIR": "/data/pics"}), home); got != "/data/pics/parley" {
		t.Errorf("XDG_PICTURES_DIR: %s", got)
	}
	os.WriteFile(filepath.Join(cfg, "user-dirs.dirs"), []byte("# written by xdg-user-dirs-update\nXDG_DESKTOP_DIR=\"$HOME/Desktop\"\nXDG_PICTURES_DIR=\"$HOME/Bilder\"\n"), 0o644)
	if got, want := DefaultImageDir(env(map[string]string{"XDG_CONFIG_HOME": cfg}), home), filepath.Join(home, "Bilder", "parley"); got != want {
		t.Errorf("user-dirs.dirs: %s, want %s", got, want)
	}
	os.WriteFile(filepath.Join(cfg, "user-dirs.dirs"), []byte("XDG_PICTURES_DIR=\"/srv/photos\"\n"), 0o644)
	if got := DefaultImageDir(env(map[string]string{"XDG_CONFIG_HOME": cfg}), home); got != "/srv/photos/parley" {
		t.Errorf("absolute user dir: %s", got)
	}
	os.WriteFile(filepath.Join(cfg, "user-dirs.dirs"), []byte("XDG_PICTURES_DIR=\"$HOME/\"\n"), 0o644)
	if got, want := DefaultImageDir(env(map[string]string{"XDG_CONFIG_HOME": cfg}), home), filepath.Join(home, "Pictures", "parley"); got != want {
		t.Errorf("disabled user dir: %s, want %s", got, want)
	}
	// A user-dirs.dirs that is a link to /dev/zero is ignored, not read.
	zero := filepath.Join(t.TempDir(), "zero")
	os.MkdirAll(zero, 0o755)
	if err := os.Symlink("/dev/zero", filepath.Join(zero, "user-dirs.dirs")); err != nil {
		t.Fatal(err)
	}
	if got, want := DefaultImageDir(env(map[string]string{"XDG_CONFIG_HOME": zero}), home), filepath.Join(home, "Pictures", "parley"); got != want {
		t.Errorf("user-dirs.dirs -> /dev/zero: %s, want %s", got, want)
	}
	// The default XDG_CONFIG_HOME is ~/.config.
	os.MkdirAll(filepath.Join(home, ".config"), 0o755)
	os.WriteFile(filepath.Join(home, ".config", "user-dirs.dirs"), []byte("XDG_PICTURES_DIR=\"$HOME/Fotos\"\n"), 0o644)
	if got, want := DefaultImageDir(env(nil), home), filepath.Join(home, "Fotos", "parley"); got != want {
		t.Errorf("~/.config/user-dirs.dirs: %s, want %s", got, want)
	}
}
