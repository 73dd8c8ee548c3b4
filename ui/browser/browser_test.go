package browser

import (
	"context"
	"fmt"
	"strings"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"
)

// The browser lists every session, newest first, untitled ones as
// "(untitled)", the open one marked; enter opens the highlighted one.
func TestListAndOpen(t *testing.T) {
	st := openStore(t)
	first := addSession(t, st, "Lighthouses", "tell me about lighthouses", "They guide ships.")
	untitledID := addSession(t, st, "", "what is this", "A **bold** claim with `code` and [a link](http://x).")
	newest := addSession(t, st, "Zeppelins", "zeppelins?", "# Airships\n\n- rigid\n- big")
	b := open(t, st, 100, 20, Options{Current: first})
	v := plain(b.View())
	for _, want := range []string{"Sessions · 3", "Zeppelins", "(untitled)", "Lighthouses · open", "Airships rigid big", "A bold claim with code and a link"} {
		if !strings.Contains(v, want) {
			t.Errorf("the view lacks %q:\n%s", want, v)
		}
	}
	for _, raw := range []string{"**", "`", "](", "# Airships", "untitled)  untitled"} {
		if strings.Contains(v, raw) {
			t.Errorf("the view shows %q:\n%s", raw, v)
		}
	}
	if res := press(t, b, enter); res != (Result{Action: Open, SessionID: newest}) {
		t.Fatalf("enter on the newest: %+v", res)
	}
	press(t, b, down)
	if res := press(t, b, enter); res != (Result{Action: Open, SessionID: untitledID}) {
		t.Fatalf("enter on the second: %+v", res)
	}
	if res := press(t, b, ctrlL); res.Action != NewConversation {
		t.Fatalf("ctrl+l: %+v", res)
	}
	if res := press(t, b, esc); res.Action != Close {
		t.Fatalf("esc: %+v", res)
	}
}

// Typing filters the titles with the one matcher and searches every
// message; enter on a message opens its session at it.
func TestSearchOpensAtMessage(t *testing.T) {
	st := openStore(t)
	old := addSession(t, st, "Airships", "tell me about airships", "The zeppelin hangar was enormous.")
	addSession(t, st, "Other", "something else", "entirely")
	b := open(t, st, 100, 20, Options{})
	typeText(t, b, "zeppel")
	v := plain(b.View())
	if !strings.Contains(v, "Messages with “zeppel”") || !strings.Contains(v, "The zeppelin hangar was enormous.") {
		t.Fatalf("no search hit:\n%s", v)
	}
	if strings.Contains(v, "Other") {
		t.Fatalf("a session whose title does not match is shown:\n%s", v)
	}
	res := press(t, b, enter)
	if res.Action != Open || res.SessionID != old || res.Jump != 2 {
		t.Fatalf("enter on the hit: %+v", res)
	}
	// The title filter is fuzzy: letters in order.
	press(t, b, ctrlU)
	typeText(t, b, "ashp")
	if v := plain(b.View()); !strings.Contains(v, "Airships") || strings.Contains(v, "Other") {
		t.Fatalf("fuzzy title filter:\n%s", v)
	}
}

// The filter is a ui/lineedit: the readline keys edit it, and ctrl+e is
// the end of the line, not rename.
func TestFilterReadlineKeys(t *testing.T) {
	st := openStore(t)
	addSession(t, st, "One", "q", "a")
	b := open(t, st, 80, 12, Options{})
	typeText(t, b, "hello big world")
	press(t, b, ctrlW)
	if got := b.filter.Value(); got != "hello big " {
		t.Fatalf("ctrl+w: %q", got)
	}
	press(t, b, ctrlA)
	typeText(t, b, ">")
	press(t, b, ctrlE)
	typeText(t, b, "<")
	if got := b.filter.Value(); got != ">hello big <" || b.mode != browsing {
		t.Fatalf("ctrl+a, ctrl+e: %q (mode %d)", got, b.mode)
	}
	press(t, b, ctrlU)
	if got := b.filter.Value(); got != "" {
		t.Fatalf("ctrl+u: %q", got)
	}
	b.update(tea.PasteMsg{Content: "multi\nline\x1b[2J paste"})
	if got := b.filter.Value(); got != "multi line[2J paste" {
		t.Fatalf("paste: %q", got)
	}
}

