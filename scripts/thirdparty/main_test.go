package main

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

func TestWritesEveryLinkedModulesLicence(t *testing.T) {
	if testing.Short() {
		t.Skip("lists the modules of seven platforms with the go command; skipped with -short")
	}
	ctx, cancel := context.WithTimeout(context.Background(), 3*time.Minute)
	defer cancel()
	out := filepath.Join(t.TempDir(), "sub", "THIRD_PARTY_LICENSES")
	if err := run(ctx, out); err != nil {
		t.Fatal(err)
	}
	text, err := os.ReadFile(out)
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{
		"Go standard library go1",
		"github.com/spf13/cobra v1.10.2: LICENSE.txt",
		"modernc.org/sqlite v1.61.1: LICENSE-SQLITE",
		"github.com/BurntSushi/toml v1.6.0: COPYING",
		// Windows only: the console API.
		"github.com/charmbracelet/x/windows v0.2.2: LICENSE",
	} {
		if !bytes.Contains(text, []byte(want)) {
			t.Errorf("no section %q", want)
		}
	}
	if bytes.Contains(text, []byte("apitest")) || bytes.Contains(text, []byte("go-md2man")) {
		t.Error("a module the binary does not link is listed")
	}
}

func TestRefusesAModuleWithoutALicence(t *testing.T) {
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "README.md"), []byte("no licence here"), 0o644); err != nil {
		t.Fatal(err)
	}
	var b bytes.Buffer
	err := appendLicences(&b, module{path: "example.org/unlicensed", version: "v1.0.0", dir: dir})
	if err == nil || !strings.Contains(err.Error(), "example.org/unlicensed@v1.0.0 has no LICENSE") {
		t.Fatalf("err = %v", err)
	}
}

func TestLicenceFileNames(t *testing.T) {
	for name, want := range map[string]bool{
		"LICENSE": true, "LICENSE.md": true, "LICENCE": true, "COPYING": true, "NOTICE": true,
		"LICENSE-SQLITE": true, "license.txt": true,
		"LICENSES.go": false, "README.md": false, "licenser.go": false, "noticeboard": false,
	} {
		if got := isLicenceFile(name); got != want {
			t.Errorf("isLicenceFile(%q) = %v", name, got)
		}
	}
}
