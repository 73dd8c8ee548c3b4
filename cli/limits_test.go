package cli

import (
	"context"
	"io"
	"net/http"
	"net/http/httptest"
	"runtime"
	"strings"
	"testing"
	"time"

	"parley/api"
	"parley/api/apitest"
	"parley/conversation"
)

// TestAskObeysReplyTimeout: reply_timeout in the config bounds `parley ask`
// from start to end, streamed or not; a streamed reply keeps the text that
// arrived in time on stdout, and the reason is on stderr.
func TestAskObeysReplyTimeout(t *testing.T) {
	for _, tc := range []struct {
		args  []string
		reply apitest.Reply
		text  string
	}{
		{[]string{"ask", "-m", "gpt-4o", "q"}, apitest.Reply{Text: strings.Repeat("slow words ", 100), DeltaRunes: 4, Interval: 20 * time.Millisecond}, "slow words"},
		{[]string{"ask", "--no-stream", "-m", "gpt-4o", "q"}, apitest.Reply{Delay: 5 * time.Second}, ""},
	} {
		h := newHarness(t)
		h.writeConfig("reply_timeout = \"300ms\"\n")
		h.gw.Enqueue(tc.reply)
		start := time.Now()
		r := h.run(nil, tc.args...)
		r.mustCode(t, 1)
		if !strings.Contains(r.stderr, "reply_timeout") || !strings.Contains(r.stderr, "300ms") {
			t.Errorf("%v: stderr %q", tc.args, r.stderr)
		}
		if took := time.Since(start); took > 3*time.Second {
			t.Errorf("%v: took %v", tc.args, took)
		}
		if !strings.HasPrefix(r.stdout, tc.text) || (tc.text == "") != (r.stdout == "") {
			t.Errorf("%v: stdout %q, want the text that came in time", tc.args, r.stdout)
		}
	}
}

// TestAskReplyCap: a reply over max_reply_bytes, streamed or not, prints
// the text up to the cap on stdout, ends with one sentence naming the cap
// and the setting, exits 1 and keeps the text as a failed reply in the
// session.
func TestAskReplyCap(t *testing.T) {
	text := strings.Repeat("many words ", 20<<10) // 220 KiB
	for _, args := range [][]string{{"ask", "-m", "gpt-4o", "q"}, {"ask", "--no-stream", "-m", "gpt-4o", "q"}} {
		h := newHarness(t)
		h.writeConfig("max_reply_bytes = \"64KiB\"\n")
		h.gw.Enqueue(apitest.Reply{Text: text, DeltaRunes: 4096})
		r := h.run(nil, args...)
		r.mustCode(t, 1)
		if r.stdout != text[:64<<10]+"\n" {
			t.Fatalf("%v: stdout has %d bytes, want the first 64 KiB of the reply", args, len(r.stdout))
		}
		if r.stderr != "parley: The reply is larger than 66 KB (max_reply_bytes); the text so far is kept.\n" {
			t.Fatalf("%v: stderr %q", args, r.stderr)
		}
		list := h.sessions()
		if len(list) != 1 {
			t.Fatalf("%v: sessions %+v", args, list)
		}
		got, err := h.store().Load(context.Background(), list[0].ID)
		if err != nil {
			t.Fatal(err)
		}
		reply := got.Snapshot.Messages[1]
		if reply.State != conversation.StateFailed || reply.Text != text[:64<<10] || !strings.Contains(reply.Err, "max_reply_bytes") {
			t.Fatalf("%v: stored reply %v, %d bytes, %q", args, reply.State, len(reply.Text), reply.Err)
		}
	}
}

// TestAskEndlessReply: `ask --no-save` of a reply that never ends stops
// at the default cap (8 MiB) within seconds, with the memory it used
// measured: a small multiple of the cap, where a 100 MiB reply used to
// take 400 MB.
func TestAskEndlessReply(t *testing.T) {
	if testing.Short() {
		t.Skip("streams 8 MiB")
	}
	chunk := `data: {"choices":[{"index":0,"delta":{"content":"` + strings.Repeat("endless ", 512) + `"}}]}` + "\n\n"
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/event-stream")
		for r.Context().Err() == nil {
			if _, err := io.WriteString(w, chunk); err != nil {
				return
			}
		}
	}))
	defer srv.Close()
	h := newHarness(t)
	h.env["OPENAI_BASE_URL"] = srv.URL
	var r result
	start := time.Now()
	alloc := allocated(func() { r = h.run(nil, "ask", "--no-save", "-m", "gpt-4o", "q") })
	took := time.Since(start)
	r.mustCode(t, 1)
	if len(r.stdout) != api.DefaultMaxReplyBytes+1 || !strings.Contains(r.stderr, "larger than 8.4 MB (max_reply_bytes); the text so far is kept") {
		t.Fatalf("stdout %d bytes, stderr %q", len(r.stdout), r.stderr)
	}
	t.Logf("8 MiB cap: %v, %d MB allocated", took, alloc>>20)
	if alloc > 20*api.DefaultMaxReplyBytes {
		t.Fatalf("allocated %d MB for an 8 MiB cap", alloc>>20)
	}
}

// allocated runs f and returns the bytes it allocated on the heap.
func allocated(f func()) uint64 {
	var before, after runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&before)
	f()
	runtime.ReadMemStats(&after)
	return after.TotalAlloc - before.TotalAlloc
}
