//go:build unix

package filepicker

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"syscall"
	"testing"

	tea "charm.land/bubbletea/v2"
)

func kinds(p *Picker) map[string]fileKind {
	out := map[string]fileKind{}
	for _, e := range p.list.Items() {
		if !e.dir {
			out[e.name] = e.kind
		}
	}
	return out
}

// The kind of a file comes from its bytes, not its name: text named like
// an image is text, an image without an extension is an image; special
// files and links to nothing are not listed, a link to a file is.
func TestKindsFromBytes(t *testing.T) {
	dir := t.TempDir()
	writeFile(t, dir, "shot", pngBytes(t, 8, 6))
	writeFile(t, dir, "fake.png", []byte("# not a picture\n"))
	writeFile(t, dir, "Makefile", []byte("all:\n\tgo build\n"))
	writeFile(t, dir, "main.go", []byte("package main\n"))
	writeFile(t, dir, "tool", []byte("\x7fELF\x02\x01\x01\x00\x00"))
	writeFile(t, dir, "archive.zip", []byte("PK\x03\x04\x14\x00\x00\x00"))
	writeFile(t, dir, "wide.txt", []byte{0xff, 0xfe, 'h', 0, 'i', 0})
	writeFile(t, dir, "empty.txt", nil)
	if err := syscall.Mkfifo(filepath.Join(dir, "pipe"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(filepath.Join(dir, "main.go"), filepath.Join(dir, "link.go")); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(filepath.Join(dir, "gone"), filepath.Join(dir, "dangling")); err != nil {
		t.Fatal(err)
	}
	p, _ := open(t, dir, "", 100, 20, false)
	want := map[string]fileKind{
		"shot": kindImage, "fake.png": kindText, "Makefile": kindText, "main.go": kindText, "link.go": kindText,
		"tool": kindBinary, "archive.zip": kindBinary, "wide.txt": kindBinary, "empty.txt": kindEmpty,
	}
	if got := kinds(p); !maps(got, want) {
		t.Fatalf("kinds %v, want %v", got, want)
	}
	v := plain(p.View())
	for _, row := range []string{"shot", "fake.png", "tool", "empty.txt"} {
		if !strings.Contains(v, row) {
			t.Errorf("no row %q:\n%s", row, v)
		}
	}
	if !strings.Contains(v, "empty      0 B") || !strings.Contains(v, "binary") {
		t.Errorf("labels:\n%s", v)
	}
}

func maps(a, b map[string]fileKind) bool {
	if len(a) != len(b) {
		return false
	}
	for k, v := range a {
		if w, ok := b[k]; !ok || w != v {
			return false
		}
	}
	return true
}

// A file that is neither an image nor text cannot be chosen: enter and
// space say why in one sentence, in the attach's words, and mark nothing;
// moving on clears it. Images and text files are chosen together.
func TestChoosingRefusesWhatCannotBeAttached(t *testing.T) {
	dir := t.TempDir()
	mkfiles(t, dir, "a.png", "b.md", "c.bin")
	writeFile(t, dir, "d.txt", nil)
	writeFile(t, dir, "e.zip", []byte("PK\x03\x04\x14\x00\x00\x00"))
	p, _ := open(t, dir, "", 120, 20, false)
	press(t, p, "\x1b[F") // end: e.zip
	if res := action(press(t, p, enter)); res.Action != None {
		t.Fatalf("enter on a zip: %+v", res)
	}
	if v := p.View(); !says(v, "e.zip cannot be attached: it is a ZIP archive (or an office document), neither a PNG, JPEG, WEBP or GIF image nor a text file") {
		t.Fatalf("no refusal:\n%s", plain(v))
	}
	press(t, p, up) // d.txt: the refusal is gone with the row
	if v := plain(p.View()); strings.Contains(v, "cannot be attached") {
		t.Fatalf("the refusal stayed:\n%s", v)
	}
	press(t, p, space)
	if len(p.marked) != 0 || !says(p.View(), "d.txt cannot be attached: it is empty") || p.list.Cursor() != 3 {
		t.Fatalf("space on an empty file: marked %v, cursor %d\n%s", p.marked, p.list.Cursor(), plain(p.View()))
	}
	press(t, p, up) // c.bin
	press(t, p, space)
	if len(p.marked) != 0 || !says(p.View(), "c.bin cannot be attached: it is a program") {
		t.Fatalf("space on a program: %v\n%s", p.marked, plain(p.View()))
	}
	press(t, p, "\x1b[H") // home: a.png
	press(t, p, space)
	press(t, p, space) // b.md
	res := action(press(t, p, enter))
	if want := []string{filepath.Join(dir, "a.png"), filepath.Join(dir, "b.md")}; res.Action != Attach || !slices.Equal(res.Paths, want) {
		t.Fatalf("an image and a text file: %+v", res)
	}
}

// A file chosen before its first bytes were read, which then turn out
// not to be attachable, stops enter with the sentence; a typed path to a
// special file is refused without opening it.
func TestChosenThenFoundBinary(t *testing.T) {
	dir := t.TempDir()
	mkfiles(t, dir, "a.md", "late.bin")
	p, cmd := New(testCtx(t), Options{Dir: dir})
	p.SetSize(100, 20)
	listed := cmd().(listedMsg)
	for i := range listed.entries {
		listed.entries[i].kind, listed.entries[i].why = kindUnknown, "" // as if not looked at yet
	}
	p.update(listed)
	press(t, p, space)
	press(t, p, space)
	if len(p.marked) != 2 {
		t.Fatalf("marked %v", p.marked)
	}
	p.update(sniffedMsg{p: p, gen: p.gen, found: sniff(context.Background(), dir, []string{"a.md", "late.bin"})})
	if res := action(press(t, p, enter)); res.Action != None || !says(p.View(), "late.bin cannot be attached: it is a program") {
		t.Fatalf("enter: %+v\n%s", res, plain(p.View()))
	}
	fifo := filepath.Join(dir, "pipe")
	if err := syscall.Mkfifo(fifo, 0o644); err != nil {
		t.Fatal(err)
	}
	typeText(t, p, fifo)
	if res := action(press(t, p, enter)); res.Action != None || !says(p.View(), "pipe cannot be attached: it is not a regular file") {
		t.Fatalf("a typed FIFO: %+v\n%s", res, plain(p.View()))
	}
}

// A text file over Options.MaxTextBytes shows as too large and is
// refused with the attach's sentence; without the option the attach
// decides.
func TestTextOverTheLimit(t *testing.T) {
	dir := t.TempDir()
	writeFile(t, dir, "big.log", []byte(strings.Repeat("a log line\n", 300)))
	p, cmd := New(testCtx(t), Options{Dir: dir, Previews: true, MaxTextBytes: 1000})
	p.SetSize(120, 20)
	drive(t, p, cmd)
	if res := action(press(t, p, enter)); res.Action != None {
		t.Fatalf("enter on a text file over the limit: %+v", res)
	}
	v := p.View()
	if !says(v, "big.log cannot be attached: it is a text file of 3.3 KB, more than parley sends of one (1.0 KB, attach_max_text_bytes in the config); attach a part of it or raise the limit") ||
		!says(v, "too large to attach (more than 1.0 KB)") {
		t.Fatalf("view:\n%s", plain(v))
	}
	q, _ := open(t, dir, "", 120, 20, false)
	if res := action(press(t, q, enter)); res.Action != Attach {
		t.Fatalf("without a limit: %+v", res)
	}
}

// A text file's preview is its first lines, made by the picker (no
// request to the root): a header with its length, CR, the byte order
// mark and control sequences made harmless, tabs expanded; a long file
// says only its start is shown.
func TestTextPreview(t *testing.T) {
	dir := t.TempDir()
	writeFile(t, dir, "a.go", []byte("\ufeffpackage main\r\n\r\nfunc main() {\r\n\tprintln(\"\x1b]52;c;aGk=\x07hi\x1b[2J\")\r\n\t// \u202egnp.exe 日本\tx\r\n}\r\n"))
	writeFile(t, dir, "b.log", []byte(strings.Repeat("2026-11-26 10:00:00 a line of the log\n", 1000)))
	p, rs := open(t, dir, "", 120, 20, true)
	if r := lastPreview(rs); r != nil {
		t.Fatalf("asked the root for a text file: %+v", r)
	}
	v := p.View()
	requireInert(t, v)
	pv := plain(v)
	for _, want := range []string{
		"text · 6 lines · ", "package main", "func main() {", `    println("␛]52;c;aGk=␇hi␛[2J")`,
		"    // ⟨U+202E⟩gnp.exe 日本",
	} {
		if !strings.Contains(pv, want) {
			t.Errorf("no %q in the preview:\n%s", want, pv)
		}
	}
	if strings.Contains(v, "\r") || strings.Contains(v, "\ufeff") || strings.Contains(v, "\t") {
		t.Errorf("CR, BOM or tab left in:\n%q", v)
	}
	rs = press(t, p, down)
	if lastPreview(rs) != nil {
		t.Fatal("asked the root for a log's preview")
	}
	pv = plain(p.View())
	if !strings.Contains(pv, "text · 38 KB, its first lines") || strings.Count(pv, "a line of the log") != p.rows()-1 {
		t.Fatalf("a long file's preview:\n%s", pv)
	}
	if n := len(p.peeked.lines); n != previewLineMax {
		t.Fatalf("%d lines kept, want %d", n, previewLineMax)
	}
	requireArea(t, p.View(), 120, 20)
}

// textLines keeps what it reads bounded and whole: a character cut by
// the read is dropped, a very long line is cut on a character.
func TestTextLinesBounds(t *testing.T) {
	head := []byte(strings.Repeat("é", lineBytesMax) + "\nnext\n" + "ab\xc3")
	lines := textLines(head, false)
	if len(lines) != 3 || lines[1] != "next" || lines[2] != "ab" {
		t.Fatalf("lines %q", lines)
	}
	if len(lines[0]) > lineBytesMax || !strings.HasPrefix(lines[0], "éé") || strings.ContainsRune(lines[0], '\uFFFD') {
		t.Fatalf("long line cut to %d bytes: %q…", len(lines[0]), lines[0][:8])
	}
	if got := textLines([]byte("a\n\nb\n"), true); !slices.Equal(got, []string{"a", "", "b"}) {
		t.Fatalf("whole file: %q", got)
	}
	if got := expandTabs("日\tx\t\ty"); got != "日  x   "+"    y" {
		t.Fatalf("tabs: %q", got)
	}
}

// A file the list has not looked at yet (past the first screen, before
// its batch) is settled by the preview's read: an image then asks the
// root for its preview.
func TestPreviewSettlesAnUnknownFile(t *testing.T) {
	dir := t.TempDir()
	for i := range firstSniff + 6 {
		writeFile(t, dir, fmt.Sprintf("a%03d.txt", i), []byte("text\n"))
	}
	writeFile(t, dir, "zz", pngBytes(t, 6, 4))
	p, cmd := New(testCtx(t), Options{Dir: dir, Previews: true})
	p.SetSize(120, 20)
	listed := cmd().(listedMsg)
	for _, e := range listed.entries {
		if want := map[bool]fileKind{true: kindUnknown, false: kindText}[e.name >= "a064.txt"]; e.kind != want {
			t.Fatalf("after the folder read %s is %v, want %v", e.name, e.kind, want)
		}
	}
	_, c := p.update(listed)
	var rest tea.Msg // the background batch, held back
	for _, msg := range collect(c) {
		if sm, ok := msg.(sniffedMsg); ok {
			rest = sm
		} else {
			p.update(msg) // the first file's preview
		}
	}
	if rest == nil {
		t.Fatal("no background look at the rest")
	}
	res, peek := p.update(key(t, "\x1b[F")) // end: zz, unknown
	if res.Preview != nil || peek == nil {
		t.Fatalf("an unknown file: %+v, peek %v", res, peek)
	}
	res, _ = p.update(peek())
	if res.Preview == nil || res.Preview.Path != filepath.Join(dir, "zz") || kinds(p)["zz"] != kindImage {
		t.Fatalf("after the peek: %+v, kind %v", res.Preview, kinds(p)["zz"])
	}
	// The batch comes later and changes nothing of what is known.
	p.update(rest)
	for name, k := range kinds(p) {
		if (name == "zz" && k != kindImage) || (name != "zz" && k != kindText) {
			t.Fatalf("%s is %v after the batch", name, k)
		}
	}
}

// Every file of a big folder gets its kind in the background, a batch at
// a time; a batch of another folder read, or of another picker, is
// dropped; a closed picker stops looking.
func TestBackgroundLookAtABigFolder(t *testing.T) {
	dir := t.TempDir()
	n := firstSniff + 2*sniffBatch + 10
	for i := range n {
		data := []byte("text\n")
		if i%3 == 0 {
			data = []byte{0, 1, 2}
		}
		writeFile(t, dir, fmt.Sprintf("f%04d", i), data)
	}
	p, cmd := New(testCtx(t), Options{Dir: dir})
	p.SetSize(100, 30)
	listed := cmd().(listedMsg)
	_, c := p.update(listed)
	batches := 0
	for c != nil {
		msg := c()
		batches++
		_, c = p.update(msg)
	}
	if batches != 3 {
		t.Fatalf("%d batches, want 3", batches)
	}
	for i, e := range p.list.Items() {
		if want := map[bool]fileKind{true: kindBinary, false: kindText}[i%3 == 0]; e.kind != want {
			t.Fatalf("%s is %v, want %v", e.name, e.kind, want)
		}
	}
	// A late batch of an older read is dropped.
	q, cmd := New(testCtx(t), Options{Dir: dir})
	q.SetSize(100, 30)
	_, c = q.update(cmd().(listedMsg))
	stale := c()
	q.update(q.read(dir, false)())
	if _, next := q.update(stale); next != nil || kinds(q)["f0100"] != kindUnknown {
		t.Fatalf("a stale batch was taken (next %v, f0100 %v)", next, kinds(q)["f0100"])
	}
	// A closed picker (its context ended) looks at nothing more.
	ctx, cancel := context.WithCancel(context.Background())
	r, cmd := New(testCtx(t), Options{Dir: dir, Context: ctx})
	r.SetSize(100, 30)
	_, c = r.update(cmd().(listedMsg))
	cancel()
	msg := c().(sniffedMsg)
	if len(msg.found) != 0 || !msg.stopped {
		t.Fatalf("a closed picker looked at %d files", len(msg.found))
	}
	if _, next := r.update(msg); next != nil {
		t.Fatal("a stopped look goes on")
	}
}

// A file that cannot be read for its preview (gone since the folder was
// read, or locked) says so in the preview; choosing it is left to the
// attach, which says why in its own words.
func TestUnreadableFile(t *testing.T) {
	dir := t.TempDir()
	mkfiles(t, dir, "a.md", "b.md")
	p, _ := open(t, dir, "", 120, 20, true)
	if err := os.Remove(filepath.Join(dir, "b.md")); err != nil {
		t.Fatal(err)
	}
	press(t, p, down)
	if v := p.View(); !says(v, "cannot preview b.md: no such file or directory") {
		t.Fatalf("view:\n%s", plain(v))
	}
	if res := action(press(t, p, enter)); res.Action != Attach {
		t.Fatalf("enter: %+v", res)
	}
	if os.Geteuid() == 0 {
		return // root reads files whatever their mode
	}
	locked := writeFile(t, dir, "locked.md", []byte("secret\n"))
	if err := os.Chmod(locked, 0); err != nil {
		t.Fatal(err)
	}
	p, _ = open(t, dir, "", 120, 20, true)
	press(t, p, "\x1b[F")
	if k := kinds(p)["locked.md"]; k != kindUnknown || !says(p.View(), "cannot preview locked.md: permission denied") {
		t.Fatalf("kind %v, view:\n%s", k, plain(p.View()))
	}
}

// collect runs cmd and the batches it makes, and returns their messages.
func collect(cmd tea.Cmd) []tea.Msg {
	if cmd == nil {
		return nil
	}
	switch msg := cmd().(type) {
	case nil:
		return nil
	case tea.BatchMsg:
		var out []tea.Msg
		for _, c := range msg {
			out = append(out, collect(c)...)
		}
		return out
	default:
		return []tea.Msg{msg}
	}
}

// A refusal longer than three lines of a narrow picker is shown whole,
// its advice at the end included: the list gives up rows for it.
func TestLongRefusalIsWholeWhenNarrow(t *testing.T) {
	dir := t.TempDir()
	mkfiles(t, dir, "a.md")
	p, cmd := New(testCtx(t), Options{Dir: dir})
	p.SetSize(30, 20)
	drive(t, p, cmd)
	missing := filepath.Join(dir, "a folder with a long name", "and another one", "photo.png")
	typeText(t, p, missing)
	press(t, p, enter)
	// The path is broken where the width ends, so the words are compared
	// without the white space between lines.
	squeeze := func(s string) string { return strings.Join(strings.Fields(s), "") }
	view := plain(p.View())
	if want := "there is no folder " + missing + "; check the path"; !strings.Contains(squeeze(view), squeeze(want)) {
		t.Fatalf("the refusal is not whole; want %q:\n%s", want, view)
	}
}
