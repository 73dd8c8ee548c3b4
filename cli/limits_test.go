package cli

import (
	"strings"
	"testing"
	"time"

	"parley/api/apitest"
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
