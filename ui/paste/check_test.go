//go:build unix

package paste

import (
	"context"
	"errors"
	"image/color"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"parley/media"
	"parley/media/mediatest"
)

func write(t *testing.T, dir, name string, data []byte) string {
	t.Helper()
	p := filepath.Join(dir, name)
	if err := os.WriteFile(p, data, 0o644); err != nil {
		t.Fatal(err)
	}
	return p
}

func TestCheckAcceptsImagesByContent(t *testing.T) {
	dir := t.TempDir()
	paths := []string{
		write(t, dir, "a b.png", mediatest.PNG(t, mediatest.Screenshot(64, 48))),
		write(t, dir, "photo.jpg", mediatest.JPEG(t, mediatest.Photo(64, 48), 80)),
		write(t, dir, "anim.gif", mediatest.GIF(t, 1, 8, 8)),
		write(t, dir, "solid.webp", mediatest.SolidWEBP(8, 8, color.NRGBA{R: 200, A: 255})),
		// The extension chose the paste's kind; the bytes decide here.
		write(t, dir, "really-a-png.jpg", mediatest.PNG(t, mediatest.LineArt(8, 8))),
	}
	if err := Check(context.Background(), paths); err != nil {
		t.Fatalf("Check: %v", err)
	}
}

func TestCheckRefuses(t *testing.T) {
	dir := t.TempDir()
	good := write(t, dir, "good.png", mediatest.PNG(t, mediatest.Screenshot(16, 16)))
	fifo := filepath.Join(dir, "pipe.png")
	if err := syscall.Mkfifo(fifo, 0o644); err != nil {
		t.Fatal(err)
	}
	huge := filepath.Join(dir, "huge.png")
	f, err := os.Create(huge)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := f.Write(mediatest.PNG(t, mediatest.Screenshot(4, 4))); err != nil {
		t.Fatal(err)
	}
	if err := f.Truncate(media.MaxFileBytes + 1); err != nil { // sparse: nothing is written
		t.Fatal(err)
	}
	f.Close()
	if err := os.Mkdir(filepath.Join(dir, "folder.png"), 0o755); err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		name, path, want string
	}{
		{"missing", filepath.Join(dir, "gone.png"), "there is no such file; check the path"},
		{"HEIC named .png", write(t, dir, "phone.png", []byte("\x00\x00\x00\x18ftypheic\x00\x00\x00\x00mif1heic")), "it is a HEIC image"},
		{"unknown binary", write(t, dir, "noise.png", []byte{0, 1, 2, 3, 0xfe, 0xff}), "it holds binary data, neither a PNG, JPEG, WEBP or GIF image nor a text file"},
		{"zip", write(t, dir, "a.zip", []byte("PK\x03\x04\x14\x00\x00\x00")), "it is a ZIP archive (or an office document), neither a PNG, JPEG, WEBP or GIF image nor a text file"},
		{"empty", write(t, dir, "empty.png", nil), "the file is empty"},
		{"directory", filepath.Join(dir, "folder.png"), "it is a directory"},
		{"FIFO", fifo, "it is not a regular file"},
		{"device", "/dev/zero", "it is not a regular file"},
		{"too large", huge, "more than parley reads (268.4 MB); shrink it first"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			start := time.Now()
			err := Check(context.Background(), []string{good, tt.path})
			var ce *CheckError
			if !errors.As(err, &ce) || ce.Path != tt.path {
				t.Fatalf("Check(%s) = %v, want a CheckError for it", tt.path, err)
			}
			if !strings.Contains(err.Error(), tt.want) || !strings.HasPrefix(err.Error(), `cannot attach "`+tt.path+`": `) {
				t.Fatalf("Check(%s) = %q, want it to say %q", tt.path, err, tt.want)
			}
			if d := time.Since(start); d > time.Second {
				t.Fatalf("Check took %v", d)
			}
		})
	}
}

func TestCheckPermissionDenied(t *testing.T) {
	if os.Geteuid() == 0 {
		t.Skip("root reads files whatever their mode")
	}
	dir := t.TempDir()
	p := write(t, dir, "locked.png", mediatest.PNG(t, mediatest.Screenshot(4, 4)))
	if err := os.Chmod(p, 0); err != nil {
		t.Fatal(err)
	}
	err := Check(context.Background(), []string{p})
	if err == nil || !strings.Contains(err.Error(), "permission denied") {
		t.Fatalf("Check = %v, want permission denied", err)
	}
}

func TestCheckStopsWithContext(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	p := write(t, t.TempDir(), "a.png", mediatest.PNG(t, mediatest.Screenshot(4, 4)))
	if err := Check(ctx, []string{p}); !errors.Is(err, context.Canceled) {
		t.Fatalf("Check with a cancelled context = %v", err)
	}
}

// TestParseThenCheck is the root's path: a terminal drop of two files with
// a space in their names becomes two checked paths.
func TestParseThenCheck(t *testing.T) {
	dir := t.TempDir()
	a := write(t, dir, "shot one.png", mediatest.PNG(t, mediatest.Screenshot(8, 8)))
	b := write(t, dir, "shot two.jpg", mediatest.JPEG(t, mediatest.Photo(8, 8), 80))
	drop := "'" + a + "' " + strings.ReplaceAll(b, " ", `\ `) + " "
	r := Parse(drop, "")
	if r.Kind != Paths || len(r.Paths) != 2 || r.Paths[0] != a || r.Paths[1] != b {
		t.Fatalf("Parse(%q) = %+v", drop, r)
	}
	if err := Check(context.Background(), r.Paths); err != nil {
		t.Fatal(err)
	}
}

// Text files pass too, recognised from their first bytes whatever their
// names: code, Markdown, a log, HTML, and a text whose first bytes end in
// the middle of a character.
func TestCheckAcceptsTextFiles(t *testing.T) {
	dir := t.TempDir()
	long := strings.Repeat("a", headBytes-1) + "é and more"
	paths := []string{
		write(t, dir, "main.go", []byte("package main\n")),
		write(t, dir, "notes.png", []byte("just some notes\n")),
		write(t, dir, "page.jpg", []byte("<!DOCTYPE html><html></html>")),
		write(t, dir, "bom.md", []byte("\ufeff# Title\n")),
		write(t, dir, "cut.log", []byte(long)),
	}
	if err := Check(context.Background(), paths); err != nil {
		t.Fatal(err)
	}
	if err := Check(context.Background(), []string{write(t, dir, "latin1.txt", []byte("caf\xe9\n"))}); err == nil {
		t.Fatal("Latin-1 text passed for UTF-8")
	}
}
