//go:build unix

package desktop

import (
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"
)

// fakes is a folder of fake desktop tools (shell scripts) that a test puts
// on the PATH of its System. Each script appends its arguments, one run a
// line, to <name>.args, so tests see exactly how parley called it.
type fakes struct {
	t   *testing.T
	dir string // the PATH entry holding the scripts
	tmp string // files the scripts read and write
}

func newFakes(t *testing.T) *fakes {
	t.Helper()
	f := &fakes{t: t, dir: t.TempDir(), tmp: t.TempDir()}
	return f
}

// add writes a tool. Its body runs after the arguments are logged; $T is
// the folder for data files. Scripts use absolute paths for programs, as
// their PATH is the test's.
func (f *fakes) add(name, body string) {
	f.t.Helper()
	script := "#!/bin/sh\nT=" + shellQuote(f.tmp) + "\n" +
		`printf '%s\n' "$*" >> "$T/` + name + `.args"` + "\n" + body + "\n"
	if err := os.WriteFile(filepath.Join(f.dir, name), []byte(script), 0o755); err != nil {
		f.t.Fatal(err)
	}
}

// file writes a data file for the scripts and returns its path.
func (f *fakes) file(name string, data []byte) string {
	f.t.Helper()
	p := filepath.Join(f.tmp, name)
	if err := os.WriteFile(p, data, 0o644); err != nil {
		f.t.Fatal(err)
	}
	return p
}

// read returns a file the scripts wrote ("" when there is none).
func (f *fakes) read(name string) string {
	b, err := os.ReadFile(filepath.Join(f.tmp, name))
	if err != nil && !errors.Is(err, os.ErrNotExist) {
		f.t.Fatal(err)
	}
	return string(b)
}

// calls returns the argument lines a tool was run with.
func (f *fakes) calls(name string) []string {
	s := strings.TrimSuffix(f.read(name+".args"), "\n")
	if s == "" {
		return nil
	}
	return strings.Split(s, "\n")
}

// system is a System whose PATH is the fakes' folder and whose
// environment is env.
func (f *fakes) system(goos string, env map[string]string) System {
	return System{
		Getenv:   func(k string) string { return env[k] },
		LookPath: lookIn(f.dir),
		GOOS:     goos,
		Timeout:  5 * time.Second,
	}
}

// lookIn searches a PATH list for an executable, as a shell does.
func lookIn(pathList string) func(string) (string, error) {
	return func(name string) (string, error) {
		for _, dir := range filepath.SplitList(pathList) {
			if dir == "" {
				continue
			}
			p := filepath.Join(dir, name)
			if st, err := os.Stat(p); err == nil && st.Mode().IsRegular() && st.Mode()&0o111 != 0 {
				return p, nil
			}
		}
		return "", &exec.Error{Name: name, Err: exec.ErrNotFound}
	}
}

func waylandEnv() map[string]string {
	return map[string]string{"WAYLAND_DISPLAY": "wayland-0", "XDG_RUNTIME_DIR": "/run/user/1000"}
}

func x11Env() map[string]string { return map[string]string{"DISPLAY": ":0"} }

// pidFrom reads a pid a script wrote, waiting for it to appear.
func (f *fakes) pidFrom(name string) int {
	f.t.Helper()
	deadline := time.Now().Add(5 * time.Second)
	for time.Now().Before(deadline) {
		if s := strings.TrimSpace(f.read(name)); s != "" {
			pid, err := strconv.Atoi(s)
			if err != nil {
				f.t.Fatalf("%s holds %q", name, s)
			}
			return pid
		}
		time.Sleep(10 * time.Millisecond)
	}
	f.t.Fatalf("no pid in %s", name)
	return 0
}

// gone reports whether a process has ended (a zombie waiting for a reaper
// counts), waiting up to a second for it.
func gone(pid int) bool {
	deadline := time.Now().Add(time.Second)
	for {
		b, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/stat")
		if err != nil {
			if syscall.Kill(pid, 0) != nil {
				return true
			}
		} else if i := strings.LastIndexByte(string(b), ')'); i > 0 && len(b) > i+2 && b[i+2] == 'Z' {
			return true
		}
		if time.Now().After(deadline) {
			return false
		}
		time.Sleep(20 * time.Millisecond)
	}
}

// killLater kills a process a fake left running when the test ends.
func killLater(t *testing.T, pid int) {
	t.Cleanup(func() { syscall.Kill(pid, syscall.SIGKILL) })
}
