package main

import (
	"bufio"
	"io"
	"net/http"
	"os"
	"strings"
	"testing"
	"time"
)

func TestServesMarkdownStream(t *testing.T) {
	outR, outW := io.Pipe()
	stop := make(chan os.Signal, 1)
	done := make(chan int, 1)
	go func() {
		done <- run([]string{"-mode", "markdown", "-dps", "0", "-key", "k", "-reasoning", "reasoning_content"}, outW, io.Discard, stop)
	}()

	url, err := bufio.NewReader(outR).ReadString('\n')
	if err != nil {
		t.Fatal(err)
	}
	url = strings.TrimSpace(url)
	if !strings.HasPrefix(url, "http://127.0.0.1:") || !strings.HasSuffix(url, "/v1") {
		t.Fatalf("printed base URL %q", url)
	}
	req, _ := http.NewRequest(http.MethodPost, url+"/chat/completions",
		strings.NewReader(`{"model":"gpt-4o","messages":[{"role":"user","content":"tea?"}],"stream":true}`))
	req.Header.Set("Authorization", "Bearer k")
	req.Header.Set("Content-Type", "application/json")
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	body, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	for _, want := range []string{`"reasoning_content":"The "`, `"content":"# Br"`, `"finish_reason":"stop"`, "data: [DONE]"} {
		if !strings.Contains(string(body), want) {
			t.Errorf("stream lacks %q", want)
		}
	}
	if !strings.Contains(markdownAnswer, "| Tea |") || !strings.Contains(markdownAnswer, "```go") {
		t.Error("the markdown answer should have a table and a code block")
	}

	stop <- os.Interrupt
	select {
	case code := <-done:
		if code != 0 {
			t.Errorf("exit status %d", code)
		}
	case <-time.After(3 * time.Second):
		t.Fatal("did not stop on interrupt")
	}
}

func TestRefusesBadFlags(t *testing.T) {
	for _, args := range [][]string{{"-mode", "poetry"}, {"-runes", "0"}, {"-nope"}, {"-reasoning", "thoughts"}} {
		if code := run(args, io.Discard, io.Discard, nil); code != 2 {
			t.Errorf("%v: exit %d, want 2", args, code)
		}
	}
}

// TestHelpSaysItStaysInTheForeground: -h says what the command does and
// that it does not return until interrupted.
func TestHelpSaysItStaysInTheForeground(t *testing.T) {
	var help strings.Builder
	if code := run([]string{"-h"}, io.Discard, &help, nil); code != 2 {
		t.Fatalf("exit %d", code)
	}
	for _, want := range []string{"prints its base URL", "stays in the\nforeground until interrupted (Ctrl-C)", "-dps", "-mode"} {
		if !strings.Contains(help.String(), want) {
			t.Errorf("help lacks %q:\n%s", want, help.String())
		}
	}
}
