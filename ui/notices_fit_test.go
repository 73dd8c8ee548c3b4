package ui

import (
	"strings"
	"testing"

	"parley/api"
)

// A notice gets as many lines as it takes inside its frame (up to three):
// one that needs two is not cut to one with "shows all".
func TestShortNoticeGetsItsLines(t *testing.T) {
	h := newHarness(t, 120, 30)
	text := "system prompt: Review the code tersely: bugs first, style last. (/system TEXT changes it, /system --clear removes it)"
	h.showNotice(text, toastInfo)
	h.send(struct{}{})
	flat := strings.Join(strings.Fields(h.screen()), " ")
	if !strings.Contains(flat, "/system --clear removes it)") || strings.Contains(flat, "shows all") {
		t.Fatalf("the notice is cut:\n%s", h.screen())
	}
}

// The notices pane fills its rows: what does not fit is a scroll away,
// and the last row says how much is below and which keys scroll; the
// pane takes ↑/↓, pgup/pgdn, home/end while it has the keys, and any
// other key goes to the composer.
func TestNoticesPaneScrollsToEveryLine(t *testing.T) {
	h := newHarness(t, 100, 30)
	long := strings.Repeat("a long start-up problem that goes on and on; ", 40) + "THE END."
	h.showNotice(long, toastWarn)
	h.showNotice("a short notice about something done", toastOK)
	h.key("f4")
	side := func() string {
		var rows []string
		for _, l := range strings.Split(h.screen(), "\n") {
			if i := strings.LastIndex(l, "│ "); i >= 0 && !strings.Contains(l, "Message gpt-4o") { // not the composer's box
				rows = append(rows, strings.TrimRight(l[i+len("│ "):], " │"))
			}
		}
		return strings.Join(rows, "\n")
	}
	view := side()
	flat := strings.Join(strings.Fields(view), " ")
	if !strings.Contains(flat, "a short notice about something done") || !strings.Contains(flat, "more lines · ↑/↓ pgup/pgdn") || strings.Contains(flat, "THE END.") {
		t.Fatalf("the pane does not show the newest first and say there is more:\n%s", view)
	}
	for _, row := range strings.Split(view, "\n") {
		if strings.Contains(row, "…") {
			t.Fatalf("a row is cut:\n%s", view)
		}
	}
	h.key("end")
	flat = strings.Join(strings.Fields(side()), " ")
	if !strings.Contains(flat, "THE END.") || !strings.Contains(flat, "↑ ") {
		t.Fatalf("end did not scroll to the oldest notice's last line:\n%s", side())
	}
	h.key("home")
	if flat = strings.Join(strings.Fields(side()), " "); !strings.Contains(flat, "a short notice about something done") {
		t.Fatalf("home did not scroll back:\n%s", side())
	}
	h.key("pgdown")
	h.key("pgup")
	if flat = strings.Join(strings.Fields(side()), " "); !strings.Contains(flat, "a short notice about something done") {
		t.Fatalf("pgdown then pgup did not come back:\n%s", side())
	}
	h.key("x") // not the pane's: it goes to the composer
	if h.draft() != "x" || !strings.Contains(strings.Join(strings.Fields(side()), " "), "f4 to scroll") {
		t.Fatalf("x went to %q; the pane says:\n%s", h.draft(), side())
	}
}

// Every word of a notice reaches the eye: at 80x24 the image copy's
// refusal is wrapped whole, its advice last; a notice longer than a third
// of the screen ends with where to read it whole, that pointer whole at
// 30, 40 and 80 columns; the transcript gives up the rows, and the
// composer and status bar stay whole below it.
func TestNoticeAdviceReachesTheEye(t *testing.T) {
	advice := "cannot copy the image: there is no graphical session (neither WAYLAND_DISPLAY nor DISPLAY is set); the terminal's clipboard (OSC 52), which parley uses for text, cannot carry images; copy the file's path instead"
	h := newHarness(t, 80, 24)
	h.showNotice(advice, toastWarn)
	h.send(struct{}{})
	flat := strings.Join(strings.Fields(h.screen()), " ")
	if !strings.Contains(flat, "copy the file's path instead (esc dismisses)") || strings.Contains(flat, "shows all") {
		t.Fatalf("the advice is cut at 80x24:\n%s", h.screen())
	}
	long := strings.Repeat("a gateway error that goes on and on; ", 30) + "THE ADVICE."
	for _, w := range []int{30, 40, 80} {
		h := newHarness(t, w, 24)
		h.showNotice(long, toastErr)
		h.send(struct{}{})
		rows := strings.Split(h.screen(), "\n")
		if len(rows) != 24 {
			t.Fatalf("%d columns: %d rows", w, len(rows))
		}
		notice := strings.Join(strings.Fields(strings.Join(rows[24-8:], " ")), " ")
		if !strings.HasSuffix(notice, "… f4 or /notices shows all") || !strings.Contains(rows[24-9], "╰") || strings.Contains(rows[24-10], "Message") == false {
			t.Fatalf("%d columns: the notice does not take 8 rows under the composer ending with the whole pointer:\n%s", w, h.screen())
		}
	}
}

// The model picker says why the gateway's list failed in its own rows, and
// the notices keep the sentence whole for when the picker has too few.
func TestModelListFailureIsKeptInTheNotices(t *testing.T) {
	h := newHarness(t, 80, 24, func(o *Options) {
		o.NewClient = func(string) (*api.Client, error) {
			return api.NewClient(api.ClientConfig{BaseURL: "http://127.0.0.1:1/v1", APIKey: "sk-test", UserAgent: "parley/test", Retry: api.RetryPolicy{MaxRetries: -1}})
		}
	})
	h.key("ctrl+o")
	h.wait("the failed list", func() bool { return strings.Contains(h.screen(), "not available") })
	h.key("esc")
	h.key("f4")
	if flat := strings.Join(strings.Fields(h.screen()), " "); !strings.Contains(flat, "the gateway's model list is not available") {
		t.Fatalf("the notices do not keep the picker's error:\n%s", h.screen())
	}
}
