package desktop

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"strings"
	"unicode/utf8"

	"parley/internal/bytesize"
)

// maxTypesBytes bounds a tool's list of clipboard types: real lists are a
// few hundred bytes.
const maxTypesBytes = 64 << 10

// typedTool is a clipboard tool that lists the types the clipboard offers
// and then reads one of them: wl-paste and xclip.
type typedTool struct {
	name, path string
	list       []string                             // arguments that list the types
	read       func(typ string, text bool) []string // arguments that read one type
	hint       string                               // what to run to see why it failed
	// empty are fragments of the tool's stderr when nothing is copied, and
	// gone when a type went away between listing and reading.
	empty, gone []string
}

// wlPaste reads the clipboard on Wayland.
func wlPaste(path string) typedTool {
	return typedTool{
		name: "wl-paste", path: path,
		list: []string{"--list-types"},
		read: func(typ string, text bool) []string {
			if text {
				return []string{"--no-newline", "--type", typ}
			}
			return []string{"--type", typ}
		},
		hint:  `run "wl-paste --list-types" in a terminal to see why`,
		empty: []string{"Nothing is copied", "No selection"},
		gone:  []string{"No suitable type of content copied", "not available as requested type"},
	}
}

// xclipRead reads the CLIPBOARD selection on X11.
func xclipRead(path string) typedTool {
	return typedTool{
		name: "xclip", path: path,
		list: []string{"-selection", "clipboard", "-t", "TARGETS", "-o"},
		read: func(typ string, _ bool) []string {
			return []string{"-selection", "clipboard", "-t", typ, "-o"}
		},
		hint:  `run "xclip -selection clipboard -t TARGETS -o" in a terminal to see why`,
		empty: []string{"target TARGETS not available", "There is no owner"},
		gone:  []string{"not available", "cannot convert"},
	}
}

func (s System) readWayland(ctx context.Context) (Clip, error) {
	if p := s.find("wl-paste"); p != "" {
		return s.readTyped(ctx, wlPaste(p))
	}
	// XWayland keeps the X11 clipboard in step, so xclip works as well.
	if s.getenv("DISPLAY") != "" {
		if p := s.find("xclip"); p != "" {
			return s.readTyped(ctx, xclipRead(p))
		}
	}
	return Clip{}, newError(ErrNoTool, "cannot read the clipboard: install wl-clipboard (wl-paste) for Wayland")
}

func (s System) readX11(ctx context.Context) (Clip, error) {
	if p := s.find("xclip"); p != "" {
		return s.readTyped(ctx, xclipRead(p))
	}
	return Clip{}, newError(ErrNoTool, "cannot read the clipboard: install xclip for X11")
}

func emptyError() error {
	return newError(ErrEmpty, "the clipboard is empty; copy a screenshot or some text first")
}

func changedError() error {
	return errors.New("cannot read the clipboard: it changed while parley was reading it; paste again")
}

// readTyped lists the clipboard's types, picks one (see choose) and reads it.
func (s System) readTyped(ctx context.Context, t typedTool) (Clip, error) {
	out, err := s.run(ctx, tool{name: t.name, path: t.path, args: t.list, limit: maxTypesBytes})
	switch {
	case stderrHas(err, t.empty):
		return Clip{}, emptyError()
	case errors.Is(err, errTooMuch):
		return Clip{}, fmt.Errorf("cannot read the clipboard: %s listed more types than parley reads (%s); copy again", t.name, bytesize.Format(maxTypesBytes))
	case err != nil:
		return Clip{}, readFailed(err, t.hint)
	}
	types := parseTypes(out)
	if len(types) == 0 {
		return Clip{}, emptyError()
	}
	p := choose(types)
	limit := int64(MaxTextBytes)
	if p.kind == pickImage {
		limit = s.maxImage()
	}
	if p.kind == pickNone {
		shown := types[:min(len(types), 6)]
		return Clip{}, fmt.Errorf("cannot paste the clipboard: it holds neither an image nor text (it offers %s); copy a screenshot or some text",
			excerpt([]byte(strings.Join(shown, ", "))))
	}
	read := tool{name: t.name, path: t.path, args: t.read(p.typ, p.kind != pickImage), limit: limit}
	if p.kind == pickImage {
		read.head = imageHead(t.name)
	}
	data, err := s.run(ctx, read)
	switch {
	case errors.Is(err, errTooMuch) && p.kind == pickImage:
		return Clip{}, s.tooLargeImage()
	case errors.Is(err, errTooMuch):
		return Clip{}, tooMuchText()
	case stderrHas(err, t.gone), stderrHas(err, t.empty):
		return Clip{}, changedError()
	case err != nil:
		return Clip{}, readFailed(err, t.hint)
	}
	switch p.kind {
	case pickImage:
		if len(data) == 0 {
			return Clip{}, fmt.Errorf("cannot paste the clipboard's image: %s gave no data for %s; copy it again", t.name, p.typ)
		}
		return Clip{Image: data, Tool: t.name}, nil
	case pickURIs:
		data = dropURIComments(data)
	case pickLatin1:
		data = latin1(data)
	}
	if len(data) == 0 {
		return Clip{}, emptyError()
	}
	return Clip{Text: string(data), Tool: t.name}, nil
}

