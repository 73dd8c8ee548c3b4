package ui

import (
	"strings"
	"testing"
	"time"

	"parley/api/apitest"
)

// Two replies to one question, the second failed before any text: the
// branch list tells them apart by their first words (or how a reply with
// none ended), the model that answered and when, not by "reply:" and a
// place that both share (issue 26 §3).
func TestBranchListTellsRepliesApart(t *testing.T) {
	h := newHarness(t, 120, 30)
	h.ask("question", "answer one")
	h.clock.advance(42 * time.Second)
	h.srv.Enqueue(apitest.Reply{Status: 400, Body: `{"error":{"message":"bad request","type":"invalid_request_error"}}`})
	h.key("ctrl+r")
	h.wait("the failed reply", func() bool { return !h.streaming() })
	h.quiet()
	h.typeText("/branches")
	h.key("enter")
	if h.m.layerName() != "branches" {
		t.Fatalf("layer %q:\n%s", h.m.layerName(), h.screen())
	}
	scr := h.screen()
	rows := map[string]string{}
	for _, l := range strings.Split(scr, "\n") {
		for _, title := range []string{"1. reply: answer one", "2. reply: (failed before any text)"} {
			if strings.Contains(l, title) {
				rows[title] = l
			}
		}
	}
	if len(rows) != 2 {
		t.Fatalf("the branch list does not name both replies by their words:\n%s", scr)
	}
	one, two := rows["1. reply: answer one"], rows["2. reply: (failed before any text)"]
	for _, row := range []string{one, two} {
		if !strings.Contains(row, "gpt-4o · ") || !strings.Contains(row, "at message 2 of 2") {
			t.Fatalf("a row does not say the model, the time and where:\n%s", scr)
		}
	}
	if timeOf(one) == timeOf(two) {
		t.Fatalf("both rows give the same time:\n%s", scr)
	}
}

// timeOf is the time a branch row gives, between the model and the place.
func timeOf(row string) string {
	_, after, _ := strings.Cut(row, "gpt-4o · ")
	when, _, _ := strings.Cut(after, " · at message")
	return when
}

// A long Markdown reply: its row is plain words (no "#", no "**", no
// escaped line breaks), cut to leave room for the model, the time and the
// place, which always show, and the list uses a wide screen's width.
func TestBranchListRowIsPlainWordsAndKeepsTheDetail(t *testing.T) {
	h := newHarness(t, 200, 30)
	long := "# Brewing a good cup of tea\n\nTea rewards a little **care**. " + strings.Repeat("Here is how to steep it well. ", 20)
	h.ask("question", long)
	h.clock.advance(42 * time.Second)
	h.srv.Enqueue(apitest.Reply{Text: long})
	h.key("ctrl+r")
	h.wait("the second reply", func() bool { return !h.streaming() })
	h.quiet()
	h.typeText("/branches")
	h.key("enter")
	scr := h.screen()
	var rows []string
	for _, l := range strings.Split(scr, "\n") {
		if strings.Contains(l, ". reply: ") {
			rows = append(rows, l)
		}
	}
	if len(rows) != 2 {
		t.Fatalf("want two reply rows:\n%s", scr)
	}
	for _, row := range rows {
		if !strings.Contains(row, "reply: Brewing a good cup of tea Tea rewards a little care. Here is") {
			t.Fatalf("the row is not the reply's first words as plain text:\n%s", scr)
		}
		if strings.Contains(row, `\n`) || strings.Contains(row, "#") || strings.Contains(row, "**") {
			t.Fatalf("the row shows Markdown marks or escaped line breaks:\n%s", scr)
		}
		if !strings.Contains(row, "gpt-4o · ") || !strings.Contains(row, "at message 2 of 2") {
			t.Fatalf("a long reply's row does not say the model, the time and where:\n%s", scr)
		}
		if w := len([]rune(strings.TrimSpace(row))); w <= 100 {
			t.Fatalf("the list is %d columns wide on a 200-column screen:\n%s", w, scr)
		}
	}
	if timeOf(rows[0]) == timeOf(rows[1]) {
		t.Fatalf("both rows give the same time:\n%s", scr)
	}
}
