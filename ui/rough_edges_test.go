package ui

import (
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/charmbracelet/x/ansi"

	"parley/api/apitest"
	"parley/config"
)

// The rough edges a new user hit (issue 15), each held by a test.

// /system sets, shows and (--clear) removes the system prompt; the status
// says when one is set, and the request carries exactly what is in force.
func TestSystemPromptSetAndClear(t *testing.T) {
	h := newHarness(t, 100, 24)
	h.typeText("/system be terse")
	h.key("enter")
	if h.eng.Conv().SystemPrompt() != "be terse" || !strings.Contains(h.screen(), "⚙ system prompt") {
		t.Fatalf("system prompt %q:\n%s", h.eng.Conv().SystemPrompt(), h.screen())
	}
	h.typeText("/system --clear")
	h.key("enter")
	if h.eng.Conv().SystemPrompt() != "" || strings.Contains(h.screen(), "⚙ system prompt") || !strings.Contains(h.screen(), "system prompt removed") {
		t.Fatalf("after --clear: %q:\n%s", h.eng.Conv().SystemPrompt(), h.screen())
	}
	h.srv.Enqueue(apitest.Reply{Text: "ok"})
	h.typeText("hi")
	h.key("enter")
	h.wait("the reply", func() bool { return !h.streaming() })
	if msgs := h.srv.Requests()[0].Chat.Messages; len(msgs) != 1 || msgs[0].Role != "user" {
		t.Fatalf("the request carries %+v", msgs)
	}
}

// /model NAME with a name the gateway does not list warns at once, and
// still switches (gateways serve models they do not list).
func TestModelNameTheGatewayDoesNotListWarns(t *testing.T) {
	h := newHarness(t, 120, 24)
	h.typeText("/model gpt-4o-typo")
	h.key("enter")
	if h.model() != "gpt-4o-typo" {
		t.Fatalf("model %q", h.model())
	}
	h.wait("the warning", func() bool { return strings.Contains(h.screen(), "does not list gpt-4o-typo") })
	// A listed one says nothing of the kind.
	h.key("esc")
	h.typeText("/model gpt-4o")
	h.key("enter")
	// The gateway's list came with the first check: this one is decided
	// as the command runs, and a warning would be on screen now.
	if strings.Contains(h.screen(), "does not list") {
		t.Fatalf("a listed model was warned about:\n%s", h.screen())
	}
}

// One key clears the whole message (text and images); pressed again on
// the empty composer it brings it back. A message taller than the box
// says which line the cursor is on and how many there are.
func TestComposerClearsAllAndCountsLines(t *testing.T) {
	h := newHarness(t, 80, 30)
	for i := range 12 {
		if i > 0 {
			h.key("ctrl+j")
		}
		h.typeText("line " + itoa(i+1))
	}
	if !strings.Contains(h.screen(), "line 12 of 12") {
		t.Fatalf("no line count on a 12-line message:\n%s", h.screen())
	}
	text := h.draft()
	h.key("alt+k")
	if h.draft() != "" || len(h.attached()) != 0 || !strings.Contains(h.screen(), "again brings it back") {
		t.Fatalf("not cleared: %q\n%s", h.draft(), h.screen())
	}
	h.key("alt+k")
	if h.draft() != text {
		t.Fatalf("not brought back: %q", h.draft())
	}
	// Something typed after a clear is not replaced by the old message.
	h.key("alt+k")
	h.typeText("new")
	h.key("alt+k")
	h.key("alt+k")
	if h.draft() != "new" {
		t.Fatalf("a later message was replaced by the cleared one: %q", h.draft())
	}
}

// Scrolled up, the arrows of an empty composer move the view one line (as
// the README says) and the hint line says they scroll, not edit.
func TestArrowsScrollLineByLineWhenScrolledUp(t *testing.T) {
	h := newHarness(t, 80, 16)
	var reply strings.Builder
	for i := range 40 {
		fmt.Fprintf(&reply, "line %02d of the answer\n\n", i)
	}
	h.srv.Enqueue(apitest.Reply{Text: reply.String()})
	h.typeText("long please")
	h.key("enter")
	h.wait("the reply", func() bool { return !h.streaming() })
	if !strings.Contains(h.screen(), "↑ edit") {
		t.Fatalf("at the bottom the hint offers edit:\n%s", h.screen())
	}
	h.key("pgup")
	renderAll(h.m)
	if strings.Contains(h.screen(), "↑ edit") || !strings.Contains(h.screen(), "↑/↓ scroll") {
		t.Fatalf("scrolled up, the hint still offers edit:\n%s", h.screen())
	}
	before := strings.Split(ansi.Strip(h.transcriptView()), "\n")
	h.key("down")
	renderAll(h.m)
	down := strings.Split(ansi.Strip(h.transcriptView()), "\n")
	if h.editing() || len(down) != len(before) || !slices.Equal(down[:len(down)-1], before[1:]) {
		t.Fatalf("down did not move the view one line (editing %v):\nbefore\n%s\nafter\n%s",
			h.editing(), strings.Join(before, "\n"), strings.Join(down, "\n"))
	}
	h.key("up")
	renderAll(h.m)
	up := strings.Split(ansi.Strip(h.transcriptView()), "\n")
	if h.editing() || !slices.Equal(up[1:], down[:len(down)-1]) || !slices.Equal(up, before) {
		t.Fatalf("up did not move the view one line back (editing %v):\nbefore\n%s\nafter\n%s",
			h.editing(), strings.Join(down, "\n"), strings.Join(up, "\n"))
	}
}

