package e2e

import (
	"bytes"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"time"

	"parley/api/apitest"
)

const (
	// waitTimeout is how long a wait may take before the test fails. It is
	// generous on purpose: a slow CI machine with the race detector on is
	// many times slower than a laptop, and a passing wait ends at once.
	waitTimeout = 10 * time.Second
	// pollEvery is how often a wait looks at the screen again.
	pollEvery = 50 * time.Millisecond
	// sessionName is the one session of each private tmux server.
	sessionName = "e2e"
	// Lines the wrapper script prints around parley, on the normal screen.
	shellReady  = "e2e: shell ready; parley starts on enter"
	exitedMark  = "e2e: parley exited with status "
	releaseHint = "e2e: press enter to close the pane"
)

// wrapperScript runs parley the way a user's shell would and, once parley
// has exited, reports its status and whether the tty modes (stty -g) are
// what they were before, then waits so the test can inspect the terminal
// parley left behind (tmux resets some modes of a dead pane). It starts
// parley only on enter, once the test has attached pipe-pane, so no byte
// parley writes is missed, and writes parley's pid to the file named by
// its first argument, so the test can wait for parley to be gone before
// its temporary directories are removed.
const wrapperScript = `pidfile=$1
shift
before=$(stty -g)
printf '%s\n' '` + shellReady + `'
IFS= read -r go
sh -c 'echo $$ > "$0"; exec "$@"' "$pidfile" "$@"
status=$?
after=$(stty -g)
tty=changed
[ "$before" = "$after" ] && tty=restored
printf '` + exitedMark + `%d, tty modes %s\n' "$status" "$tty"
printf '%s\n' '` + releaseHint + `'
IFS= read -r done
exit "$status"
`

// launch says how to start parley.
type launch struct {
	// Width and Height are the terminal size; 0 means 80x24.
	Width, Height int
	// Gateway sets OPENAI_BASE_URL and OPENAI_API_KEY; nil sets neither
	// (the first-run screen).
	Gateway *apitest.Server
	// Config is written to $XDG_CONFIG_HOME/parley/config.toml; "" writes
	// no file.
	Config string
	// SetClipboard turns tmux's set-clipboard on, so an OSC 52 that reaches
	// the pane creates a paste buffer (the injection test).
	SetClipboard bool
	// Env adds variables (KEY=value) to parley's environment.
	Env []string
	// command replaces parley (the injection test's control run).
	command []string
	// args are parley's arguments.
	args []string
	// env adds variables to parley's environment ("WAYLAND_DISPLAY=x");
	// a PATH given here goes before the test process's PATH.
	env []string
	// home is the home directory (with its XDG folders) to use, so a
	// second parley sees what the first one kept; "" makes a new one.
	home string
	// wrapper replaces wrapperScript (the job-control test runs parley
	// under a shell with job control); it gets the same arguments.
	wrapper string
	// bin replaces the binary built for the tests (the start-up
	// measurement times other builds).
	bin string
	// inTmux gives parley the TMUX and TMUX_PANE a shell in the pane has,
	// naming the test's private server, as when a user runs parley inside
	// tmux (the others run it with neither, so nothing asks tmux).
	inTmux bool
}

// term is one parley process running in its own private tmux server.
type term struct {
	t      *testing.T
	socket string // tmux -S path, in a directory of its own
	raw    string // file receiving every byte parley writes (pipe-pane -O)
	race   string // directory of race reports (GORACE log_path)
	pid    string // file holding parley's pid once it started
}

