// Package mcptest gives tests the reference MCP servers from npm
// (@modelcontextprotocol/server-everything and server-filesystem),
// installed once per machine into a cache folder, and skips a test with a
// clear line where node or npm is missing.
package mcptest

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"testing"
	"time"
)

// The pinned versions: the texts tests expect are these versions'.
const (
	EverythingPackage = "@modelcontextprotocol/server-everything@2026.8.31"
	FilesystemPackage = "@modelcontextprotocol/server-filesystem@2026.8.31"
)

// DirEnv names a folder where the servers are installed already (.ci/run
// installs them there before the tests).
const DirEnv = "PARLEY_TEST_MCP_DIR"

// Servers are the commands that start the reference servers.
type Servers struct {
	Node       string // the node program
	Everything string // server-everything's script
	Filesystem string // server-filesystem's script
}

// Need returns the servers, installing them on first use, or skips t.
func Need(t testing.TB) Servers {
	t.Helper()
	node, err := exec.LookPath("node")
	if err != nil {
		t.Skip("node is not installed, so the tests with the reference MCP servers are skipped (install nodejs and npm to run them)")
	}
	dir := os.Getenv(DirEnv)
	if dir == "" {
		cache, err := os.UserCacheDir()
		if err != nil {
			cache = os.TempDir()
		}
		dir = filepath.Join(cache, "parley-test-mcp", "2026.8.31")
	}
	s := Servers{
		Node:       node,
		Everything: filepath.Join(dir, "node_modules", "@modelcontextprotocol", "server-everything", "dist", "index.js"),
		Filesystem: filepath.Join(dir, "node_modules", "@modelcontextprotocol", "server-filesystem", "dist", "index.js"),
	}
	if installed(s) {
		return s
	}
	install(t, dir)
	if !installed(s) {
		t.Fatalf("npm installed the reference MCP servers into %s, but their scripts are not there", dir)
	}
	return s
}

func installed(s Servers) bool {
	for _, f := range []string{s.Everything, s.Filesystem} {
		if _, err := os.Stat(f); err != nil {
			return false
		}
	}
	return true
}

// install runs npm into a fresh folder beside dir and renames it into
// place, so test processes running at once never see half an install.
func install(t testing.TB, dir string) {
	t.Helper()
	npm, err := exec.LookPath("npm")
	if err != nil {
		t.Skip("npm is not installed, so the reference MCP servers cannot be installed and their tests are skipped")
	}
	if err := os.MkdirAll(filepath.Dir(dir), 0o755); err != nil {
		t.Fatal(err)
	}
	tmp, err := os.MkdirTemp(filepath.Dir(dir), "install-")
	if err != nil {
		t.Fatal(err)
	}
	defer os.RemoveAll(tmp)
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Minute)
	defer cancel()
	cmd := exec.CommandContext(ctx, npm, "install", "--no-audit", "--no-fund", "--prefix", tmp, EverythingPackage, FilesystemPackage)
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Skipf("npm could not install the reference MCP servers (%v), so their tests are skipped:\n%s", err, out)
	}
	if err := os.Rename(tmp, dir); err != nil {
		if _, statErr := os.Stat(dir); statErr != nil {
			t.Fatalf("moving the installed servers into place: %v", err)
		}
	}
}
