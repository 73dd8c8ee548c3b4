package filepicker

import (
	"context"
	"path/filepath"
	"time"

	tea "charm.land/bubbletea/v2"

	"parley/ui/lineedit"
	"parley/ui/list"
	"parley/ui/uictx"
)

// Defaults of Options.
const (
	// DefaultMaxEntries bounds a folder read: a huge folder still opens at
	// once, with the first ones.
	DefaultMaxEntries = 5000
	// DefaultReadTimeout bounds a folder read (a hung network mount).
	DefaultReadTimeout = 3 * time.Second
)

// Options are the picker's arguments.
type Options struct {
	// Dir is the folder it opens in.
	Dir string
	// Home is what "~" stands for ("" leaves "~" alone).
	Home string
	// Previews: show a preview of the highlighted file beside the list
	// (an image's is rendered by the root, as the Results ask; a text
	// file's first lines by the picker). Off, the list takes the whole
	// width.
	Previews bool
	// Context is the parent of every folder read; nil means
	// context.Background().
	Context context.Context
	// ReadTimeout and MaxEntries: 0 means the defaults.
	ReadTimeout time.Duration
	MaxEntries  int
	// MaxTextBytes is the largest text file a message takes
	// (attach_max_text_bytes): a larger one is shown as too large and
	// refused here, with the attach's sentence. 0 leaves it to the attach.
	MaxTextBytes int64
}

// Action is what a Result asks of the root.
type Action int

// The actions.
const (
	// None: nothing for the root to do (see Result.Preview).
	None Action = iota
	// Close the picker (esc).
	Close
	// Attach Paths to the next message and close the picker; Dir is the
	// folder they came from, to open in next time.
	Attach
)

// Result is what Update returns: data the root acts on.
type Result struct {
	Action Action
	Paths  []string
	Dir    string
	// Preview, when not nil, asks the root to render an image for the
	// preview and to hand the lines back in a PreviewMsg.
	Preview *PreviewRequest
}

// PreviewRequest asks for the image at Path drawn into W×H cells.
type PreviewRequest struct {
	Path string
	W, H int
}

// PreviewMsg is the root's answer to a PreviewRequest: exactly H lines of
// exactly W cells (the root's renderer's output), or why there are none.
type PreviewMsg struct {
	PreviewRequest
	Lines []string
	Err   error
}

// Picker is the file picker. Make it with New.
type Picker struct {
	ctx  *uictx.Context
	opts Options

	dir    string
	list   list.Model[entry]
	filter lineedit.Model
	marked map[string]bool // full paths chosen with space, in any folder

	gen     int // numbers folder reads: a late one is dropped
	loading bool
	err     string // why the last read or enter failed
	note    string // a folder read only in part

	asked   PreviewRequest // the last request handed to the root
	preview PreviewMsg     // the last answer

	sniffAt int     // the list's next item to look at in the background
	peeking string  // the file whose first bytes are being read for a preview
	peeked  peekMsg // the last answer

	w, h    int
	status  []string // the status area's lines, made by layout
	statusH int
	rev     int
	view    viewCache
	hints   uictx.HintCache
}

type viewCache struct {
	rev, gen int
	ok       bool
	out      string
}

// New returns the picker and the command that reads its first folder.
func New(ctx *uictx.Context, opts Options) (*Picker, tea.Cmd) {
	if opts.Context == nil {
		opts.Context = context.Background()
	}
	if opts.ReadTimeout <= 0 {
		opts.ReadTimeout = DefaultReadTimeout
	}
	if opts.MaxEntries <= 0 {
		opts.MaxEntries = DefaultMaxEntries
	}
	p := &Picker{ctx: ctx, opts: opts, marked: map[string]bool{}}
	p.list = list.New(ctx, list.Options[entry]{
		Text:   func(e entry) string { return e.name },
		ID:     func(e entry) string { return e.name },
		Typing: true,
		Empty:  "no files or folders here (backspace goes up)",
		Render: func(r list.Row[entry]) string { return renderEntry(ctx, r) },
	})
	p.filter = lineedit.New(ctx, lineedit.Options{Prompt: " filter: ", Placeholder: "type to filter, or a path: / ~/ ./", Limit: 4096})
	return p, p.read(filepath.Clean(opts.Dir), false)
}

// SetSize sets the area the picker draws in (the whole screen).
func (p *Picker) SetSize(w, h int) {
	p.w, p.h = max(w, 0), max(h, 0)
	p.layout()
}

// Hints are the keys that work now, for the root's hint line; the
// picker draws them on its bottom row too.
func (p *Picker) Hints() []uictx.Hint {
	km := &p.ctx.Keys
	enter, esc := uictx.KeyOf(km.Select, "enter"), uictx.KeyOf(km.Close, "esc")
	if _, ok := p.typedPath(); ok {
		return []uictx.Hint{{Key: enter, Desc: "open the path"}, {Key: "ctrl+u", Desc: "clear"}, {Key: esc, Desc: "cancel"}}
	}
	return []uictx.Hint{
		{Key: enter, Desc: "attach / open folder"},
		{Key: "space", Desc: "choose several"},
		{Key: "backspace", Desc: "up a folder"},
		{Key: esc, Desc: "cancel"},
	}
}
