package e2e

import (
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"parley/api/apitest"
)

// Issue 17 in the real binary: parameters and roles, text files, and
// screenshots taken from the chat.

const rolesConfig = chatConfig + `
[[models]]
name = "gpt-4o"
vision = true
params = { temperature = 0.7 }

[[roles]]
name = "reviewer"
system_prompt = "You review code."
params = { max_tokens = 300 }
`

// requestBody decodes a chat request's JSON.
func requestBody(t *testing.T, r apitest.Request) map[string]any {
	t.Helper()
	var body map[string]any
	if err := json.Unmarshal(r.Body, &body); err != nil {
		t.Fatalf("request body: %v\n%s", err, r.Body)
	}
	return body
}

// TestRoleAndParametersInTheChat: --role starts the chat with the role
// (its system prompt first, its params), the status line names it, the
// model's params come from the config, /set adds one, /role --clear
// removes the role.
func TestRoleAndParametersInTheChat(t *testing.T) {
	t.Parallel()
	gw := apitest.New(t)
	tm := startParley(t, launch{Gateway: gw, Config: rolesConfig, Width: 100, Height: 30, args: []string{"--role", "reviewer"}})
	tm.waitText(composerReady, "◆ reviewer")
	tm.send("/set seed 42")
	tm.waitText("seed = 42 for this conversation")
	tm.send("look at this")
	waitReply(tm, "You said: look at this")
	req := chatRequests(gw)[0]
	if msgs := req.Chat.Messages; len(msgs) != 2 || msgs[0].Role != "system" || msgs[0].Content.Text != "You review code." {
		t.Fatalf("the role's system prompt is not sent first: %+v", msgs)
	}
	body := requestBody(t, req)
	if body["temperature"] != 0.7 || body["max_tokens"] != float64(300) || body["seed"] != float64(42) {
		t.Fatalf("the request carries temperature %v, max_tokens %v, seed %v", body["temperature"], body["max_tokens"], body["seed"])
	}
	tm.send("/role --clear")
	tm.waitGone("◆ reviewer")
	tm.send("again")
	tm.waitText("You said: again")
	req = chatRequests(gw)[1]
	if msgs := req.Chat.Messages; msgs[0].Role == "system" {
		t.Fatalf("the role's system prompt stayed: %+v", msgs[0])
	}
	if body := requestBody(t, req); body["max_tokens"] != nil || body["seed"] != float64(42) {
		t.Fatalf("after /role --clear the request carries %v", body)
	}
}

// TestAskWithRoleAndParam: parley ask --role and --param reach the
// request.
func TestAskWithRoleAndParam(t *testing.T) {
	t.Parallel()
	gw := apitest.New(t)
	env := askEnv(t, gw)
	home := strings.TrimPrefix(env[1], "HOME=")
	cfgDir := filepath.Join(home, ".config", "parley")
	if err := os.MkdirAll(cfgDir, 0o700); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(cfgDir, "config.toml"), []byte(rolesConfig), 0o600); err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command(parleyBinary(t), "ask", "--no-save", "--role", "reviewer", "--param", "top_p=0.5", "check this")
	cmd.Env = env
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("ask: %v\n%s", err, out)
	}
	req := chatRequests(gw)[0]
	if msgs := req.Chat.Messages; msgs[0].Content.Text != "You review code." {
		t.Fatalf("--role's system prompt is not sent: %+v", msgs)
	}
	if body := requestBody(t, req); body["top_p"] != 0.5 || body["max_tokens"] != float64(300) || body["temperature"] != 0.7 {
		t.Fatalf("the request carries %v", body)
	}
}

