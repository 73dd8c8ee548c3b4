package preview

import (
	"slices"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/charmbracelet/x/ansi"
)

// Stage draws the staged pictures (KittyDirect, Sixel, ITerm) of each
// frame. The frame holds marker cells where such a picture goes (whatever
// put it there: the transcript, the image pane, the file picker); Frame
// finds them in the composed frame, so a picture follows the text through
// scrolling, resizing and overlays without anyone telling the Stage where
// it is. A picture row is drawn only when all its cells are on screen: a
// row an overlay covers in part, or a picture scrolled half out of view,
// shows only its whole rows.
//
// The terminal never sees a marker: Frame puts a no-break space (U+00A0)
// in each cell of a row it draws and a plain space in the others. A
// drawn cell is thus never blank to Bubble Tea's renderer (it erases the
// rest of a line only where that rest is blank), and when the picture goes
// away every one of its cells changes and is painted again, which is what
// erases a sixel or inline image in the terminals that draw them (they
// keep an image in the cells it covers). Kitty placements lie above the
// cells and are deleted by command.
//
// What is written, and when: a kitty placement is deleted with the frame
// that no longer shows it. Everything else waits for the frame: a kitty
// picture is transmitted once (a=t) before its first placement, after the
// frame, since a frame that clears the screen (a resize) frees the
// pictures not placed yet; a sixel or inline image is written into
// cells, so it must come after the frame that blanks them, and a kitty
// placement (a=p, C=1: the cursor stays) made before a frame that the
// renderer draws by scrolling part of the screen would be scrolled along
// with the text. So Frame says a drawing is due, and Draw, called a couple
// of frame intervals later, writes what is still due: each picture once for
// as long as it stays where it is (and, for sixel and inline images, its
// rows are not painted over).
//
// A Stage is used from Update only.
type Stage struct {
	mode  Mode
	known map[uint32]*knownPic
	// sent are the kitty pictures transmitted.
	sent map[uint32]bool
	// shown are the placements on the terminal now, by key; want are the
	// last frame's.
	shown map[placeKey]Placement
	want  []Placement
	// lines are the last frame as the terminal got it.
	lines   []string
	tick    uint64
	gen     uint64
	missing bool
	// gone are the pictures let go (maxKnown): a frame that shows one
	// again is what Missing reports, and nothing else (an id no picture
	// had is text that merely looks like a marker).
	gone map[uint32]bool
	// scrub are the columns of sixel and inline images that left the
	// screen, their blank cells made no-break spaces until a frame
	// holding them has been drawn (scrub.go).
	scrub []colSpan
}

// knownPic is a registered picture and the last frame that showed it.
type knownPic struct {
	r    Rendered
	seen uint64
}

// maxKnown is how many pictures a Stage keeps for drawing again; those
// shown longest ago go first, and one that comes back after is asked for
// again (Missing).
const maxKnown = 64

// Placement is one picture on screen: rows Row to Row+Rows-1 of picture ID
// with their top-left cell at X, Y. N counts the places the same picture
// is shown in one frame (the kitty placement id is N+1).
type Placement struct {
	ID        uint32
	X, Y      int
	Row, Rows int
	N         int
	// Cols is the picture's width in cells.
	Cols int
}

type placeKey struct {
	id uint32
	n  int
}

func (p Placement) key() placeKey { return placeKey{p.ID, p.N} }

// NewStage makes a Stage for mode; it draws nothing in the other modes.
func NewStage(mode Mode) *Stage {
	return &Stage{mode: mode, known: map[uint32]*knownPic{}, sent: map[uint32]bool{}, shown: map[placeKey]Placement{}, gone: map[uint32]bool{}}
}

// Mode is the mode the Stage draws.
func (s *Stage) Mode() Mode { return s.mode }

// SetMode switches to another mode and returns what to write to take the
// old mode's kitty placements off the screen (sixel and inline images go
// when their cells are painted again).
func (s *Stage) SetMode(m Mode) string {
	if m == s.mode {
		return ""
	}
	out := s.removeAll()
	s.mode = m
	s.want = nil
	s.lines = nil
	s.gen++
	return out
}

// removeAll deletes every kitty placement shown and forgets the shown set.
func (s *Stage) removeAll() string {
	var b strings.Builder
	if s.mode == KittyDirect {
		for _, p := range s.sorted(s.shown) {
			writeDeletePlacement(&b, p)
		}
	}
	clear(s.shown)
	return b.String()
}