// ctrl+r renames the highlighted session in the store; ctrl+x deletes it
// after a y; the root hears of both.
func TestRenameAndDelete(t *testing.T) {
	st := openStore(t)
	id := addSession(t, st, "Old title", "q", "a")
	keep := addSession(t, st, "Keep me", "q2", "a2")
	b := open(t, st, 100, 20, Options{})
	press(t, b, down) // "Old title" is the older one
	press(t, b, ctrlR)
	if v := plain(b.View()); !strings.Contains(v, "new title: Old title") || !strings.Contains(v, "enter save") {
		t.Fatalf("rename mode:\n%s", v)
	}
	press(t, b, ctrlU)
	press(t, b, enter)
	if v := plain(b.View()); !strings.Contains(v, "a session needs a title") {
		t.Fatalf("an empty title is not refused:\n%s", v)
	}
	typeText(t, b, "New ")
	b.update(tea.PasteMsg{Content: "\x1b]0;x\x07title"}) // pasted controls are dropped
	res := press(t, b, enter)
	if res != (Result{Action: Renamed, SessionID: id, Title: "New ]0;xtitle"}) {
		t.Fatalf("rename: %+v", res)
	}
	if m, err := st.Get(context.Background(), id); err != nil || m.Title != "New ]0;xtitle" {
		t.Fatalf("stored title %q (%v)", m.Title, err)
	}
	if v := plain(b.View()); !strings.Contains(v, "New ]0;xtitle") {
		t.Fatalf("the list was not read again:\n%s", v)
	}
	// esc in rename mode keeps the title.
	press(t, b, ctrlR)
	typeText(t, b, "zzz")
	press(t, b, esc)
	if b.mode != browsing {
		t.Fatal("esc did not leave rename mode")
	}
	// Delete asks first; any key but y keeps the session.
	if !b.list.Select("s/" + id) {
		t.Fatal("the renamed session is not listed")
	}
	press(t, b, ctrlX)
	if v := plain(b.View()); !strings.Contains(v, "delete “New ]0;xtitle” and its messages?") || !strings.Contains(v, "y delete") {
		t.Fatalf("no question:\n%s", v)
	}
	press(t, b, "n")
	if n, _ := st.Count(context.Background()); n != 2 {
		t.Fatalf("n deleted: %d sessions", n)
	}
	press(t, b, ctrlX)
	res = press(t, b, "y")
	if res != (Result{Action: Deleted, SessionID: id, Title: "New ]0;xtitle"}) {
		t.Fatalf("delete: %+v", res)
	}
	if n, _ := st.Count(context.Background()); n != 1 {
		t.Fatalf("after y: %d sessions", n)
	}
	if v := plain(b.View()); !strings.Contains(v, "Sessions · 1") {
		t.Fatalf("the list was not read again:\n%s", v)
	}
	if s, _ := b.list.Selected(); s.meta.ID != keep {
		t.Fatalf("selected %q after the delete", s.meta.ID)
	}
}

