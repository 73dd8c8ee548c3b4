package e2e

import (
	"strings"
	"testing"

	"parley/api/apitest"
)

// TestEmojiSequenceKeepsItsParts: in tmux (which measures text one code
// point at a time) a reply's family emoji shows as all three people, not
// cut to the first (issue 15 §4), and the lines after it stay in place.
func TestEmojiSequenceKeepsItsParts(t *testing.T) {
	t.Parallel()
	gw := apitest.New(t)
	gw.Enqueue(apitest.Reply{Text: "The family 👨\u200d👩\u200d👧 and a thumbs up 👍🏽 are here.\n\nNext line stays put.", DeltaRunes: 2})
	tm := startChat(t, gw)
	tm.send("emoji please")
	s := tm.waitText("Next line stays put.")
	var line string
	for _, l := range lines(s) {
		if strings.Contains(l, "The family") {
			line = l
		}
	}
	parts := strings.NewReplacer("\u200d", "", "\u200b", "").Replace(line)
	if !strings.Contains(parts, "👨👩👧") || !strings.Contains(parts, "👍🏽") {
		t.Fatalf("the emoji lost parts: %q\n%s", line, frame(s))
	}
	if !strings.Contains(line, "are here.") {
		t.Fatalf("the line was cut: %q", line)
	}
}