// Register makes a staged picture known, before a frame shows it. Other
// pictures are ignored.
func (s *Stage) Register(r Rendered) {
	if r.staged == nil || r.ID == 0 {
		return
	}
	if k, ok := s.known[r.ID]; ok {
		k.seen = s.tick
		return
	}
	s.known[r.ID] = &knownPic{r: r, seen: s.tick}
	if len(s.known) <= maxKnown {
		return
	}
	inUse := map[uint32]bool{}
	for _, p := range s.want {
		inUse[p.ID] = true
	}
	var oldest uint32
	found := false
	for id, k := range s.known {
		if inUse[id] || id == r.ID {
			continue
		}
		if !found || k.seen < s.known[oldest].seen {
			oldest, found = id, true
		}
	}
	if found {
		delete(s.known, oldest)
		delete(s.sent, oldest)
		if len(s.gone) >= 4*maxKnown {
			clear(s.gone)
		}
		s.gone[oldest] = true
	}
}

// Missing reports whether a frame since the last call held a picture the
// Stage no longer knows (it let it go, maxKnown): its owner should make it
// again.
func (s *Stage) Missing() bool {
	m := s.missing
	s.missing = false
	return m
}

// Cleared says the terminal's screen was cleared and painted again (a
// resize): nothing drawn is there any more, and kitty may have freed the
// pictures too.
func (s *Stage) Cleared() {
	clear(s.shown)
	clear(s.sent)
	s.scrub = nil
	s.lines = nil
	s.gen++
}

// Due reports whether pictures wait to be drawn after the last frame is on
// the screen, or cells wait to be scrubbed, and the frame generation to
// hand Draw.
func (s *Stage) Due() (uint64, bool) {
	if !s.mode.Staged() {
		return 0, false
	}
	if len(s.scrub) > 0 {
		return s.gen, true
	}
	for _, p := range s.want {
		if q, ok := s.shown[p.key()]; !ok || q != p {
			return s.gen, true
		}
	}
	return 0, false
}

// Draw returns what draws the pictures still due, if no frame since
// generation gen moved them or painted over them; "" otherwise (Due then
// gives the newer generation). The frames since gen have reached the
// terminal, so the cells they scrubbed are plain spaces again from the
// next frame.
func (s *Stage) Draw(gen uint64) string {
	if gen != s.gen || !s.mode.Staged() {
		return ""
	}
	s.scrub = nil
	var b strings.Builder
	for _, p := range s.want {
		if q, ok := s.shown[p.key()]; ok && q == p {
			continue
		}
		k, ok := s.known[p.ID]
		if !ok {
			continue
		}
		if s.mode == KittyDirect {
			if !s.sent[p.ID] {
				// After the frame too: a frame that clears the screen
				// (a resize) frees the pictures not placed yet.
				b.WriteString(k.r.staged.transmit)
				s.sent[p.ID] = true
			}
			writePlacement(&b, k, p)
			s.shown[p.key()] = p
			continue
		}
		seq, err := k.r.staged.rows(k.r, p.Row, p.Rows)
		if err != nil || seq == "" {
			continue
		}
		b.WriteString("\x1b7")
		b.WriteString(ansi.CursorPosition(p.X+1, p.Y+1))
		b.WriteString(seq)
		b.WriteString("\x1b8")
		s.shown[p.key()] = p
	}
	return b.String()
}

// Frame takes the composed frame and returns the frame for the terminal
// (the markers made blank cells) and what to write at once: the deletion
// of kitty placements. Pictures are drawn later (Due, Draw).
func (s *Stage) Frame(frame string) (string, string) {
	if !s.mode.Staged() {
		return frame, ""
	}
	hasMarks := strings.ContainsRune(frame, markerBase) || strings.ContainsRune(frame, markerFill)
	if !hasMarks && len(s.shown) == 0 && len(s.want) == 0 && len(s.scrub) == 0 {
		s.lines = nil
		return frame, ""
	}
	s.tick++
	lines := strings.Split(frame, "\n")
	var rows []markedRow
	if hasMarks {
		rows = s.findRows(lines)
	}
	want := s.place(rows, len(lines))
	out := lines
	if hasMarks {
		out = blankMarkers(lines, rows)
	}
	changed := !slices.Equal(want, s.want)
	s.want = want
	var now string
	if s.mode == KittyDirect {
		now = s.kittyUpdate()
	} else if s.leaveScrubbed(out) {
		changed = true
	}
	if changed {
		s.gen++
	}
	s.lines = out
	return strings.Join(out, "\n"), now
}

// markedRow is a row of a picture found in the frame: its first cell's
// place (Y a line, X a cell, at byte off of the line), the picture row it
// is, and how many marker cells follow in a run, itself included.
type markedRow struct {
	id       uint32
	row      int
	x, y     int
	off, run int
	drawn    bool
}

