package api

import (
	"bytes"
	"context"
	"encoding/base64"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

func b64(b []byte) string { return base64.StdEncoding.EncodeToString(b) }

func TestDecodeImageData(t *testing.T) {
	png1 := encodePNG(t, lineArtImage(16, 16))
	png2 := encodePNG(t, photoImage(16, 8))
	wrapped := func(s string) string { // a 76-column MIME-style wrap
		var b strings.Builder
		for len(s) > 76 {
			b.WriteString(s[:76] + "\r\n")
			s = s[76:]
		}
		return b.String() + s
	}
	var asked []string
	download := func(ctx context.Context, url string) ([]byte, error) {
		asked = append(asked, url)
		return png2, nil
	}
	resp := &ImageResponse{Data: []ImageData{
		{B64JSON: b64(png1)},
		{B64JSON: strings.TrimRight(base64.URLEncoding.EncodeToString(png2), "=")},
		{B64JSON: wrapped(b64(png1))},
		{URL: "https://img.example/out.png"},
		{URL: "data:image/png;base64," + b64(png2)},
	}}
	got, err := DecodeImageData(context.Background(), resp, download)
	if err != nil {
		t.Fatal(err)
	}
	want := [][]byte{png1, png2, png1, png2, png2}
	if len(got) != len(want) {
		t.Fatalf("got %d images", len(got))
	}
	for i := range want {
		if !bytes.Equal(got[i], want[i]) {
			t.Errorf("image %d differs", i+1)
		}
	}
	if len(asked) != 1 || asked[0] != "https://img.example/out.png" {
		t.Errorf("downloads: %v", asked)
	}

	bad := []struct {
		name     string
		resp     *ImageResponse
		download func(context.Context, string) ([]byte, error)
		want     string
	}{
		{"nil", nil, nil, "without any image"},
		{"empty", &ImageResponse{Data: []ImageData{}}, nil, "empty data array"},
		{"invalid base64", &ImageResponse{Data: []ImageData{{B64JSON: b64(png1)}, {B64JSON: "not*base64!"}}}, nil, "image 2 of 2 from the gateway is not valid Base64"},
		{"not an image", &ImageResponse{Data: []ImageData{{B64JSON: b64([]byte("<html><body>oops"))}}}, nil, "is not an image (it looks like an HTML page)"},
		{"truncated", &ImageResponse{Data: []ImageData{{B64JSON: b64(png1[:len(png1)-20])}}}, nil, "damaged PNG"},
		{"neither", &ImageResponse{Data: []ImageData{{RevisedPrompt: "x"}}}, nil, "neither b64_json nor url"},
		{"url without download", &ImageResponse{Data: []ImageData{{URL: "https://x.example/a.png"}}}, nil, "downloading is not enabled"},
		{"download fails", &ImageResponse{Data: []ImageData{{URL: "https://x.example/a.png"}}},
			func(context.Context, string) ([]byte, error) { return nil, errors.New("HTTP 404") }, "HTTP 404"},
	}
	for _, c := range bad {
		imgs, err := DecodeImageData(context.Background(), c.resp, c.download)
		if err == nil || !strings.Contains(err.Error(), c.want) || imgs != nil {
			t.Errorf("%s: got %d images, err %v; want error with %q", c.name, len(imgs), err, c.want)
		}
	}
}

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

var saveTime = time.Date(2025, 1, 2, 3, 4, 5, 0, time.UTC)

func TestSaveImagesNamesAndContent(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "new", "pictures")
	imgs := [][]byte{encodePNG(t, lineArtImage(20, 10)), encodePNG(t, photoImage(30, 15))}
	saved, err := SaveImages(dir, "A cat, in Space!", saveTime, imgs)
	if err != nil {
		t.Fatal(err)
	}
	want := []string{"20250102-030405-a-cat-in-space-1.png", "20250102-030405-a-cat-in-space-2.png"}
	if got := listDir(t, dir); strings.Join(got, ",") != strings.Join(want, ",") {
		t.Fatalf("files %v, want %v (and no temporary files)", got, want)
	}
	for i, s := range saved {
		if s.Path != filepath.Join(dir, want[i]) || s.Format != "png" || s.Note != "" || s.Bytes != len(imgs[i]) {
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
	img := encodePNG(t, lineArtImage(8, 8))
	saved, err := SaveImages(dir, "sunset", saveTime, [][]byte{img})
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
	again, err := SaveImages(dir, "sunset", saveTime, [][]byte{img})
	if err != nil || again[0].Path == saved[0].Path {
		t.Errorf("second save: %v %v", again, err)
	}
}

func TestSaveImagesWrongFormat(t *testing.T) {
	dir := t.TempDir()
	jpg := encodeJPEGTest(t, photoImage(16, 16), 80)
	saved, err := SaveImages(dir, "photo", saveTime, [][]byte{encodePNG(t, lineArtImage(8, 8)), jpg})
	if err != nil {
		t.Fatal(err)
	}
	s := saved[1]
	if filepath.Base(s.Path) != "20250102-030405-photo-2.jpg" || s.Format != "jpeg" {
		t.Errorf("saved %+v", s)
	}
	if !strings.Contains(s.Note, "JPEG") || !strings.Contains(s.Note, ".jpg") {
		t.Errorf("note %q does not say what happened", s.Note)
	}
	if saved[0].Note != "" {
		t.Errorf("the PNG got a note: %q", saved[0].Note)
	}
}

func TestSaveImagesInvalidWritesNothing(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "out")
	good := encodePNG(t, lineArtImage(8, 8))
	if _, err := SaveImages(dir, "x", saveTime, [][]byte{good, []byte("garbage")}); err == nil {
		t.Fatal("saved garbage")
	}
	if _, err := SaveImages(dir, "x", saveTime, nil); err == nil {
		t.Fatal("saved nothing without an error")
	}
	// Invalid Base64 and an empty data array stop before SaveImages.
	for _, resp := range []*ImageResponse{{Data: []ImageData{{B64JSON: b64(good)}, {B64JSON: "%%%"}}}, {}} {
		imgs, err := DecodeImageData(context.Background(), resp, nil)
		if err == nil {
			t.Fatal("decoded a bad reply")
		}
		if imgs != nil {
			SaveImages(dir, "x", saveTime, imgs)
		}
	}
	if got := listDir(t, dir); len(got) != 0 {
		t.Errorf("files written: %v", got)
	}
}

func TestSlug(t *testing.T) {
	cases := map[string]string{
		"A cat, in Space!":          "a-cat-in-space",
		"  Hello   WORLD 2025 ":     "hello-world-2025",
		"Café crème brûlée":         "cafe-creme-brulee",
		"Straße über Ærø":           "strasse-uber-aero",
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
	// The default XDG_CONFIG_HOME is ~/.config.
	os.MkdirAll(filepath.Join(home, ".config"), 0o755)
	os.WriteFile(filepath.Join(home, ".config", "user-dirs.dirs"), []byte("XDG_PICTURES_DIR=\"$HOME/Fotos\"\n"), 0o644)
	if got, want := DefaultImageDir(env(nil), home), filepath.Join(home, "Fotos", "parley"); got != want {
		t.Errorf("~/.config/user-dirs.dirs: %s, want %s", got, want)
	}
}