// startParley starts a private tmux server running parley in a hermetic
// environment and waits until the pane's output is being recorded and
// parley has been started. The server is killed when the test ends.
func startParley(t *testing.T, l launch) *term {
	t.Helper()
	bin := parleyBinary(t)
	if l.bin != "" {
		bin = l.bin
	}
	if l.Width == 0 {
		l.Width, l.Height = 80, 24
	}
	dir := t.TempDir()
	home := filepath.Join(dir, "home")
	if l.home != "" {
		home = l.home
	}
	xdg := map[string]string{
		"XDG_CONFIG_HOME": filepath.Join(home, ".config"),
		"XDG_DATA_HOME":   filepath.Join(home, ".local", "share"),
		"XDG_CACHE_HOME":  filepath.Join(home, ".cache"),
		"XDG_STATE_HOME":  filepath.Join(home, ".local", "state"),
	}
	for _, d := range xdg {
		if err := os.MkdirAll(d, 0o700); err != nil {
			t.Fatal(err)
		}
	}
	if l.Config != "" {
		cfgDir := filepath.Join(xdg["XDG_CONFIG_HOME"], "parley")
		if err := os.MkdirAll(cfgDir, 0o700); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(cfgDir, "config.toml"), []byte(l.Config), 0o600); err != nil {
			t.Fatal(err)
		}
	}
	wrapper := filepath.Join(dir, "run.sh")
	script := wrapperScript
	if l.wrapper != "" {
		script = l.wrapper
	}
	if err := os.WriteFile(wrapper, []byte(script), 0o600); err != nil {
		t.Fatal(err)
	}
	// The server's socket lives in a short directory of its own (a unix
	// socket path must fit in about 100 bytes, which t.TempDir may not),
	// removed when the test ends: tmux leaves the socket file behind.
	sockDir, err := os.MkdirTemp("", "pe2e-")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { os.RemoveAll(sockDir) })
	tm := &term{
		t:      t,
		socket: filepath.Join(sockDir, "tmux"),
		raw:    filepath.Join(dir, "output.raw"),
		race:   filepath.Join(dir, "race"),
		pid:    filepath.Join(dir, "parley.pid"),
	}

	// parley's environment: nothing from the test process but PATH.
	env := []string{
		"PATH=" + extraPath(l.env) + os.Getenv("PATH"),
		"TERM=xterm-256color",
		"LANG=C.UTF-8",
		"HOME=" + home,
	}
	for _, k := range []string{"XDG_CONFIG_HOME", "XDG_DATA_HOME", "XDG_CACHE_HOME", "XDG_STATE_HOME"} {
		env = append(env, k+"="+xdg[k])
	}
	if l.Gateway != nil {
		env = append(env, "OPENAI_BASE_URL="+l.Gateway.URL(), "OPENAI_API_KEY="+apitest.DefaultAPIKey)
	}
	for _, kv := range l.env {
		if !strings.HasPrefix(kv, "PATH=") {
			env = append(env, kv)
		}
	}
	if raceBuild {
		if err := os.MkdirAll(tm.race, 0o700); err != nil {
			t.Fatal(err)
		}
		env = append(env, "GORACE=log_path="+filepath.Join(tm.race, "report"))
	}
	env = append(env, l.Env...)
	if l.inTmux {
		env = append(env, "TMUX="+tm.socket+",1,0", "TMUX_PANE=%0")
	}
	command := append([]string{"sh", wrapper, tm.pid, "env", "-i"}, env...)
	command = append(command, bin)
	command = append(command, l.args...)
	if l.command != nil {
		command = append([]string{"sh", wrapper, tm.pid}, l.command...)
	}

	clip := "off"
	if l.SetClipboard {
		clip = "on"
	}
	// One tmux invocation: the options are in place before the pane exists.
	args := []string{
		"start-server", ";",
		"set-option", "-g", "status", "off", ";",
		"set-option", "-g", "remain-on-exit", "on", ";",
		"set-option", "-g", "set-clipboard", clip, ";",
		"new-session", "-d", "-s", sessionName, "-x", strconv.Itoa(l.Width), "-y", strconv.Itoa(l.Height), "--",
	}
	args = append(args, command...)
	if _, err := tm.tmux(args...); err != nil {
		t.Fatalf("starting tmux: %v", err)
	}
	t.Cleanup(tm.close)

	tm.waitFor("the wrapper shell", func(s string) bool { return strings.Contains(s, shellReady) })
	tm.must("pipe-pane", "-O", "-t", sessionName, "exec cat >> "+shellQuote(tm.raw))
	tm.keys("Enter")
	return tm
}

// close kills the private tmux server (and parley with it: the pane's tty
// hangs up), waits for parley to be gone so nothing writes into the test's
// directories while they are removed, and reports any data race the
// race-built binary found.
func (tm *term) close() {
	pid := 0
	if b, err := os.ReadFile(tm.pid); err == nil {
		pid, _ = strconv.Atoi(strings.TrimSpace(string(b)))
	}
	if _, err := tm.tmux("kill-server"); err != nil && !strings.Contains(err.Error(), "no server running") {
		tm.t.Logf("kill-server: %v", err)
	}
	if pid > 0 {
		deadline := time.Now().Add(waitTimeout)
		for !processGone(pid) {
			if time.Now().After(deadline) {
				tm.t.Errorf("parley (pid %d) is still running %v after its terminal closed", pid, waitTimeout)
				break
			}
			time.Sleep(10 * time.Millisecond)
		}
	}
	if !raceBuild {
		return
	}
	reports, _ := filepath.Glob(filepath.Join(tm.race, "report*"))
	for _, r := range reports {
		b, err := os.ReadFile(r)
		if err == nil && len(b) > 0 {
			tm.t.Errorf("the race detector reported a data race in parley (%s):\n%s", r, b)
		}
	}
}

