package fserr

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"testing"
)

func TestCause(t *testing.T) {
	dir := t.TempDir()
	_, err := os.Open(filepath.Join(dir, "missing"))
	if got := Cause(err); got.Error() != "no such file or directory" || !errors.Is(got, fs.ErrNotExist) {
		t.Errorf("Cause(%v) = %v; want the bare cause, still fs.ErrNotExist", err, got)
	}
	wrapped := fmt.Errorf("saving: %w", err)
	if got := Cause(wrapped); !errors.Is(got, fs.ErrNotExist) || got.Error() != "no such file or directory" {
		t.Errorf("Cause(%v) = %v; want the cause inside the wrapping", wrapped, got)
	}
	lerr := os.Rename(filepath.Join(dir, "a"), filepath.Join(dir, "b"))
	if got := Cause(lerr); got.Error() != "no such file or directory" {
		t.Errorf("Cause(%v) = %v; want the link error's cause", lerr, got)
	}
	plain := errors.New("disk on fire")
	if Cause(plain) != plain || Cause(nil) != nil {
		t.Error("errors without a path must pass unchanged")
	}
}