// The notices pane shows every message whole at any width: no line ends
// cut with "…"; what does not fit is a scroll away (the last rows say how
// much, TestNoticesPaneScrollsToEveryLine).
func TestNoticesPaneWrapsEveryMessageWhole(t *testing.T) {
	for _, size := range [][2]int{{100, 30}, {200, 50}, {40, 12}} {
		h := newHarness(t, size[0], size[1])
		long := "the image could not be attached (neither a PNG nor a JPEG nor a WEBP nor a GIF was found in its first bytes); attach the image file itself, or paste a screenshot with ctrl+v"
		for range 6 {
			h.showNotice(long, toastWarn)
		}
		h.showNotice("short one", toastInfo)
		h.key("f4")
		view := h.region(h.lay().Side)
		if !strings.HasPrefix(strings.TrimLeft(view, "│╭─ "), "Notices") {
			t.Fatalf("%dx%d: f4 opened no notices pane:\n%s", size[0], size[1], h.screen())
		}
		if strings.Contains(view, "…") {
			t.Errorf("%dx%d: a line is cut:\n%s", size[0], size[1], view)
		}
		flat := strings.Join(strings.Fields(view), " ")
		flat = strings.ReplaceAll(flat, "│ ", "")
		if !strings.Contains(flat, "short one") || !strings.Contains(flat, "paste a screenshot with ctrl+v") && size[1] > 12 {
			t.Errorf("%dx%d: a message is not whole:\n%s", size[0], size[1], view)
		}
	}
}

// The chips show the format that is sent (a PNG sent as a JPEG says so),
// the newest chip is always in view however many there are, and the same
// file attached twice is said, not attached again.
func TestChipsShowTheNewestAndRefuseTheSameFileTwice(t *testing.T) {
	h := newHarness(t, 120, 30)
	var paths []string
	for i := range 5 {
		dir := t.TempDir()
		paths = append(paths, pngFile(t, dir, 20+i, 20))
	}
	for i, p := range paths {
		h.typeText("/attach " + p)
		h.key("enter")
		h.wait("the attachment", func() bool { return len(h.attached()) == i+1 })
		if scr := h.screen(); !strings.Contains(scr, itoa(i+1)+" ▣ shot.png · "+itoa(20+i)+"×20 PNG") {
			t.Fatalf("the newest chip (%d) is not in view:\n%s", i+1, scr)
		}
	}
	if !strings.Contains(h.screen(), "1–3 not shown: 3 more") {
		t.Fatalf("the earlier chips are not counted:\n%s", h.screen())
	}
	h.typeText("/attach " + paths[4])
	h.key("enter")
	h.wait("the refusal", func() bool { return strings.Contains(h.screen(), "shot.png is attached already") })
	if len(h.attached()) != 5 {
		t.Fatalf("%d attachments", len(h.attached()))
	}
}

// Messages whose reply failed are left out of later requests; the chat
// says so once a conversation, not at every send.
func TestDroppedMessagesAreSaidOnce(t *testing.T) {
	h := newHarness(t, 140, 30)
	h.srv.Enqueue(apitest.Reply{Status: 400, ErrorMessage: "nope"})
	h.typeText("first")
	h.key("enter")
	h.wait("the failure", func() bool { return !h.streaming() })
	said, seen := 0, 0 // seen: the last notice looked at
	for _, q := range []string{"second", "third"} {
		h.srv.Enqueue(apitest.Reply{Text: "ok"})
		h.typeText(q)
		h.key("enter")
		h.wait("the reply", func() bool { return !h.streaming() })
		for _, n := range h.said() {
			if n.Gen > seen && strings.Contains(n.Text, "not sent again") {
				said++
			}
			seen = max(seen, n.Gen)
		}
	}
	if said != 1 {
		t.Fatalf("the dropped message was said %d times", said)
	}
	reqs := h.srv.RequestsTo("/chat/completions")
	if last := reqs[len(reqs)-1].Chat.Messages; len(last) != 3 || last[0].Content.PlainText() != "second" {
		t.Fatalf("the last request carries %d messages: %+v", len(last), last)
	}
}

