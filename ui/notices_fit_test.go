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

// The notices pane fills its rows: a notice that does not fit whole shows
// what fits, and the last rows say, whole, that there is more; no row is
// left empty while there is more to read.
func TestNoticesPaneFillsItsRows(t *testing.T) {
	h := newHarness(t, 100, 30)
	long := strings.Repeat("a long start-up problem that goes on and on; ", 40)
	h.showNotice(long, toastWarn)
	for range 3 {
		h.showNotice("a short notice about something done", toastOK)
	}
	h.key("f4")
	box := h.region(h.lay().Side)
	if !strings.HasPrefix(strings.TrimLeft(box, "│╭─ "), "Notices") {
		t.Fatalf("f4 opened no notices pane:\n%s", h.screen())
	}
	rows := strings.Split(box, "\n")
	empty := 0
	for _, r := range rows {
		if strings.TrimSpace(strings.TrimPrefix(r, "│")) == "" {
			empty++
		}
	}
	view := strings.Join(rows, "\n")
	if empty > 4 { // the blank rows between the notices
		t.Errorf("%d empty rows while a notice was left out:\n%s", empty, view)
	}
	flat := strings.Join(strings.Fields(strings.ReplaceAll(view, "│", "")), " ")
	if !strings.Contains(flat, "… more of it in a taller pane") || !strings.Contains(flat, "a long start-up problem") {
		t.Errorf("the pane does not show what fits and say there is more:\n%s", view)
	}
}