// findRows finds every picture row in the frame.
func (s *Stage) findRows(lines []string) []markedRow {
	var rows []markedRow
	for y, line := range lines {
		for off := 0; off < len(line); {
			i := strings.IndexRune(line[off:], markerBase)
			if i < 0 {
				break
			}
			i += off
			id, row, n := readMarks(line[i+utf8.RuneLen(markerBase):])
			end := i + utf8.RuneLen(markerBase) + n
			run := 1
			for strings.HasPrefix(line[end:], string(markerFill)) {
				run++
				end += utf8.RuneLen(markerFill)
			}
			rows = append(rows, markedRow{id: id, row: row, x: ansi.StringWidth(line[:i]), y: y, off: i, run: run})
			off = end
		}
	}
	return rows
}

// readMarks reads the row and id the combining marks after a markerBase
// carry, and how many bytes they take; a row of -1 when they are not all
// there.
func readMarks(s string) (id uint32, row, n int) {
	var v uint64
	for range markNibbles {
		r, size := utf8.DecodeRuneInString(s[n:])
		if r < markFirst || r > markFirst+0xf {
			return 0, -1, n
		}
		v = v<<4 | uint64(r-markFirst)
		n += size
	}
	return uint32(v), int(v >> 32), n
}

// place turns the rows found into placements: runs of whole rows (every
// cell of the row on screen) of one picture, one under the other, each
// the next row of the picture. Rows that would reach the last line of
// the screen are left out: a terminal moves the cursor below a sixel or
// inline image, and below the last line means scrolling.
func (s *Stage) place(rows []markedRow, height int) []Placement {
	var out []Placement
	count := map[uint32]int{}
	for i := 0; i < len(rows); i++ {
		first := &rows[i]
		k, ok := s.known[first.id]
		if !ok {
			if s.gone[first.id] {
				delete(s.gone, first.id)
				s.missing = true
			}
			continue
		}
		if first.drawn || first.row < 0 || first.run != k.r.Cols || first.row >= k.r.Rows {
			continue
		}
		k.seen = s.tick
		first.drawn = true
		p := Placement{ID: first.id, X: first.x, Y: first.y, Row: first.row, Rows: 1, Cols: k.r.Cols}
		// The next rows of the run: on the next lines, at the same place.
		for j := i + 1; j < len(rows); j++ {
			r := &rows[j]
			if r.y > first.y+p.Rows {
				break
			}
			if r.y == first.y+p.Rows && r.id == p.ID && r.x == p.X && r.row == p.Row+p.Rows && r.run == k.r.Cols && !r.drawn {
				if s.mode != KittyDirect && r.y >= height-1 {
					break
				}
				r.drawn = true
				p.Rows++
			}
		}
		if s.mode != KittyDirect && p.Y >= height-1 {
			first.drawn = false
			continue
		}
		p.N = count[p.ID]
		count[p.ID]++
		out = append(out, p)
	}
	return out
}

// nbsp is what a drawn picture cell becomes: blank on screen, but not to
// the renderer.
const nbsp = "\u00a0"

// blankMarkers returns the lines with every marker cell made a no-break
// space (rows drawn) or a space (the rest).
func blankMarkers(lines []string, rows []markedRow) []string {
	out := slices.Clone(lines)
	k := 0
	for y, line := range lines {
		if k >= len(rows) || rows[k].y != y {
			if strings.ContainsRune(line, markerFill) {
				out[y] = strings.ReplaceAll(line, string(markerFill), " ")
			}
			continue
		}
		var b strings.Builder
		b.Grow(len(line))
		fillAs, fillLeft := " ", 0
		for i := 0; i < len(line); {
			if k < len(rows) && rows[k].y == y && rows[k].off == i {
				fillAs = " "
				if rows[k].drawn {
					fillAs = nbsp
				}
				b.WriteString(fillAs)
				_, _, n := readMarks(line[i+utf8.RuneLen(markerBase):])
				i += utf8.RuneLen(markerBase) + n
				fillLeft = rows[k].run - 1
				k++
				continue
			}
			r, size := utf8.DecodeRuneInString(line[i:])
			switch {
			case r == markerFill && fillLeft > 0:
				b.WriteString(fillAs)
				fillLeft--
			case r == markerFill:
				b.WriteByte(' ')
			default:
				b.WriteString(line[i : i+size])
			}
			i += size
		}
		out[y] = b.String()
	}
	return out
}