// A search starts when typing rests (the debounce): keys typed before do
// not start one, a key typed while one runs cancels it, and esc cancels
// the running one, so nothing keeps working after the browser closes.
func TestSearchDebounceAndCancel(t *testing.T) {
	st := newSlowStore(t)
	addSession(t, st.Store, "One", "q", "a")
	b := open(t, st, 80, 12, Options{Debounce: time.Hour})
	var ticks []tea.Cmd
	for _, r := range "abc" {
		_, cmd := b.update(key(t, string(r)))
		ticks = append(ticks, cmd)
	}
	if ticks[0] != nil {
		t.Fatal("one letter started a search")
	}
	// The debounce ticks of "ab" and "abc": only the last one searches.
	stale := searchDueMsg{b: b, gen: b.searchGen - 1}
	if _, cmd := b.update(stale); cmd != nil {
		t.Fatal("the debounce of an older query started a search")
	}
	_, run := b.update(searchDueMsg{b: b, gen: b.searchGen})
	if run == nil {
		t.Fatal("the debounce of the last query started nothing")
	}
	if v := plain(b.View()); !strings.Contains(v, "searching every message…") {
		t.Fatalf("no searching note:\n%s", v)
	}
	done := make(chan tea.Msg, 1)
	go func() { done <- run() }()
	ctx := <-st.started
	b.update(key(t, "d")) // typing cancels the running query
	select {
	case <-ctx.Done():
	case <-time.After(5 * time.Second):
		t.Fatal("typing did not cancel the running query")
	}
	if res, _ := b.update(<-done); res.Action != None || b.err != "" {
		t.Fatalf("the cancelled query's answer was taken: %+v, err %q", res, b.err)
	}
	// esc cancels the running query too.
	_, run = b.update(searchDueMsg{b: b, gen: b.searchGen})
	go func() { done <- run() }()
	ctx = <-st.started
	if res := press(t, b, esc); res.Action != Close {
		t.Fatalf("esc: %+v", res)
	}
	select {
	case <-ctx.Done():
	case <-time.After(5 * time.Second):
		t.Fatal("esc did not cancel the running query")
	}
	<-done
	// A message of another browser is not this one's.
	other, _ := New(testCtx(t), Options{Store: st})
	if _, cmd := b.update(searchDueMsg{b: other, gen: b.searchGen}); cmd != nil {
		t.Fatal("another browser's debounce started a search here")
	}
}

// A search that runs out of time says so instead of "nothing matches".
func TestSearchTimeout(t *testing.T) {
	st := openStore(t)
	addSession(t, st, "One", "q", "a")
	b := open(t, st, 80, 12, Options{SearchTimeout: time.Nanosecond})
	typeText(t, b, "qq")
	v := plain(b.View())
	if !strings.Contains(v, "search took too long; try more specific words") || strings.Contains(v, "nothing matches") || strings.Contains(v, "deadline") {
		t.Fatalf("time-out:\n%s", v)
	}
	// With sessions shown, the note goes on the status line.
	press(t, b, ctrlU)
	typeText(t, b, "On")
	if v := plain(b.View()); !strings.Contains(v, "One") || !strings.Contains(v, "search took too long") {
		t.Fatalf("time-out with rows:\n%s", v)
	}
}

// An empty store says so; a filter that matches nothing names it.
func TestEmptyStates(t *testing.T) {
	st := openStore(t)
	b, cmd := New(testCtx(t), Options{Store: st, Debounce: time.Millisecond})
	b.SetSize(80, 12)
	if v := plain(b.View()); !strings.Contains(v, "reading the history…") {
		t.Fatalf("before the list:\n%s", v)
	}
	drive(t, b, cmd)
	if v := plain(b.View()); !strings.Contains(v, "no saved session yet") {
		t.Fatalf("empty store:\n%s", v)
	}
	addSession(t, st, "Something", "q", "a")
	b = open(t, st, 80, 12, Options{})
	typeText(t, b, "xyzzy")
	if v := plain(b.View()); !strings.Contains(v, "nothing matches “xyzzy”") {
		t.Fatalf("no match:\n%s", v)
	}
	// A store that cannot be read says why.
	broken := openStore(t)
	broken.Close()
	b = open(t, broken, 80, 12, Options{})
	if v := plain(b.View()); !strings.Contains(v, "history database") {
		t.Fatalf("broken store:\n%s", v)
	}
}

