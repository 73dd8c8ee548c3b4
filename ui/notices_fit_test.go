package ui

import (
	"strings"
	"testing"
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