// leaveScrubbed scrubs out (the frame for the terminal, changed in place)
// where pictures left, and drops the pictures the renderer will paint over;
// it reports whether it dropped any. Scrubbing changes cells too, which
// may paint over more pictures: it goes on until none is left to drop.
func (s *Stage) leaveScrubbed(out []string) bool {
	scrubLines(out, s.scrub)
	dropped := false
	for s.paintedOver(out) {
		dropped = true
		scrubLines(out, s.scrub)
	}
	return dropped
}

// paintedOver drops from the shown set the sixel and inline images the
// renderer will paint over going from the last frame to this one: those
// whose rows change on both sides of them, or within them (it paints a
// line from its first changed cell to its last), or whose lines are gone.
// Their cells are scrubbed (leave). It reports whether it dropped any.
func (s *Stage) paintedOver(out []string) bool {
	dropped := false
	for _, p := range s.sorted(s.shown) {
		for y := p.Y; y < p.Y+p.Rows; y++ {
			over := y >= len(out) || y >= len(s.lines)
			if !over {
				c0, c1, diff := changedCells(s.lines[y], out[y])
				over = diff && c0 < p.X+p.Cols && c1 >= p.X
			}
			if over {
				delete(s.shown, p.key())
				s.leave(p)
				dropped = true
				break
			}
		}
	}
	return dropped
}

// changedCells is the span of cells from the first to the last that differ
// between two versions of a line, found from the bytes where they start
// and stop differing.
func changedCells(old, cur string) (first, last int, diff bool) {
	if old == cur {
		return 0, 0, false
	}
	i := 0
	for i < len(old) && i < len(cur) && old[i] == cur[i] {
		i++
	}
	j := 0
	for j < len(old)-i && j < len(cur)-i && old[len(old)-1-j] == cur[len(cur)-1-j] {
		j++
	}
	// Back to the start of the character (or escape) the difference is in.
	for i > 0 && !utf8.RuneStart(cur[i]) {
		i--
	}
	first = ansi.StringWidth(cur[:i])
	last = max(first, ansi.StringWidth(cur[:len(cur)-j]))
	return first, last, true
}

// kittyUpdate deletes the placements of the pictures the frame no longer
// shows.
func (s *Stage) kittyUpdate() string {
	var b strings.Builder
	wanted := map[placeKey]bool{}
	for _, p := range s.want {
		wanted[p.key()] = true
	}
	for _, p := range s.sorted(s.shown) {
		if !wanted[p.key()] {
			writeDeletePlacement(&b, p)
			delete(s.shown, p.key())
		}
	}
	return b.String()
}

// writePlacement places rows p.Row to p.Row+p.Rows-1 of kitty picture k
// with its top-left cell at p's, the cursor kept where it was.
func writePlacement(b *strings.Builder, k *knownPic, p Placement) {
	st := k.r.staged
	b.WriteString("\x1b7")
	b.WriteString(ansi.CursorPosition(p.X+1, p.Y+1))
	b.WriteString("\x1b_Ga=p,i=")
	b.WriteString(strconv.FormatUint(uint64(p.ID), 10))
	b.WriteString(",p=")
	b.WriteString(strconv.Itoa(p.N + 1))
	b.WriteString(",c=")
	b.WriteString(strconv.Itoa(k.r.Cols))
	b.WriteString(",r=")
	b.WriteString(strconv.Itoa(p.Rows))
	if p.Row > 0 || p.Rows < k.r.Rows {
		y0, y1 := p.Row*st.ph/k.r.Rows, (p.Row+p.Rows)*st.ph/k.r.Rows
		b.WriteString(",y=")
		b.WriteString(strconv.Itoa(y0))
		b.WriteString(",h=")
		b.WriteString(strconv.Itoa(max(1, y1-y0)))
	}
	b.WriteString(",C=1,q=2\x1b\\\x1b8")
}

// sorted is the placements of m in a fixed order, so what is written does
// not depend on map order.
func (s *Stage) sorted(m map[placeKey]Placement) []Placement {
	out := make([]Placement, 0, len(m))
	for _, p := range m {
		out = append(out, p)
	}
	slices.SortFunc(out, func(a, b Placement) int {
		if a.ID != b.ID {
			return int(int64(a.ID) - int64(b.ID))
		}
		return a.N - b.N
	})
	return out
}

// writeDeletePlacement deletes one kitty placement and keeps the picture.
func writeDeletePlacement(b *strings.Builder, p Placement) {
	b.WriteString("\x1b_Ga=d,d=i,i=")
	b.WriteString(strconv.FormatUint(uint64(p.ID), 10))
	b.WriteString(",p=")
	b.WriteString(strconv.Itoa(p.N + 1))
	b.WriteString(",q=2\x1b\\")
}
