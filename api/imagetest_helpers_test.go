package api

import (
	"encoding/base64"
	"os"
	"path/filepath"
	"testing"
)

func b64(b []byte) string { return base64.StdEncoding.EncodeToString(b) }

func writeTestFile(t testing.TB, dir, name string, data []byte) string {
	t.Helper()
	p := filepath.Join(dir, name)
	if err := os.WriteFile(p, data, 0o644); err != nil {
		t.Fatal(err)
	}
	return p
}

func decodeTestDataURI(t testing.TB, uri string) (string, []byte) {
	t.Helper()
	f, data, err := parseDataURI(uri)
	if err != nil {
		t.Fatalf("data URI does not decode: %v", err)
	}
	return f.MIME(), data
}
