package browser

import (
	"context"
	"time"

	tea "charm.land/bubbletea/v2"

	"parley/session"
	"parley/ui/lineedit"
	"parley/ui/list"
	"parley/ui/uictx"
)

// Store is what the browser needs of the history: *session.Store.
type Store interface {
	List(ctx context.Context, limit, offset int) ([]session.Meta, error)
	Search(ctx context.Context, query string, limit int) ([]session.Hit, error)
	Rename(ctx context.Context, id, title string) error
	Delete(ctx context.Context, ids ...string) (int, error)
}

// Defaults of Options.
const (
	// DefaultDebounce is how long typing must rest before a search starts.
	DefaultDebounce = 150 * time.Millisecond
	// DefaultSearchTimeout bounds one full-text search.
	DefaultSearchTimeout = 3 * time.Second
	// DefaultStoreTimeout bounds listing, renaming and deleting.
	DefaultStoreTimeout = 10 * time.Second
)

// minSearch is the shortest query that searches messages (one letter
// would match most of them); maxHits is how many message hits are shown.
const (
	minSearch = 2
	maxHits   = 50
)

// Options are the browser's arguments.
type Options struct {
	// Store is the history; required.
	Store Store
	// Current is the id of the conversation on screen (marked "open").
	Current string
	// Now is the clock for "15:04", "Jan 2" or a date; nil means time.Now.
	Now func() time.Time
	// Context is the parent of every store call: cancelling it stops the
	// browser's work (the root may cancel it when it drops the browser
	// without an esc). nil means context.Background().
	Context context.Context
	// Debounce, SearchTimeout and StoreTimeout: 0 means the defaults.
	Debounce, SearchTimeout, StoreTimeout time.Duration
}

// Action is what a Result asks of the root.
type Action int

// The actions.
const (
	// None: nothing for the root to do.
	None Action = iota
	// Close the browser (esc).
	Close
	// Open SessionID, scrolled to message Jump (0: to the end), and close
	// the browser.
	Open
	// NewConversation: close the browser and start a new conversation.
	NewConversation
	// Renamed: the store renamed SessionID to Title. The browser stays
	// open; if it is the conversation on screen, the root sets its title.
	Renamed
	// Deleted: the store deleted SessionID (Title names it for a notice).
	// The browser stays open; if it was the conversation on screen, the
	// root starts a new one so nothing more is written under its id.
	Deleted
)

// Result is what Update returns: data the root acts on.
type Result struct {
	Action    Action
	SessionID string
	Jump      int
	Title     string
}

// mode is what the input line is for.
type mode int

const (
	browsing mode = iota
	renaming
	confirmingDelete
)

// Browser is the sessions browser. Make it with New.
type Browser struct {
	ctx  *uictx.Context
	opts Options

	list   list.Model[entry]
	filter lineedit.Model
	rename lineedit.Model
	mode   mode

	all    []session.Meta // every session, newest first
	hits   []session.Hit  // messages matching the query of hitsFor
	hitsOf string
	loaded bool

	// searchGen numbers queries: a debounce tick or an answer for an
	// older one is dropped. cancel stops the running query.
	searchGen int
	cancel    context.CancelFunc
	searching bool
	timedOut  bool

	err string // the last failure, one sanitised line

	w, h  int
	rev   int // grows with every change; View is cached by it
	view  viewCache
	hints uictx.HintCache
}

type viewCache struct {
	rev, gen int
	ok       bool
	out      string
}

// New returns the browser over opts.Store and the command that reads
// the sessions.
func New(ctx *uictx.Context, opts Options) (*Browser, tea.Cmd) {
	if opts.Now == nil {
		opts.Now = time.Now
	}
	if opts.Context == nil {
		opts.Context = context.Background()
	}
	if opts.Debounce <= 0 {
		opts.Debounce = DefaultDebounce
	}
	if opts.SearchTimeout <= 0 {
		opts.SearchTimeout = DefaultSearchTimeout
	}
	if opts.StoreTimeout <= 0 {
		opts.StoreTimeout = DefaultStoreTimeout
	}
	b := &Browser{ctx: ctx, opts: opts}
	b.list = list.New(ctx, b.listOptions())
	b.list.SetStatus("reading the history…")
	b.filter = lineedit.New(ctx, lineedit.Options{Prompt: " search: ", Placeholder: "type to filter titles and search every message"})
	b.rename = lineedit.New(ctx, lineedit.Options{Prompt: " new title: "})
	return b, b.listCmd()
}

// SetSize sets the area the browser draws in (the whole screen).
func (b *Browser) SetSize(w, h int) {
	b.w, b.h = max(w, 0), max(h, 0)
	b.layout()
}

// Hints are the keys that work now, for the root's hint line; the
// browser draws them on its bottom row too.
func (b *Browser) Hints() []uictx.Hint {
	km := &b.ctx.Keys
	switch b.mode {
	case renaming:
		return []uictx.Hint{{Key: uictx.KeyOf(km.Select, "enter"), Desc: "save"}, {Key: "ctrl+u", Desc: "clear"}, {Key: uictx.KeyOf(km.Close, "esc"), Desc: "cancel"}}
	case confirmingDelete:
		return []uictx.Hint{{Key: "y", Desc: "delete"}, {Key: "any other key", Desc: "keep"}}
	}
	// Typing needs no hint: the filter's placeholder says it.
	return []uictx.Hint{
		{Key: uictx.KeyOf(km.Select, "enter"), Desc: "open"},
		{Key: renameKey, Desc: "rename"},
		{Key: deleteKey, Desc: "delete"},
		{Key: uictx.KeyOf(km.NewConversation, "ctrl+l"), Desc: "new"},
		{Key: uictx.KeyOf(km.Close, "esc"), Desc: "close"},
	}
}

// The browser's own keys (see the package documentation for why).
const (
	renameKey = "ctrl+r"
	deleteKey = "ctrl+x"
)
