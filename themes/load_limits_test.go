package themes

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// TestLoadDirRefusesUnsafeFiles: a theme file that is a device behind a
// symlink, a directory named like a theme, a file over the size cap or one
// nested past the depth limit is skipped with a sentence, at once, and the
// good themes next to it still load.
func TestLoadDirRefusesUnsafeFiles(t *testing.T) {
	dir := writeFiles(t, map[string]string{
		"good.toml": "accent = \"#ff8800\"\n",
		"big.toml":  "# " + strings.Repeat("x", MaxFileSize) + "\n",
		"deep.toml": "name = \"deep\"\n\naccent = " + strings.Repeat("[", 9000) + strings.Repeat("]", 9000) + "\n",
	})
	if err := os.Symlink("/dev/zero", filepath.Join(dir, "zero.toml")); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(t.TempDir(), filepath.Join(dir, "folder.toml")); err != nil {
		t.Fatal(err)
	}
	start := time.Now()
	themes, errs := LoadDir(dir)
	if took := time.Since(start); took > time.Second {
		t.Fatalf("took %v", took)
	}
	if len(themes) != 1 || themes[0].Name != "good" {
		t.Fatalf("themes %v", themes)
	}
	got := fileErrors(t, errs)
	for file, want := range map[string]string{
		"zero.toml":   "is a character device, not a regular file; the theme was skipped",
		"folder.toml": "is a directory, not a regular file",
		"big.toml":    "is larger than 1.0 MB, far more than a theme needs",
		"deep.toml":   "deep.toml:3: arrays and inline tables are nested more than 8 levels deep",
	} {
		fe := got[file]
		if fe == nil || !fe.Skipped || !strings.Contains(fe.Error(), want) {
			t.Errorf("%s: %v, want %q", file, fe, want)
		}
	}
}
