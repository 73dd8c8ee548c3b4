//go:build unix

package desktop

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// put writes a file with a modification time age before now.
func put(t *testing.T, dir, name string, age time.Duration) string {
	t.Helper()
	p := filepath.Join(dir, name)
	if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(p, []byte("x"), 0o644); err != nil {
		t.Fatal(err)
	}
	when := time.Now().Add(-age)
	if err := os.Chtimes(p, when, when); err != nil {
		t.Fatal(err)
	}
	return p
}

// The newest image wins; newer files that are not images, hidden files,
// empty files and subfolders do not count.
func TestLatestScreenshot(t *testing.T) {
	dir := t.TempDir()
	put(t, dir, "Screenshot from 2026-11-20.png", 3*time.Hour)
	want := put(t, dir, "Screenshot from 2026-11-26.JPG", time.Hour)
	put(t, dir, "notes.txt", time.Minute)
	put(t, dir, ".hidden.png", time.Minute)
	put(t, dir, "sub/newer.png", time.Minute)
	if err := os.WriteFile(filepath.Join(dir, "empty.png"), nil, 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(filepath.Join(dir, "sub"), filepath.Join(dir, "folder.png")); err != nil {
		t.Fatal(err)
	}
	shot, err := System{}.LatestScreenshot(context.Background(), dir)
	if err != nil {
		t.Fatal(err)
	}
	if shot.Path != want || shot.Size != 1 || time.Since(shot.ModTime) < 59*time.Minute || time.Since(shot.ModTime) > 61*time.Minute {
		t.Fatalf("got %+v, want %s an hour old", shot, want)
	}
	// A link to an image counts, with the image's time.
	link := filepath.Join(dir, "latest.webp")
	target := put(t, t.TempDir(), "real.webp", time.Second)
	if err := os.Symlink(target, link); err != nil {
		t.Fatal(err)
	}
	if shot, err = (System{}).LatestScreenshot(context.Background(), dir); err != nil || shot.Path != link {
		t.Fatalf("got %+v, %v; want the link", shot, err)
	}
}

func TestLatestScreenshotSentences(t *testing.T) {
	home := t.TempDir()
	sys := System{Home: home}
	empty := filepath.Join(home, "Shots")
	if err := os.Mkdir(empty, 0o755); err != nil {
		t.Fatal(err)
	}
	put(t, empty, "readme.md", 0)
	_, err := sys.LatestScreenshot(context.Background(), empty)
	if want := "there is no image in ~/Shots yet: take a screenshot first (/screenshot), or set screenshots_dir in the config to the folder your screenshots go to"; err == nil || err.Error() != want {
		t.Fatalf("empty folder: %v", err)
	}
	_, err = sys.LatestScreenshot(context.Background(), filepath.Join(home, "gone"))
	if want := "there is no folder ~/gone: set screenshots_dir in the config to the folder your screenshots go to"; err == nil || err.Error() != want {
		t.Fatalf("missing folder: %v", err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if _, err := sys.LatestScreenshot(ctx, empty); err != context.Canceled {
		t.Fatalf("cancelled: %v", err)
	}
}

// Without screenshots_dir the folder is $XDG_PICTURES_DIR/Screenshots,
// else ~/Pictures/Screenshots, whichever exists.
func TestScreenshotsDir(t *testing.T) {
	home := t.TempDir()
	pics := filepath.Join(t.TempDir(), "Bilder")
	env := map[string]string{"XDG_PICTURES_DIR": pics}
	sys := System{Home: home, Getenv: func(k string) string { return env[k] }, GOOS: "linux"}
	_, err := sys.ScreenshotsDir(context.Background())
	if err == nil || !strings.Contains(err.Error(), "parley looked in "+pics+"/Screenshots and ~/Pictures/Screenshots") {
		t.Fatalf("none exists: %v", err)
	}
	fallback := filepath.Join(home, "Pictures", "Screenshots")
	want := put(t, fallback, "a.png", 0)
	if got, err := sys.ScreenshotsDir(context.Background()); err != nil || got != fallback {
		t.Fatalf("got %q, %v; want %s", got, err, fallback)
	}
	if shot, err := sys.LatestScreenshot(context.Background(), ""); err != nil || shot.Path != want {
		t.Fatalf("latest: %+v, %v", shot, err)
	}
	first := filepath.Join(pics, "Screenshots")
	put(t, first, "b.png", 0)
	if got, err := sys.ScreenshotsDir(context.Background()); err != nil || got != first {
		t.Fatalf("got %q, %v; want %s", got, err, first)
	}
}

// On macOS the folder is where screencapture saves (defaults read), else
// the Desktop.
func TestScreenshotsDirMac(t *testing.T) {
	home := t.TempDir()
	f := newFakes(t)
	sys := f.system("darwin", nil)
	sys.Home = home
	desktop := filepath.Join(home, "Desktop")
	if err := os.Mkdir(desktop, 0o755); err != nil {
		t.Fatal(err)
	}
	if got, err := sys.ScreenshotsDir(context.Background()); err != nil || got != desktop {
		t.Fatalf("without defaults: %q, %v", got, err)
	}
	shots := filepath.Join(home, "Shots")
	if err := os.Mkdir(shots, 0o755); err != nil {
		t.Fatal(err)
	}
	f.add("defaults", `[ "$*" = "read com.apple.screencapture location" ] || exit 2; echo "~/Shots"`)
	if got, err := sys.ScreenshotsDir(context.Background()); err != nil || got != shots {
		t.Fatalf("with a location: %q, %v", got, err)
	}
	f.add("defaults", `echo "The domain/default pair of (com.apple.screencapture, location) does not exist" >&2; exit 1`)
	if got, err := sys.ScreenshotsDir(context.Background()); err != nil || got != desktop {
		t.Fatalf("location not set: %q, %v", got, err)
	}
}
