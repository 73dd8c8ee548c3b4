package transcript

import (
	"strings"
	"testing"

	"parley/conversation"
)

func TestRetryHelps(t *testing.T) {
	failed := func(err string) conversation.Message {
		m := replyMsg(2, "")
		m.State, m.Err = conversation.StateFailed, err
		return m
	}
	for _, c := range []struct {
		err  string
		want bool
	}{
		{"the gateway answered 500 Internal Server Error: boom; the gateway or the model is having trouble: try again later", true},
		{"The gateway answered 503 Service Unavailable: the upstream said the gateway answered 400", true},
		{"the gateway answered 429 Too Many Requests after 3 attempts: slow down (rate_limit); try again after 09:28:07", true},
		{"the gateway answered 408 Request Timeout", true},
		{"the gateway answered 409 Conflict", true},
		{"the gateway reported an error during the reply: overloaded (server_error); the reply may be incomplete: try again", true},
		{"Post \"https://example.com/v1/chat/completions\": dial tcp: connection refused", true},
		{"", true},
		{"the gateway answered 400 Bad Request: Unsupported parameter: 'temperature' (unsupported_parameter); /set temperature --clear to send it no more", false},
		{"The gateway answered 400 Bad Request: This model's maximum context length is 8192 tokens (context_length_exceeded); the conversation is too long for the model: start a new one or remove attachments", false},
		{"the gateway answered 401 Unauthorized: bad key; check the API key in OPENAI_API_KEY", false},
		{"the gateway answered 403 Forbidden", false},
		{"the gateway answered 404 Not Found: no such model; check the model name", false},
		{"the gateway answered 413 Request Entity Too Large", false},
		{"the gateway answered 422 Unprocessable Entity", false},
		{"the gateway answered 429 Too Many Requests: You exceeded your current quota (insufficient_quota); the account is out of credit or quota, so check the plan and billing with the provider (retrying will not help)", false},
		{"the gateway answered 402 Payment Required", false},
	} {
		if got := RetryHelps(failed(c.err)); got != c.want {
			t.Errorf("RetryHelps(failed %q) = %v, want %v", c.err, got, c.want)
		}
	}
	// A failed image turn is the same request again: the key is offered
	// where that can help (408, 409, 429, a 5xx, a full image_dir), not
	// after a 400 (a refused size), 401, 403, 413 or an exhausted quota.
	image := failed("")
	image.Role = conversation.RoleImages
	for _, c := range []struct {
		err  string
		want bool
	}{
		{"the gateway answered 400 Bad Request: Invalid value: '2000x2000' (invalid_value); the gateway rejected the request: check that the model supports what was asked (images, size, n)", false},
		{"the gateway answered 401 Unauthorized: bad key; check the API key in OPENAI_API_KEY", false},
		{"the gateway answered 403 Forbidden", false},
		{"the gateway answered 429 Too Many Requests: quota; the account is out of credit or quota, so check the plan and billing with the provider (retrying will not help)", false},
		{"the gateway answered 413 Request Entity Too Large", false},
		{"the gateway answered 408 Request Timeout", true},
		{"the gateway answered 429 Too Many Requests after 3 attempts: slow down (rate_limit); try again after 09:28:07", true},
		{"the gateway answered 502 Bad Gateway", true},
		{"cannot save the image: write /tmp/img/a.png: no space left on device", true},
	} {
		image.Err = c.err
		if got := RetryHelps(image); got != c.want {
			t.Errorf("RetryHelps(failed image turn %q) = %v, want %v", c.err, got, c.want)
		}
	}
	interrupted := replyMsg(2, "half")
	interrupted.State = conversation.StateInterrupted
	if !RetryHelps(interrupted) {
		t.Error("an interrupted reply can be regenerated")
	}
	if RetryHelps(replyMsg(2, "done")) || RetryHelps(userMsg(1, "q")) {
		t.Error("a finished reply or a user message has nothing to retry")
	}
}

// hintIn reports whether item i shows a retry or regenerate hint.
func hintIn(tr *Transcript, i int) bool {
	s := strings.Join(plainItem(tr, i), "\n")
	return strings.Contains(s, "ctrl+r to retry") || strings.Contains(s, "ctrl+r to regenerate")
}

// TestRetryHintOnlyOnTheLastTurn: the hint shows under a failed or
// interrupted reply only while it is the last message; it goes when a turn
// follows and comes back when that turn is removed; never under a refusal
// a retry would get again.
func TestRetryHintOnlyOnTheLastTurn(t *testing.T) {
	for _, st := range []conversation.State{conversation.StateFailed, conversation.StateInterrupted} {
		tr := newTest(t, 70, 30)
		tr.Append(userMsg(1, "q"))
		tr.Append(streamingMsg(2))
		tr.AppendDelta(2, "partial")
		m := streamingMsg(2)
		m.Text, m.State, m.Err = "partial", st, "the gateway answered 502 Bad Gateway"
		tr.Update(m)
		if !hintIn(tr, 1) {
			t.Fatalf("%v: the last reply has no hint:\n%s", st, strings.Join(plainItem(tr, 1), "\n"))
		}
		tr.Append(userMsg(3, "next"))
		if hintIn(tr, 1) {
			t.Fatalf("%v: an older reply still invites a retry:\n%s", st, strings.Join(plainItem(tr, 1), "\n"))
		}
		checkThinkGeometry(t, tr)
		tr.Append(streamingMsg(4))
		f := streamingMsg(4)
		f.State, f.Err = conversation.StateFailed, "the gateway answered 500 Internal Server Error"
		tr.Update(f)
		if hintIn(tr, 1) || !hintIn(tr, 3) {
			t.Fatalf("%v: the hint is not on the last reply only", st)
		}
		tr.Remove([]int{3, 4})
		if !hintIn(tr, 1) {
			t.Fatalf("%v: the reply that is last again has no hint", st)
		}
		checkThinkGeometry(t, tr)
	}

	// A history reopened with failed replies: only the last one, and only
	// when a retry can help.
	failed := func(id int, err string) conversation.Message {
		m := replyMsg(id, "")
		m.State, m.Err = conversation.StateFailed, err
		return m
	}
	tr := newTest(t, 70, 30)
	tr.Reset([]conversation.Message{
		userMsg(1, "a"), failed(2, "the gateway answered 500 Internal Server Error"),
		userMsg(3, "b"), failed(4, "the gateway answered 400 Bad Request: bad image; the gateway rejected the request"),
	})
	if hintIn(tr, 1) || hintIn(tr, 3) {
		t.Fatal("reopened: a hint under an older reply or a hopeless refusal")
	}
	if s := strings.Join(plainItem(tr, 3), "\n"); !strings.Contains(s, "✗ the gateway answered 400 Bad Request") {
		t.Fatalf("the refusal itself is not shown:\n%s", s)
	}
	tr.Remove([]int{3, 4})
	if !hintIn(tr, 1) {
		t.Fatal("after removing the last turn, the failed reply before it has no hint")
	}
	checkThinkGeometry(t, tr)
}