// Many sessions: the title shows the cursor's position; the bottom row
// shows the keys.
func TestPositionAndKeys(t *testing.T) {
	st := openStore(t)
	for i := range 30 {
		addSession(t, st, fmt.Sprintf("Session %02d", i), "q", "a")
	}
	b := open(t, st, 100, 12, Options{})
	lines := strings.Split(plain(b.View()), "\n")
	if !strings.Contains(lines[0], "Sessions · 30") || !strings.HasSuffix(strings.TrimSpace(lines[0]), "1/30") {
		t.Fatalf("title %q", lines[0])
	}
	press(t, b, down)
	press(t, b, down)
	if lines := strings.Split(plain(b.View()), "\n"); !strings.HasSuffix(strings.TrimSpace(lines[0]), "3/30") {
		t.Fatalf("title after two downs %q", lines[0])
	}
	last := lines[len(lines)-1]
	for _, want := range []string{"enter open", "ctrl+r rename", "ctrl+x delete", "ctrl+l new", "esc close"} {
		if !strings.Contains(last, want) {
			t.Errorf("bottom row %q lacks %q", last, want)
		}
	}
	// No wrap-around: up at the top stays at the top.
	b = open(t, st, 100, 12, Options{})
	press(t, b, up)
	if b.list.Cursor() != 0 {
		t.Fatal("up at the top moved")
	}
}

// The browser draws exactly its size in every state, 40x12 included.
func TestExactSize(t *testing.T) {
	st := openStore(t)
	for i := range 8 {
		addSession(t, st, strings.Repeat("long title ", i+1), "question", "a zeppelin answer "+strings.Repeat("word ", 30))
	}
	for _, sz := range [][2]int{{40, 12}, {80, 24}, {1, 1}, {10, 3}, {20, 6}, {200, 60}} {
		b := open(t, st, sz[0], sz[1], Options{})
		requireArea(t, b.View(), sz[0], sz[1])
		typeText(t, b, "zeppelin")
		requireArea(t, b.View(), sz[0], sz[1])
		press(t, b, ctrlR)
		requireArea(t, b.View(), sz[0], sz[1])
		press(t, b, esc)
		press(t, b, ctrlX)
		requireArea(t, b.View(), sz[0], sz[1])
	}
}

// Titles, models, previews and snippets from the store are drawn inert.
func TestHostileTextIsInert(t *testing.T) {
	st := openStore(t)
	evil := "evil\x1b]52;c;aGk=\x07\x1b[2J\u202etitle"
	addSession(t, st, evil, "ask \x1b]0;pwn\x07", "reply \x1b[31mred\x1b[0m \u009b zeppelin \x1b]8;;http://x\x07link")
	b := open(t, st, 100, 20, Options{})
	typeText(t, b, "zeppelin")
	v := b.View()
	requireInert(t, v)
	if !strings.Contains(plain(v), "evil␛]52;c;aGk=␇␛[2J⟨U+202E⟩title") {
		t.Fatalf("the title is not shown with placeholders:\n%s", plain(v))
	}
	press(t, b, ctrlR)
	requireInert(t, b.View())
	press(t, b, esc)
	press(t, b, ctrlX)
	requireInert(t, b.View())
}

// View renders again only after a change.
func TestViewIsCached(t *testing.T) {
	st := openStore(t)
	addSession(t, st, "One", "q", "a")
	b := open(t, st, 80, 12, Options{})
	a := b.View()
	if b.View() != a || b.view.rev != b.rev {
		t.Fatal("an unchanged view rendered again")
	}
	before := b.rev
	typeText(t, b, "o")
	if b.rev == before || b.View() == a {
		t.Fatal("typing did not change the view")
	}
}