// TestTextFileInTheChat: a text file attached with /attach shows as a
// chip with its lines and reaches the request as a text part with its
// name; a binary file is refused with a sentence.
func TestTextFileInTheChat(t *testing.T) {
	t.Parallel()
	gw := apitest.New(t)
	dir := t.TempDir()
	src := filepath.Join(dir, "main.go")
	if err := os.WriteFile(src, []byte("package main\n\nfunc main() {}\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	bin := filepath.Join(dir, "blob.dat")
	if err := os.WriteFile(bin, []byte{0x00, 0x01, 0x02, 0xff, 0xfe, 0x00}, 0o600); err != nil {
		t.Fatal(err)
	}
	tm := startParley(t, launch{Gateway: gw, Config: chatConfig, Width: 120, Height: 30})
	tm.waitText(composerReady)
	tm.send("/attach " + bin)
	s := tm.waitText("blob.dat", "binary data")
	if flat := strings.Join(strings.Fields(s), " "); !strings.Contains(flat, "neither a PNG, JPEG, WEBP or GIF image nor a text file") || strings.Contains(s, "1 ≡") || strings.Contains(s, "1 ▣") {
		t.Fatalf("a binary file was attached:\n%s", frame(s))
	}
	// The refused line stays in the composer to be corrected; alt+k
	// clears it.
	tm.waitText("/attach " + bin)
	tm.keys("M-k")
	tm.waitGone("/attach " + bin)
	tm.send("/attach " + src)
	tm.waitText("1 ≡ main.go · 3 lines")
	tm.send("what does it do?")
	tm.waitText("You said: what does it do?")
	var parts []string
	for _, p := range chatRequests(gw)[0].Chat.Messages[0].Content.Parts {
		parts = append(parts, p.Text)
	}
	joined := strings.Join(parts, "\n")
	if !strings.Contains(joined, "main.go") || !strings.Contains(joined, "```go\npackage main") {
		t.Fatalf("the text file is not in the request: %q", parts)
	}
}

// TestScreenshotAndLatest: /screenshot under Wayland runs slurp then grim
// (fakes on PATH) and attaches what grim wrote; /attach latest attaches
// the newest image of the screenshots folder and says its name and age.
func TestScreenshotAndLatest(t *testing.T) {
	t.Parallel()
	gw := apitest.New(t)
	tools := t.TempDir()
	png, _ := writeTestPNG(t, tools, "shot.png", 90, 60)
	write := func(name, body string) {
		if err := os.WriteFile(filepath.Join(tools, name), []byte("#!/bin/sh\n"+body+"\n"), 0o700); err != nil {
			t.Fatal(err)
		}
	}
	write("slurp", `echo "10,20 90x60"`)
	write("grim", `[ "$1" = -g ] || exit 2; for last; do :; done; if [ "$last" = - ]; then exec /bin/cat "`+png+`"; fi; exec /bin/cp "`+png+`" "$last"`)
	shots := t.TempDir()
	old, _ := writeTestPNG(t, shots, "older.png", 30, 20)
	newest, _ := writeTestPNG(t, shots, "newest.png", 40, 30)
	// Known ages: the message says how old the newest one is.
	now := time.Now()
	for path, ago := range map[string]time.Duration{old: 5 * time.Hour, newest: 2*time.Hour + 10*time.Minute} {
		if err := os.Chtimes(path, now.Add(-ago), now.Add(-ago)); err != nil {
			t.Fatal(err)
		}
	}
	cfg := chatConfig + "screenshots_dir = \"" + shots + "\"\n"
	tm := startParley(t, launch{Gateway: gw, Config: cfg, Width: 120, Height: 30,
		env: []string{"PATH=" + tools + ":", "WAYLAND_DISPLAY=wayland-0", "XDG_RUNTIME_DIR=" + t.TempDir()}})
	tm.waitText(composerReady)
	tm.send("/screenshot")
	tm.waitText("1 ▣ screenshot-", "90×60 PNG")
	tm.send("/attach latest")
	tm.waitText("2 ▣ newest.png", "attached the newest screenshot, newest.png, taken 2 hours ago")
	tm.send("two pictures")
	tm.waitText("You said: two pictures")
	if n := len(chatRequests(gw)[0].Chat.Messages[0].Content.Parts); n != 3 {
		t.Fatalf("the request has %d parts, want the text and two images", n)
	}
}