// tmux runs one tmux command against this test's private server.
func (tm *term) tmux(args ...string) (string, error) {
	cmd := exec.Command("tmux", append([]string{"-u", "-S", tm.socket, "-f", "/dev/null"}, args...)...)
	cmd.Env = tmuxEnv()
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		return string(out), fmt.Errorf("tmux %s: %w: %s", strings.Join(args, " "), err, strings.TrimSpace(stderr.String()))
	}
	return string(out), nil
}

// tmuxEnv is the environment of the tmux client (and of the server it
// starts): the test's own, without the variables that would tie it to a
// tmux the tests happen to run in.
func tmuxEnv() []string {
	var env []string
	for _, kv := range os.Environ() {
		if strings.HasPrefix(kv, "TMUX=") || strings.HasPrefix(kv, "TMUX_PANE=") {
			continue
		}
		env = append(env, kv)
	}
	return append(env, "LANG=C.UTF-8")
}

func (tm *term) must(args ...string) string {
	tm.t.Helper()
	out, err := tm.tmux(args...)
	if err != nil {
		tm.t.Fatal(err)
	}
	return out
}

// typeText types text literally, as if on a keyboard.
func (tm *term) typeText(text string) {
	tm.t.Helper()
	tm.must("send-keys", "-t", sessionName, "-l", text)
}

// keys presses named keys (tmux names: Enter, Escape, C-c, F1, ...).
func (tm *term) keys(names ...string) {
	tm.t.Helper()
	tm.must(append([]string{"send-keys", "-t", sessionName}, names...)...)
}

// send types a message and presses enter.
func (tm *term) send(text string) {
	tm.t.Helper()
	tm.typeText(text)
	tm.keys("Enter")
}

// screen is what the pane shows now, as plain text.
func (tm *term) screen() string {
	tm.t.Helper()
	return tm.must("capture-pane", "-p", "-t", sessionName)
}

// screenANSI is what the pane shows now, with colours and attributes.
func (tm *term) screenANSI() string {
	tm.t.Helper()
	return tm.must("capture-pane", "-p", "-e", "-t", sessionName)
}

// display expands a tmux format for the pane.
func (tm *term) display(format string) string {
	tm.t.Helper()
	return strings.TrimSuffix(tm.must("display-message", "-p", "-t", sessionName, format), "\n")
}

// waitFor polls the screen until ok accepts it and returns that screen. It
// fails the test after waitTimeout, or at once when parley has exited and
// the screen still does not match, showing the last screen either way.
func (tm *term) waitFor(what string, ok func(screen string) bool) string {
	tm.t.Helper()
	return tm.waitCheck(what, func(s string) error {
		if ok(s) {
			return nil
		}
		return errNotYet
	})
}

var errNotYet = errors.New("not yet")

// waitCheck is waitFor with a check that says what is still wrong, which
// the failure reports.
func (tm *term) waitCheck(what string, check func(screen string) error) string {
	tm.t.Helper()
	return tm.waitCheckWithin(waitTimeout, what, check)
}

// waitCheckWithin is waitCheck with a wait of d, for a step the race
// detector's binary makes much slower than the others (reading a large
// picture).
func (tm *term) waitCheckWithin(d time.Duration, what string, check func(screen string) error) string {
	tm.t.Helper()
	deadline := time.Now().Add(d)
	for {
		last := tm.screen()
		err := check(last)
		if err == nil {
			return last
		}
		why := ""
		if err != errNotYet {
			why = " (" + err.Error() + ")"
		}
		if strings.Contains(last, exitedMark) {
			tm.t.Fatalf("parley exited while waiting for %s%s; the screen:\n%s", what, why, frame(last))
		}
		if time.Now().After(deadline) {
			tm.t.Fatalf("timed out after %v waiting for %s%s; the last screen:\n%s", d, what, why, frame(last))
		}
		time.Sleep(pollEvery)
	}
}

// waitText waits until the screen shows every one of texts.
func (tm *term) waitText(texts ...string) string {
	tm.t.Helper()
	return tm.waitFor(fmt.Sprintf("%q on screen", texts), func(s string) bool { return containsAll(s, texts...) })
}

// waitGone waits until the screen shows none of texts.
func (tm *term) waitGone(texts ...string) string {
	tm.t.Helper()
	return tm.waitFor(fmt.Sprintf("%q gone from the screen", texts), func(s string) bool {
		for _, x := range texts {
			if strings.Contains(s, x) {
				return false
			}
		}
		return true
	})
}

// rawOutput is every byte parley (and the wrapper) wrote to the pane so far.
func (tm *term) rawOutput() []byte {
	tm.t.Helper()
	b, err := os.ReadFile(tm.raw)
	if err != nil && !errors.Is(err, os.ErrNotExist) {
		tm.t.Fatal(err)
	}
	return b
}

