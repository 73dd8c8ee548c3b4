package filepicker

import (
	"bytes"
	"context"
	"errors"
	"io"
	"os"
	"path/filepath"
	"syscall"

	tea "charm.land/bubbletea/v2"

	"parley/media"
)

// What a file is comes from its first bytes, never its name: the rule
// api.Attach applies (media.Sniff for the four image formats,
// media.IsTextHead for UTF-8 text), so a row never promises what attaching
// would refuse.

// fileKind is what a file's first bytes say it is.
type fileKind uint8

const (
	// kindUnknown: not looked at yet (or it could not be read); the
	// attach itself decides.
	kindUnknown fileKind = iota
	kindImage
	kindText
	// kindEmpty and kindBinary cannot be attached; entry.why says why.
	kindEmpty
	kindBinary
)

// attachable reports whether a file of this kind may be chosen.
func (k fileKind) attachable() bool { return k != kindEmpty && k != kindBinary }

// label is the kind's word in the row.
func (k fileKind) label() string {
	switch k {
	case kindImage:
		return "image"
	case kindText:
		return "text"
	case kindEmpty:
		return "empty"
	case kindBinary:
		return "binary"
	}
	return ""
}

// Bounds of the looking.
const (
	// sniffBytes is what the list reads of each file: enough for
	// media.Sniff, media.IsTextHead and media.DescribeContent.
	sniffBytes = 512
	// firstSniff is how many files the folder read looks at before the
	// folder shows, so the first screen comes with its kinds.
	firstSniff = 64
	// sniffBatch is how many files one background command looks at; each
	// batch's kinds reach the list in one update.
	sniffBatch = 512
)

// classify says what head, the first bytes of a file, is; for a file that
// cannot be attached, why, in the words api.Attach uses.
func classify(head []byte) (fileKind, string) {
	switch {
	case len(head) == 0:
		return kindEmpty, "it is empty"
	case media.Sniff(head) != "":
		return kindImage, ""
	case media.IsTextHead(head):
		return kindText, ""
	case bytes.HasPrefix(head, []byte{0xff, 0xfe}) || bytes.HasPrefix(head, []byte{0xfe, 0xff}):
		return kindBinary, "it is text in UTF-16, which parley does not send; save it as UTF-8"
	}
	if what := media.DescribeContent(head); what != "" {
		return kindBinary, "it is " + what + ", neither a PNG, JPEG, WEBP or GIF image nor a text file"
	}
	return kindBinary, "it holds binary data, neither a PNG, JPEG, WEBP or GIF image nor a text file"
}

// readHead reads at most n bytes from the start of the regular file at
// path. It opens without waiting (a FIFO swapped in for the file cannot
// block it) and checks what it opened; it never reads more than n.
func readHead(path string, n int) (head []byte, size int64, err error) {
	f, err := os.OpenFile(path, os.O_RDONLY|syscall.O_NONBLOCK, 0)
	if err != nil {
		return nil, 0, err
	}
	defer f.Close()
	st, err := f.Stat()
	if err != nil {
		return nil, 0, err
	}
	if !st.Mode().IsRegular() {
		return nil, 0, errNotRegular
	}
	buf := make([]byte, min(int64(n), st.Size()))
	k, err := io.ReadFull(f, buf)
	if err != nil && !errors.Is(err, io.ErrUnexpectedEOF) {
		return nil, 0, err
	}
	return buf[:k], st.Size(), nil
}

var errNotRegular = errors.New("not a regular file")

// sniffed is what one file turned out to be.
type sniffed struct {
	name string
	kind fileKind
	why  string
}

// sniff looks at the first bytes of each named file of dir, stopping when
// ctx ends; the files it did not reach, or could not read, stay unknown.
func sniff(ctx context.Context, dir string, names []string) []sniffed {
	out := make([]sniffed, 0, len(names))
	for _, name := range names {
		if ctx.Err() != nil {
			break
		}
		s := sniffed{name: name}
		if head, _, err := readHead(filepath.Join(dir, name), sniffBytes); err == nil {
			s.kind, s.why = classify(head)
		}
		out = append(out, s)
	}
	return out
}

// sniffedMsg brings the kinds of a batch of files of the folder read gen;
// stopped says the batch ran out of time (a slow network drive), and the
// files after it are left unknown.
type sniffedMsg struct {
	p       *Picker
	gen     int
	found   []sniffed
	stopped bool
}

// sniffRest looks, in a command, at the next batch of the listed files
// whose kind is unknown, in the order of the list; nil when none is left.
func (p *Picker) sniffRest() tea.Cmd {
	items := p.list.Items()
	var names []string
	i := p.sniffAt
	for ; i < len(items) && len(names) < sniffBatch; i++ {
		if e := items[i]; !e.dir && e.kind == kindUnknown {
			names = append(names, e.name)
		}
	}
	p.sniffAt = i
	if len(names) == 0 {
		return nil
	}
	gen, dir, parent, timeout := p.gen, p.dir, p.opts.Context, p.opts.ReadTimeout
	return func() tea.Msg {
		ctx, cancel := context.WithTimeout(parent, timeout)
		defer cancel()
		found := sniff(ctx, dir, names)
		return sniffedMsg{p: p, gen: gen, found: found, stopped: len(found) < len(names)}
	}
}

// applyKinds gives the listed files the kinds found, in one list update.
func (p *Picker) applyKinds(found []sniffed) {
	byName := make(map[string]sniffed, len(found))
	for _, s := range found {
		if s.kind != kindUnknown {
			byName[s.name] = s
		}
	}
	if len(byName) == 0 {
		return
	}
	items := p.list.Items()
	out := make([]entry, len(items))
	copy(out, items)
	for i, e := range out {
		if s, ok := byName[e.name]; ok && !e.dir {
			out[i].kind, out[i].why = s.kind, s.why
		}
	}
	p.list.SetItems(out)
}
