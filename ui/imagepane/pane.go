package imagepane

import (
	"slices"
	"strconv"

	"parley/api"
	"parley/conversation"
	"parley/internal/bytesize"
	"parley/ui/cells"
	"parley/ui/list"
	"parley/ui/uictx"
)

// Pane is the image pane. Make it with New; the zero value has no context.
type Pane struct {
	ctx  *uictx.Context
	dirs Dirs

	items []Item
	rows  []row // what the list shows of each item, made in setItems
	gen   int   // grows with every setItems, for the caches
	// list holds the rows, the selection (its cursor: an index into
	// items) and the scroll; Draw gives it its size.
	list list.Model[row]

	// The rectangle and the focus of the next Draw (SetSize, Show).
	w, h    int
	focused bool

	// What the chat showed (Show): the items are made from it, and an
	// action finds an image's bytes in it. src says which state of it the
	// items were made from.
	conv    *conversation.Conversation
	pending []api.Attachment
	src     source

	// pv is the selected image's preview: what it needs, what was asked
	// for, what is shown (picture.go).
	pv previewState

	errKey, errText string // setPreviewError

	prompt  *savePrompt // open while the user types where to save
	compSeq uint64      // numbers completions: a late answer is dropped

	cache drawCache
}

// Dirs are the folders the save prompt works with.
type Dirs struct {
	// Home is what "~" stands for in the prompt; "" leaves "~" alone.
	Home string
	// Work is where a relative path starts.
	Work string
	// Save is the folder the prompt suggests (say, ~/Pictures).
	Save string
}

// row is the list's text for one item, sanitised once.
type row struct {
	key    string // the item's Key
	marker string
	name   string // sanitised display name
	pixels string // "1024×1024", "" when unknown
	bytes  string // bytesize.Format, "" when unknown
}

// New returns an empty pane that reads sizes, styles and keys from ctx;
// its save prompt works with the folders of d (the caller knows them: the
// pane opens in Update, which reads no environment and no file system).
// With previews false (images = "off") it asks for no preview.
func New(ctx *uictx.Context, d Dirs, previews bool) *Pane {
	l := list.New(ctx, list.Options[row]{
		ID:     func(r row) string { return r.key },
		Render: func(r list.Row[row]) string { return listRow(ctx, r) },
	})
	l.SetSize(1, 10) // until Draw says how tall it is
	return &Pane{ctx: ctx, dirs: d, list: l, pv: previewState{on: previews}}
}

// setItems replaces the images. They are shown newest first (by Created,
// then in the given order); an item whose Key came earlier in items is
// left out. The selection stays on the same Key when that image is still
// there, else on the same row. An open save prompt closes when its image
// is gone.
func (p *Pane) setItems(items []Item) {
	prev, hadPrev := p.Selected()
	seen := make(map[string]bool, len(items))
	sorted := make([]Item, 0, len(items))
	for _, it := range items {
		if seen[it.Key] {
			continue
		}
		seen[it.Key] = true
		sorted = append(sorted, it)
	}
	slices.SortStableFunc(sorted, func(a, b Item) int { return b.Created.Compare(a.Created) })
	p.items = sorted
	p.rows = make([]row, len(sorted))
	for i, it := range sorted {
		p.rows[i] = makeRow(it)
	}
	p.gen++
	// The list keeps the selection on the same key, else on the same row.
	p.list.SetItems(p.rows)
	if hadPrev {
		p.list.Select(prev.Key)
	}
	if p.prompt != nil && p.index(p.prompt.key) < 0 {
		p.closePrompt()
	}
}

func makeRow(it Item) row {
	r := row{key: it.Key, marker: it.Origin.marker(), name: cells.OneLine(it.DisplayName())}
	if it.Width > 0 && it.Height > 0 {
		r.pixels = strconv.Itoa(it.Width) + "×" + strconv.Itoa(it.Height)
	}
	if it.Bytes > 0 {
		r.bytes = bytesize.Format(int64(it.Bytes))
	}
	return r
}

// Len is the number of images.
func (p *Pane) Len() int { return len(p.items) }

// Selected returns the selected image; false when there is none.
func (p *Pane) Selected() (Item, bool) {
	if i := p.sel(); i < len(p.items) {
		return p.items[i], true
	}
	return Item{}, false
}

// sel is the index of the selected item (0 when there are none).
func (p *Pane) sel() int { return p.list.Cursor() }

// Select selects the image with this key; false when there is none.
func (p *Pane) Select(key string) bool {
	i := p.index(key)
	if i < 0 {
		return false
	}
	p.list.SetCursor(i)
	return true
}

func (p *Pane) index(key string) int {
	return slices.IndexFunc(p.items, func(it Item) bool { return it.Key == key })
}

// setPreviewError says the selected item's preview could not be made;
// Draw shows text where the preview goes while key is selected and no
// preview is given. An empty text clears it.
func (p *Pane) setPreviewError(key, text string) {
	p.errKey, p.errText = key, text
	if text == "" {
		p.errKey = ""
	}
}

// closePrompt closes the save prompt and stops its completion.
func (p *Pane) closePrompt() {
	if p.prompt != nil {
		p.prompt.stop()
		p.prompt = nil
	}
}

// PromptOpen reports whether the save prompt is open (keys go to it).
func (p *Pane) PromptOpen() bool { return p.prompt != nil }