// A message found by the search shows as plain text, its words marked.
func TestSnippetIsPlainText(t *testing.T) {
	st := openStore(t)
	addSession(t, st, "Md", "q", "# Title\n\nThe **zeppelin** in `code` and [a link](http://x).")
	b := open(t, st, 100, 20, Options{})
	typeText(t, b, "zeppelin")
	v := plain(b.View())
	if !strings.Contains(v, "zeppelin in code and a link") || strings.Contains(v, "**") || strings.Contains(v, "](") {
		t.Fatalf("snippet:\n%s", v)
	}
	if !strings.Contains(b.View(), b.ctx.Styles.PickerMatch.Render("zeppelin")) {
		t.Fatal("the matched word is not marked")
	}
}

// A snippet keeps every character around the match, as `parley sessions
// search` prints it: a ":" right after the matched word, a ">" standing
// alone mid-line and the "<" of List<String> are text, not Markdown.
func TestSnippetKeepsEveryCharacter(t *testing.T) {
	st := openStore(t)
	addSession(t, st, "Echo", "q", "ECHO: hello world")
	addSession(t, st, "Compare", "q", "Result: A < B when x > 3. Use List<String> here.")
	b := open(t, st, 120, 20, Options{})
	typeText(t, b, "echo")
	if v := plain(b.View()); !strings.Contains(v, "ECHO: hello world") {
		t.Fatalf("snippet of ECHO:\n%s", v)
	}
	press(t, b, ctrlU)
	typeText(t, b, "result")
	if v := plain(b.View()); !strings.Contains(v, "Result: A < B when x > 3. Use List<String> here.") {
		t.Fatalf("snippet of Result:\n%s", v)
	}
}

// A message that is not the browser's changes nothing.
func TestForeignMessagesChangeNothing(t *testing.T) {
	st := openStore(t)
	addSession(t, st, "One", "q", "a")
	b := open(t, st, 80, 12, Options{})
	_ = b.View()
	rev := b.rev
	if res, cmd := b.update(tea.FocusMsg{}); res.Action != None || cmd != nil || b.rev != rev {
		t.Fatalf("a focus message: %+v, %v, rev %d→%d", res, cmd, rev, b.rev)
	}
}

// The line under a session, the start of its latest message, keeps every
// character the store gave it, as the search snippets do: the store made
// it plain text line by line already, and a second Markdown pass over the
// folded line dropped a ">" or "-" standing alone mid-sentence (issue 26
// §10, "…when x 3 Use List<String>").
func TestSessionPreviewKeepsEveryCharacter(t *testing.T) {
	st := openStore(t)
	addSession(t, st, "Result check", "q", "Result: A < B when x > 3 - so Use List<String> here.")
	b := open(t, st, 120, 20, Options{})
	want := "Result: A < B when x > 3 - so Use List<String> here."
	if v := plain(b.View()); !strings.Contains(v, want) {
		t.Fatalf("the preview does not read %q:\n%s", want, v)
	}
	typeText(t, b, "result")
	if v := plain(b.View()); strings.Count(v, want) != 2 {
		t.Fatalf("while searching, the preview and the snippet do not both read %q:\n%s", want, v)
	}
}

// The browser's error is said whole, wrapped, at 30 columns too: the
// list gives up the rows, and the view keeps its size.
func TestErrorIsSaidWhole(t *testing.T) {
	st := openStore(t)
	addSession(t, st, "Old title", "q", "a")
	b := open(t, st, 30, 20, Options{})
	press(t, b, ctrlR)
	press(t, b, ctrlU)
	press(t, b, enter)
	v := plain(b.View())
	if flat := strings.Join(strings.Fields(v), " "); !strings.Contains(flat, "a session needs a title: type one, or esc keeps the old one") {
		t.Fatalf("the error is cut at 30 columns:\n%s", v)
	}
	if rows := strings.Split(v, "\n"); len(rows) != 20 || !strings.Contains(rows[19], "esc") {
		t.Fatalf("the view is not 20 rows ending with its keys:\n%s", v)
	}
}