// stderrHas reports whether err is a *ToolError whose stderr contains one
// of the fragments.
func stderrHas(err error, fragments []string) bool {
	var te *ToolError
	if !errors.As(err, &te) {
		return false
	}
	low := strings.ToLower(te.Stderr)
	for _, f := range fragments {
		if strings.Contains(low, strings.ToLower(f)) {
			return true
		}
	}
	return false
}

// parseTypes reads one type per line, without blanks or repeats.
func parseTypes(out []byte) []string {
	var types []string
	seen := map[string]bool{}
	for _, l := range strings.Split(string(out), "\n") {
		l = strings.TrimSpace(l)
		if l != "" && !seen[l] {
			seen[l] = true
			types = append(types, l)
		}
	}
	return types
}

type pickKind int

const (
	pickNone   pickKind = iota
	pickImage           // an image/* type
	pickText            // UTF-8 text
	pickLatin1          // X11 STRING: ISO 8859-1 text
	pickURIs            // text/uri-list: copied files, as file:// URLs
)

type pick struct {
	kind pickKind
	typ  string // as the clipboard spells it
}

// choose picks what to read. Plain text wins over an image when both are
// offered, for the reason ReadClipboard gives; an image wins over a list of
// URLs alone (a browser's "Copy Image" may add the image's address). Copied
// files (text/uri-list) win over plain text: the list is percent-encoded,
// so names with spaces survive, where the plain text of a file manager's
// copy is paths that break at spaces. Images go PNG first (what screenshot
// tools offer, lossless), then JPEG, WEBP, GIF and any other image/* type
// (sniffed, and refused if parley cannot send it).
func choose(types []string) pick {
	norm := func(t string) string { return strings.ToLower(strings.ReplaceAll(t, " ", "")) }
	find := func(wants ...string) (string, bool) {
		for _, want := range wants {
			for _, t := range types {
				if norm(t) == want {
					return t, true
				}
			}
		}
		return "", false
	}
	text, textOK := find("text/plain;charset=utf-8", "utf8_string", "text/plain")
	latin, latinOK := find("string", "text")
	uris, urisOK := find("text/uri-list")
	img, imgOK := find("image/png", "image/jpeg", "image/jpg", "image/webp", "image/gif")
	if !imgOK {
		for _, t := range types {
			if strings.HasPrefix(norm(t), "image/") {
				img, imgOK = t, true
				break
			}
		}
	}
	switch {
	case urisOK && (textOK || latinOK || !imgOK):
		return pick{pickURIs, uris}
	case textOK:
		return pick{pickText, text}
	case latinOK:
		return pick{pickLatin1, latin}
	case imgOK:
		return pick{pickImage, img}
	}
	return pick{}
}

// dropURIComments removes the comment lines a text/uri-list may carry.
func dropURIComments(b []byte) []byte {
	if !bytes.Contains(b, []byte("#")) {
		return b
	}
	var out [][]byte
	for _, l := range bytes.Split(b, []byte("\n")) {
		if !bytes.HasPrefix(bytes.TrimSpace(l), []byte("#")) {
			out = append(out, l)
		}
	}
	return bytes.Join(out, []byte("\n"))
}

// latin1 converts ISO 8859-1 to UTF-8, leaving text that is already UTF-8
// (as many X11 apps send for STRING anyway) alone.
func latin1(b []byte) []byte {
	if utf8.Valid(b) {
		return b
	}
	out := make([]byte, 0, len(b)*2)
	for _, c := range b {
		out = utf8.AppendRune(out, rune(c))
	}
	return out
}