// On a short terminal the command list takes the transcript's place (one
// row beside it would be of no use) and shows how many commands there are.
func TestCommandListOnAShortTerminal(t *testing.T) {
	h := newHarness(t, 40, 12)
	h.typeText("/")
	scr := h.screen()
	if !strings.Contains(scr, "Commands · ") || !strings.Contains(scr, "/model") || !strings.Contains(scr, "/theme") {
		t.Fatalf("the command list at 40x12:\n%s", scr)
	}
	checkFrame(t, h.m, 40, 12)
	h.key("esc")
	if strings.Contains(h.screen(), "Commands") {
		t.Fatalf("esc left the list open:\n%s", h.screen())
	}
}

// /export works in every mode: a chat that keeps no history (the demo,
// --no-save) exports what it holds; without a path the file goes to the
// export folder (Documents/parley) and the notice says where.
func TestExportWithoutHistoryAndWithoutAPath(t *testing.T) {
	home := t.TempDir()
	docs := filepath.Join(home, "Documents")
	if err := os.MkdirAll(docs, 0o700); err != nil {
		t.Fatal(err)
	}
	env := map[string]string{"HOME": home, "XDG_CONFIG_HOME": t.TempDir()}
	h := newHarness(t, 120, 30, withHistory(History{Off: "--no-save"}), func(o *Options) {
		o.Getenv = func(k string) string { return env[k] }
	})
	replyWith(t, h, "an answer only in memory")
	h.typeText("/export")
	h.key("enter")
	h.wait("the export", func() bool { return strings.Contains(h.screen(), "exported to ~/Documents/parley/") })
	files, _ := filepath.Glob(filepath.Join(docs, "parley", "*.md"))
	if len(files) != 1 {
		t.Fatalf("exported files %v", files)
	}
	b, err := os.ReadFile(files[0])
	if err != nil || !strings.Contains(string(b), "an answer only in memory") {
		t.Fatalf("export: %v\n%s", err, b)
	}
	if st, _ := os.Stat(files[0]); st.Mode().Perm() != 0o600 {
		t.Fatalf("the export is %v", st.Mode().Perm())
	}
	// The same again is refused: an export never replaces a file.
	h.key("esc")
	h.typeText("/export " + files[0])
	h.key("enter")
	h.wait("the refusal", func() bool { return strings.Contains(h.screen(), "exists already and was left alone") })
}

// /image --n is bounded by what the model makes per request: "from 1 to
// 4" for a model that makes at most 4, and the line stays in the composer.
func TestImageCountBoundedByTheModel(t *testing.T) {
	four := 4
	cfg := &config.Config{Models: []config.ModelConfig{{Name: "four-at-most", ImageGeneration: boolPtr(true), MaxN: &four},
		{Name: "unsure-images", ImageGeneration: boolPtr(true)}}}
	h := newHarness(t, 120, 40, func(o *Options) { o.Config = cfg })
	h.typeText("/image a fox --n 9 --model four-at-most")
	h.key("enter")
	h.wait("the refusal", func() bool { return strings.Contains(h.screen(), "--n must be from 1 to 4, not 9") })
	if h.draft() != "/image a fox --n 9 --model four-at-most" {
		t.Fatalf("the line was lost: %q", h.draft())
	}
	// A model whose max_n is not known makes 1, as `parley image -n`
	// and Plan hold it to: more is refused saying to set max_n.
	h.key("ctrl+u")
	h.typeText("/image a fox --n 5 --model unsure-images")
	h.key("enter")
	h.wait("the refusal of an unknown count", func() bool {
		s := strings.Join(strings.Fields(h.screen()), " ")
		return strings.Contains(s, "--n must be 1, not 5") && strings.Contains(s, "set max_n = 5")
	})
}

func boolPtr(b bool) *bool { return &b }

// The image pane beside the transcript (140x40) names its keys with
// words: a line too narrow for all leaves some out and points to f1,
// whose help lists every key of the pane.
func TestSidePaneHintsHaveWords(t *testing.T) {
	h, dir := imageHarness(t, 140, 40)
	makeTwo(t, h, dir)
	h.key("alt+i")
	if _, ok := h.m.imagePaneFocused(); !ok || h.lay().SideFull {
		t.Fatal("no image pane beside the transcript")
	}
	side := h.lay().Side
	rows := strings.Split(h.screen(), "\n")
	hint := strings.TrimSpace(ansi.Cut(rows[side.Y+side.H-1], side.X, side.X+side.W))
	if strings.Contains(hint, "a o c") || !strings.Contains(hint, "a attach") || !strings.Contains(hint, "esc back") {
		t.Fatalf("the pane's hint is %q:\n%s", hint, h.screen())
	}
	if !strings.Contains(hint, "e edit") && !strings.Contains(hint, "f1 ") {
		t.Fatalf("the hint %q leaves keys out without pointing to the help", hint)
	}
	h.key("f1")
	// Page through the whole help, keeping every screen.
	var seen strings.Builder
	for range 40 {
		seen.WriteString(h.screen())
		h.key("pgdown")
	}
	for _, want := range []string{"Image pane", "copy the image", "save a copy", "edit it with /edit"} {
		if !strings.Contains(seen.String(), want) {
			t.Fatalf("the help lacks %q:\n%s", want, seen.String())
		}
	}
}