// exited is the state parley left the terminal in.
type exited struct {
	status      int               // parley's exit status
	ttyRestored bool              // stty -g after parley equals stty -g before
	flags       map[string]string // tmux pane flags right after parley exited
	screen      string            // the screen right after parley exited
	screenANSI  string            // the same with colours and attributes
	raw         []byte            // every byte parley wrote, from start to exit
	deadStatus  string            // #{pane_dead_status} once the wrapper exited too
}

// paneFlags are the tmux format variables that describe the terminal modes
// a program can leave behind.
var paneFlags = []string{
	"alternate_on", "cursor_flag", "insert_flag", "keypad_cursor_flag", "keypad_flag",
	"mouse_all_flag", "mouse_any_flag", "mouse_button_flag", "mouse_sgr_flag",
	"mouse_standard_flag", "mouse_utf8_flag", "origin_flag", "wrap_flag", "pane_title",
	"scroll_region_upper", "scroll_region_lower", "pane_height",
}

var exitedRE = regexp.MustCompile(regexp.QuoteMeta(exitedMark) + `(\d+), tty modes (\w+)`)

// waitExit waits for parley to exit, records how it left the terminal, then
// lets the wrapper exit with parley's status and reads that back from tmux.
func (tm *term) waitExit() exited {
	tm.t.Helper()
	var ex exited
	deadline := time.Now().Add(waitTimeout)
	for {
		ex.screen = tm.screen()
		if strings.Contains(ex.screen, releaseHint) {
			break
		}
		if time.Now().After(deadline) {
			tm.t.Fatalf("timed out after %v waiting for parley to exit; the last screen:\n%s", waitTimeout, frame(ex.screen))
		}
		time.Sleep(pollEvery)
	}
	m := exitedRE.FindStringSubmatch(ex.screen)
	if m == nil {
		tm.t.Fatalf("no exit line on the screen:\n%s", frame(ex.screen))
	}
	ex.screenANSI = tm.screenANSI()
	ex.status, _ = strconv.Atoi(m[1])
	ex.ttyRestored = m[2] == "restored"
	var format strings.Builder
	for _, f := range paneFlags {
		format.WriteString(f + "=#{" + f + "}\t")
	}
	ex.flags = map[string]string{}
	for _, kv := range strings.Split(tm.display(format.String()), "\t") {
		if k, v, ok := strings.Cut(kv, "="); ok {
			ex.flags[k] = v
		}
	}
	// pipe-pane copies asynchronously: the wrapper's exit line marks the
	// end of parley's output.
	for {
		ex.raw = tm.rawOutput()
		if i := bytes.Index(ex.raw, []byte(exitedMark)); i >= 0 {
			ex.raw = ex.raw[:i]
			break
		}
		if time.Now().After(deadline) {
			tm.t.Fatalf("timed out waiting for parley's output to be recorded")
		}
		time.Sleep(pollEvery)
	}
	tm.keys("Enter")
	// tmux marks the pane dead when its tty closes and learns the status
	// when it reaps the process, which it may need a nudge to do (see
	// nudgeReaper).
	for polls := 1; ; polls++ {
		dead, status, _ := strings.Cut(tm.display("#{pane_dead}:#{pane_dead_status}"), ":")
		if dead == "1" && status != "" {
			ex.deadStatus = status
			return ex
		}
		if time.Now().After(deadline) {
			tm.t.Fatalf("the wrapper shell did not exit (pane_dead %q, status %q); the screen:\n%s", dead, status, frame(tm.screen()))
		}
		if dead == "1" && polls%4 == 0 {
			if pid, err := strconv.Atoi(tm.display("#{pid}")); err == nil {
				if err := nudgeReaper(pid); err != nil {
					tm.t.Logf("nudging tmux (pid %d) to reap the pane: %v", pid, err)
				}
			}
		}
		time.Sleep(pollEvery)
	}
}

// frame draws a screen capture with a border so blank lines show.
func frame(s string) string {
	var b strings.Builder
	b.WriteString("  ┌" + strings.Repeat("─", 20) + "\n")
	for i, l := range lines(s) {
		fmt.Fprintf(&b, "%2d│%s\n", i, l)
	}
	b.WriteString("  └" + strings.Repeat("─", 20))
	return b.String()
}

func containsAll(s string, subs ...string) bool {
	for _, x := range subs {
		if !strings.Contains(s, x) {
			return false
		}
	}
	return true
}

// shellQuote quotes s for sh.
func shellQuote(s string) string {
	return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'"
}

// lines splits a capture into its rows (without the final newline).
func lines(screen string) []string {
	return strings.Split(strings.TrimSuffix(screen, "\n"), "\n")
}

// extraPath is the PATH entries a launch adds in front, with a separator.
func extraPath(env []string) string {
	for _, kv := range env {
		if p, ok := strings.CutPrefix(kv, "PATH="); ok {
			return p + string(os.PathListSeparator)
		}
	}
	return ""
}
