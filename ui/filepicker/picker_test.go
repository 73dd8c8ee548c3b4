package filepicker

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"parley/internal/bytesize"

	tea "charm.land/bubbletea/v2"
)

// A folder lists its folders, then its files by name, each marked with
// what its bytes are; hidden files are left out; sizes are in
// bytesize.Format's one format.
func TestListsFoldersAndFiles(t *testing.T) {
	dir := t.TempDir()
	mkfiles(t, dir, "b.png", "A.jpg", "notes.txt", "tool.bin", ".hidden.png", "zoo/", "Albums/", ".git/")
	big := filepath.Join(dir, "big.webp")
	if err := os.WriteFile(big, nil, 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.Truncate(big, 4_600_000); err != nil { // zeros: binary
		t.Fatal(err)
	}
	p, _ := open(t, dir, "", 80, 20, false)
	var names []string
	for _, e := range p.list.Items() {
		names = append(names, e.name)
	}
	if want := []string{"Albums", "zoo", "A.jpg", "b.png", "big.webp", "notes.txt", "tool.bin"}; !slices.Equal(names, want) {
		t.Fatalf("entries %q, want %q", names, want)
	}
	v := plain(p.View())
	for _, want := range []string{"Albums/", "A.jpg", "text      12 B", "b.png", "image", "big.webp", "binary  4.6 MB", "tool.bin"} {
		if !strings.Contains(v, want) {
			t.Errorf("no %q in:\n%s", want, v)
		}
	}
	if bytesize.Format(4_600_000) != "4.6 MB" {
		t.Fatal("bytesize changed its format")
	}
}

// Enter attaches the highlighted image; space chooses several, in any
// folder visited, and enter attaches them all.
func TestAttach(t *testing.T) {
	dir := t.TempDir()
	mkfiles(t, dir, "a.png", "b.png", "c.png", "sub/d.png")
	p, _ := open(t, dir, "", 80, 20, false)
	press(t, p, down) // a.png
	if res := action(press(t, p, enter)); res.Action != Attach || !slices.Equal(res.Paths, []string{filepath.Join(dir, "a.png")}) || res.Dir != dir {
		t.Fatalf("enter: %+v", res)
	}
	press(t, p, down) // b.png
	press(t, p, space)
	press(t, p, space) // c.png, the cursor moved down
	if v := plain(p.View()); !strings.Contains(v, "✓ b.png") || !strings.Contains(v, "✓ c.png") || !strings.Contains(v, "2 chosen") {
		t.Fatalf("marks:\n%s", v)
	}
	press(t, p, "\x1b[H") // home: sub/
	press(t, p, enter)    // into sub
	press(t, p, down)     // sub has no folder: d.png is first… and stays
	press(t, p, space)
	if v := plain(p.View()); !strings.Contains(v, "3 chosen") {
		t.Fatalf("marks across folders:\n%s", v)
	}
	res := action(press(t, p, enter))
	want := []string{filepath.Join(dir, "b.png"), filepath.Join(dir, "c.png"), filepath.Join(dir, "sub", "d.png")}
	if res.Action != Attach || !slices.Equal(res.Paths, want) {
		t.Fatalf("enter with marks: %+v", res)
	}
	// space again unmarks.
	p, _ = open(t, dir, "", 80, 20, false)
	press(t, p, down)
	press(t, p, space)
	press(t, p, up)
	press(t, p, space)
	if len(p.marked) != 0 {
		t.Fatalf("space twice left %v", p.marked)
	}
	if res := action(press(t, p, esc)); res.Action != Close {
		t.Fatalf("esc: %+v", res)
	}
}

// Folders open with enter or right; backspace (with no filter) and left
// go up, highlighting the folder left.
func TestNavigate(t *testing.T) {
	dir := t.TempDir()
	mkfiles(t, dir, "aaa/", "photos/x.png", "zzz.png")
	p, _ := open(t, dir, "", 80, 20, false)
	press(t, p, down) // photos
	press(t, p, enter)
	if p.dir != filepath.Join(dir, "photos") || !strings.Contains(plain(p.View()), "x.png") {
		t.Fatalf("enter on a folder: %s", p.dir)
	}
	press(t, p, backspace)
	if e, _ := p.list.Selected(); p.dir != dir || e.name != "photos" {
		t.Fatalf("backspace: in %s on %q", p.dir, e.name)
	}
	press(t, p, right)
	press(t, p, left)
	if p.dir != dir {
		t.Fatalf("right, left: %s", p.dir)
	}
	// With a filter, backspace edits it instead.
	typeText(t, p, "zz")
	press(t, p, backspace)
	if p.filter.Value() != "z" || p.dir != dir {
		t.Fatalf("backspace in a filter: %q in %s", p.filter.Value(), p.dir)
	}
}

// A path typed into the filter (/, ~/ or ./) opens its folder with
// enter, or attaches its image; a bad one says why and stays typed.
func TestTypedPath(t *testing.T) {
	home := t.TempDir()
	mkfiles(t, home, "Pictures/shot.png", "docs/readme.txt", "docs/tool.bin", "docs/deep/x.png")
	start := filepath.Join(home, "docs")
	p, _ := open(t, start, home, 80, 20, false)
	typeText(t, p, "~/Pictures")
	if v := plain(p.View()); !strings.Contains(v, "enter opens ~/Pictures") || !strings.Contains(v, "deep/") {
		t.Fatalf("a typed path filters or is not announced:\n%s", v)
	}
	press(t, p, enter)
	if p.dir != filepath.Join(home, "Pictures") || p.filter.Value() != "" {
		t.Fatalf("~/Pictures: in %s, filter %q", p.dir, p.filter.Value())
	}
	typeText(t, p, filepath.Join(home, "docs"))
	press(t, p, enter)
	if p.dir != start {
		t.Fatalf("absolute path: in %s", p.dir)
	}
	typeText(t, p, "./deep")
	press(t, p, enter)
	if p.dir != filepath.Join(start, "deep") {
		t.Fatalf("./deep: in %s", p.dir)
	}
	typeText(t, p, "~/Pictures/shot.png")
	if res := action(press(t, p, enter)); res.Action != Attach || !slices.Equal(res.Paths, []string{filepath.Join(home, "Pictures", "shot.png")}) {
		t.Fatalf("a typed image: %+v", res)
	}
	press(t, p, ctrlU)
	typeText(t, p, "~/docs/readme.txt")
	if res := action(press(t, p, enter)); res.Action != Attach || !slices.Equal(res.Paths, []string{filepath.Join(home, "docs", "readme.txt")}) {
		t.Fatalf("a typed text file: %+v", res)
	}
	for _, c := range []struct{ typed, says string }{
		{"~/nowhere", "there is no folder ~/nowhere; check the path"},
		{"~/docs/tool.bin", "~/docs/tool.bin cannot be attached: it is a program, neither a PNG, JPEG, WEBP or GIF image nor a text file"},
	} {
		press(t, p, ctrlU)
		typeText(t, p, c.typed)
		if res := action(press(t, p, enter)); res.Action != None {
			t.Fatalf("%s: %+v", c.typed, res)
		}
		if v := plain(p.View()); !says(v, c.says) || p.filter.Value() != c.typed {
			t.Fatalf("%s: filter %q, view:\n%s", c.typed, p.filter.Value(), v)
		}
	}
	// Space types into a path (folders have spaces).
	press(t, p, ctrlU)
	typeText(t, p, "~/My Pictures")
	if p.filter.Value() != "~/My Pictures" {
		t.Fatalf("space in a path: %q", p.filter.Value())
	}
}

// "No files or folders here" only for an empty folder (hidden files do
// not count); a filter that matches nothing names it.
func TestEmptyAndNoMatch(t *testing.T) {
	empty := t.TempDir()
	mkfiles(t, empty, ".only.txt")
	p, _ := open(t, empty, "", 60, 12, false)
	if v := plain(p.View()); !strings.Contains(v, "no files or folders here") {
		t.Fatalf("empty folder:\n%s", v)
	}
	full := t.TempDir()
	mkfiles(t, full, "cat.png", "dog.png")
	p, _ = open(t, full, "", 60, 12, false)
	typeText(t, p, "zebra")
	v := plain(p.View())
	if !strings.Contains(v, "nothing matches “zebra”") || strings.Contains(v, "no files or folders here") {
		t.Fatalf("no match:\n%s", v)
	}
	// The filter is fuzzy (the one matcher) and the readline keys work.
	press(t, p, ctrlU)
	typeText(t, p, "dg")
	if v := plain(p.View()); !strings.Contains(v, "dog.png") || strings.Contains(v, "cat.png") {
		t.Fatalf("fuzzy filter:\n%s", v)
	}
	p.update(tea.PasteMsg{Content: " x"}) // space chooses; a paste types it
	press(t, p, ctrlW)
	if p.filter.Value() != "dg " {
		t.Fatalf("ctrl+w: %q", p.filter.Value())
	}
}

// The picker asks the root for the highlighted image's preview and shows
// the answer only while it is for what is highlighted: a folder shows no
// image, a late answer is dropped.
func TestPreview(t *testing.T) {
	dir := t.TempDir()
	mkfiles(t, dir, "folder/", "one.png", "two.png")
	p, rs := open(t, dir, "", 100, 20, true)
	if r := lastPreview(rs); r != nil {
		t.Fatalf("a preview asked for a folder: %+v", r)
	}
	rs = press(t, p, down)
	req := lastPreview(rs)
	pw, ph := p.previewBox()
	if req == nil || req.Path != filepath.Join(dir, "one.png") || req.W != pw || req.H != ph {
		t.Fatalf("request %+v, box %dx%d", req, pw, ph)
	}
	if v := plain(p.View()); !strings.Contains(v, "…") {
		t.Fatalf("no placeholder while the preview is made:\n%s", v)
	}
	lines := make([]string, ph)
	for i := range lines {
		lines[i] = strings.Repeat("\x1b[31m#\x1b[m", pw)
	}
	p.update(PreviewMsg{PreviewRequest: *req, Lines: lines})
	if v := p.View(); !strings.Contains(v, "\x1b[31m#") {
		t.Fatalf("the preview is not shown:\n%s", plain(v))
	}
	press(t, p, up) // the folder
	if v := p.View(); strings.Contains(v, "\x1b[31m#") || !strings.Contains(plain(v), "folder: enter opens it") {
		t.Fatalf("a folder shows a stale preview:\n%s", plain(v))
	}
	rs = press(t, p, down) // back on one.png: the answer is still right
	if lastPreview(rs) != nil || !strings.Contains(p.View(), "\x1b[31m#") {
		t.Fatal("coming back asked again or lost the preview")
	}
	rs = press(t, p, down) // two.png
	two := lastPreview(rs)
	if two == nil || two.Path != filepath.Join(dir, "two.png") {
		t.Fatalf("two.png: %+v", two)
	}
	p.update(PreviewMsg{PreviewRequest: *req, Lines: lines}) // late, for one.png
	if strings.Contains(p.View(), "\x1b[31m#") {
		t.Fatal("a late preview of another image is shown")
	}
	p.update(PreviewMsg{PreviewRequest: *two, Err: errors.New("cannot preview the image: \x1b[2J broken")})
	if v := p.View(); !strings.Contains(plain(v), "cannot preview the image") || strings.Contains(v, "\x1b[2J") {
		t.Fatalf("error:\n%q", v)
	}
	// Preview lines carry only colours to the terminal.
	p.update(PreviewMsg{PreviewRequest: *two, Lines: []string{"\x1b]52;c;x\x07ok\x1b[2J"}})
	requireInert(t, p.View())
	// Narrow, or without previews, there is no preview and no request.
	q, rs := open(t, dir, "", 60, 20, true)
	rs = append(rs, press(t, q, down)...)
	if lastPreview(rs) != nil {
		t.Fatal("a narrow picker asked for a preview")
	}
}

func lastPreview(rs []Result) *PreviewRequest {
	var out *PreviewRequest
	for _, r := range rs {
		if r.Preview != nil {
			out = r.Preview
		}
	}
	return out
}

// A long folder shows the cursor's position in the title; the keys are
// on the bottom row.
func TestPositionAndKeys(t *testing.T) {
	dir := t.TempDir()
	for i := range 30 {
		mkfiles(t, dir, fmt.Sprintf("img%02d.png", i))
	}
	p, _ := open(t, dir, "", 100, 12, false)
	press(t, p, down)
	lines := strings.Split(plain(p.View()), "\n")
	if !strings.HasSuffix(strings.TrimSpace(lines[0]), "2/30") {
		t.Fatalf("title %q", lines[0])
	}
	last := lines[len(lines)-1]
	for _, want := range []string{"enter attach / open folder", "space choose several", "backspace up a folder", "esc cancel"} {
		if !strings.Contains(last, want) {
			t.Errorf("bottom row %q lacks %q", last, want)
		}
	}
	press(t, p, up)
	press(t, p, up) // no wrap-around
	if p.list.Cursor() != 0 {
		t.Fatal("up at the top moved")
	}
}

func TestExactSize(t *testing.T) {
	dir := t.TempDir()
	mkfiles(t, dir, "a folder with a long name/", "日本語の画像ファイル.png", "b.png")
	for _, sz := range [][2]int{{40, 12}, {80, 24}, {120, 40}, {1, 1}, {5, 2}, {20, 4}, {70, 10}} {
		for _, previews := range []bool{false, true} {
			p, _ := open(t, dir, "", sz[0], sz[1], previews)
			requireArea(t, p.View(), sz[0], sz[1])
			press(t, p, "\x1b[F")
			requireArea(t, p.View(), sz[0], sz[1])
			typeText(t, p, "/no/such/place")
			press(t, p, enter)
			requireArea(t, p.View(), sz[0], sz[1])
		}
	}
}

// File names are drawn inert: control sequences as visible placeholders.
func TestHostileNames(t *testing.T) {
	dir := t.TempDir()
	mkfiles(t, dir, "evil\x1b]52;c;aGk=\x07\x1b[2J.png", "rtl\u202egnp.png", "c1\u009b.png", "bad\x1b[31m/")
	p, _ := open(t, dir, "", 100, 20, true)
	v := p.View()
	requireInert(t, v)
	for _, want := range []string{"evil␛]52;c;aGk=␇␛[2J.png", "rtl⟨U+202E⟩gnp.png", "c1⟨U+009B⟩.png", "bad␛[31m/"} {
		if !strings.Contains(plain(v), want) {
			t.Errorf("no %q in:\n%s", want, plain(v))
		}
	}
	press(t, p, enter) // into the hostile folder: its name in the title
	requireInert(t, p.View())
}

// A folder with more entries than the bound opens with the first ones
// and says so.
func TestTruncatedFolder(t *testing.T) {
	dir := t.TempDir()
	for i := range 8 {
		mkfiles(t, dir, fmt.Sprintf("i%d.png", i))
	}
	p, cmd := New(testCtx(t), Options{Dir: dir, MaxEntries: 5})
	p.SetSize(100, 20)
	drive(t, p, cmd)
	if p.list.Total() != 5 || !strings.Contains(plain(p.View()), "more than 5 files and folders") {
		t.Fatalf("%d entries:\n%s", p.list.Total(), plain(p.View()))
	}
}

// A late folder read (the user moved on) is dropped; a read of another
// picker is not this one's.
func TestLateReadsAreDropped(t *testing.T) {
	dir := t.TempDir()
	mkfiles(t, dir, "a/x.png", "b/y.png")
	p, _ := open(t, dir, "", 80, 20, false)
	_, first := p.update(key(t, enter))  // into a/, read later
	press(t, p, down)                    // still in dir: on b/
	_, second := p.update(key(t, enter)) // into b/
	stale := first()
	p.update(second())
	p.update(stale)
	if p.dir != filepath.Join(dir, "b") {
		t.Fatalf("in %s, want b: the older read won", p.dir)
	}
	other, cmd := New(testCtx(t), Options{Dir: filepath.Join(dir, "a")})
	p.update(cmd())
	if p.dir != filepath.Join(dir, "b") || other.dir != "" {
		t.Fatalf("another picker's read was taken: %s", p.dir)
	}
}

// A message that is not the picker's changes nothing.
func TestForeignMessagesChangeNothing(t *testing.T) {
	dir := t.TempDir()
	mkfiles(t, dir, "a.png")
	p, _ := open(t, dir, "", 80, 12, false)
	_ = p.View()
	rev := p.rev
	if res, cmd := p.update(tea.FocusMsg{}); res.Action != None || res.Preview != nil || cmd != nil || p.rev != rev {
		t.Fatalf("a focus message: %+v, %v, rev %d→%d", res, cmd, rev, p.rev)
	}
}
