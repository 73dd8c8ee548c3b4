package overlay

import (
	"strings"

	tea "charm.land/bubbletea/v2"

	"parley/termsafe"
	"parley/ui/cells"
	"parley/ui/uictx"
)

// PickerItem is one entry of a picker.
type PickerItem struct {
	// Value is what the root gets back when the item is chosen: a model
	// name, a theme name. It is returned exactly as given (not sanitised), so
	// it is right for requests and config; sanitise it before displaying it
	// anywhere else.
	Value string
	// Title is shown and filtered on (NewPicker sanitises it; Value when empty).
	Title string
	// Detail is muted text after the title (provider, "gateway", "user theme").
	Detail string
	// Badges are short capability tags, most important first; the least
	// important are dropped first when the row is narrow.
	Badges []Badge
	// Current marks the item in use when the picker opened (●). The picker
	// opens with it selected, and a cancelled live picker returns it.
	Current bool
	// Custom is set on the item synthesised from the filter text in a
	// picker with AllowCustom: the user typed a value that is not listed.
	Custom bool
}

// BadgeKind picks a badge's colour.
type BadgeKind int

// Badge kinds.
const (
	BadgeInfo BadgeKind = iota
	BadgeVision
	BadgeImageGen
	BadgeImageEdit
	BadgeUsage
)

// Badge is a short tag shown at the end of an item's row.
type Badge struct {
	Kind  BadgeKind
	Text  string // "vision"
	Short string // used when the row is narrow ("vis"); Text when empty
}

// PickerOptions configure a picker.
type PickerOptions struct {
	// Title is set into the box's top border ("Model", "Theme").
	Title string
	// Live makes every change of the selected item return PickerPreview
	// (theme picker: the root applies the theme at once).
	Live bool
	// AllowCustom offers the filter text itself as a last choice when no
	// item's title equals it (a model the catalog does not list).
	AllowCustom bool
	// CustomDetail is the muted text on that choice ("use this model name").
	CustomDetail string
	// Empty is shown when there are no items at all.
	Empty string
}

// PickerAction tells the root what a key press in the picker asks for.
type PickerAction int

// Picker actions.
const (
	// PickerNone: nothing for the root to do (the filter or selection moved).
	PickerNone PickerAction = iota
	// PickerPreview: a live picker's selection moved to Item; apply it
	// without committing (keep the picker open).
	PickerPreview
	// PickerChoose: the user chose Item; close the picker and apply it.
	PickerChoose
	// PickerCancel: close the picker. In a live picker Item is the item that
	// was current when it opened (the zero item if none was): re-apply it to
	// undo the previews.
	PickerCancel
)

// PickerResult is returned by every Picker.Update.
type PickerResult struct {
	Action PickerAction
	Item   PickerItem
}

// Picker is a filterable list in a centred box: type to filter, move with
// the list keys, enter to choose, esc to cancel.
type Picker struct {
	ctx  *uictx.Context
	opts PickerOptions

	items   []PickerItem
	titles  []string // sanitised one-line titles
	folded  [][]rune // titles case-folded for filtering
	query   string
	matches []match // filtered items, best first
	custom  bool    // a custom entry follows the matches
	cursor  int     // index into the rows (matches, then custom)
	offset  int     // first visible row

	current int // index of the item that was current at open, -1 if none
	shown   int // item index last returned as a preview, -1 if none

	loading string // status while more items are on their way
	errLine string // sanitised one-line error (gateway list failed)

	width, height int
}

// NewPicker returns a picker over items. ctx is read at every View (theme
// and keys may change while the picker is open); it must not be nil.
func NewPicker(ctx *uictx.Context, items []PickerItem, opts PickerOptions) Picker {
	p := Picker{ctx: ctx, opts: opts, current: -1, shown: -1}
	p.setItems(items)
	for i, it := range p.items {
		if it.Current {
			p.current = i
			p.shown = i
			break
		}
	}
	p.refilter()
	if p.current >= 0 {
		p.cursor = p.rowOf(p.current)
	}
	return p
}

// setItems stores items with their display text made safe and one line.
func (p *Picker) setItems(items []PickerItem) {
	p.items = make([]PickerItem, len(items))
	p.titles = make([]string, len(items))
	p.folded = make([][]rune, len(items))
	for i, it := range items {
		if it.Title == "" {
			it.Title = it.Value
		}
		it.Title = cells.OneLine(it.Title)
		it.Detail = cells.OneLine(it.Detail)
		badges := make([]Badge, len(it.Badges))
		for j, b := range it.Badges {
			badges[j] = Badge{Kind: b.Kind, Text: cells.OneLine(b.Text), Short: cells.OneLine(b.Short)}
		}
		it.Badges = badges
		p.items[i] = it
		p.titles[i] = it.Title
		p.folded[i] = lowerRunes(it.Title)
	}
}

// SetSize sets the area the picker draws in (the whole screen, or the
// transcript's area). Call it on open and on every resize.
func (p *Picker) SetSize(width, height int) {
	p.width, p.height = max(width, 0), max(height, 0)
	p.scrollToCursor()
}

// Items returns the picker's items (titles sanitised).
func (p Picker) Items() []PickerItem { return append([]PickerItem(nil), p.items...) }

// Query returns the filter text.
func (p Picker) Query() string { return p.query }

// Selected returns the highlighted item, false when nothing matches.
func (p Picker) Selected() (PickerItem, bool) {
	return p.itemAt(p.cursor)
}

// SetLoading shows a status line (e.g. "asking the gateway for models…")
// until SetItems or SetError; "" removes it.
func (p *Picker) SetLoading(status string) { p.loading = cells.OneLine(status) }

// SetError shows err (sanitised, one line) in the picker; nil removes it.
func (p *Picker) SetError(err error) {
	p.loading = ""
	if err == nil {
		p.errLine = ""
		return
	}
	p.errLine = cells.OneLine(err.Error())
}

// SetItems replaces the items, keeping the filter and, when it is still
// there, the selected item.
func (p *Picker) SetItems(items []PickerItem) {
	sel, ok := p.Selected()
	p.loading = ""
	p.setItems(items)
	p.current = -1
	for i, it := range p.items {
		if it.Current {
			p.current = i
			break
		}
	}
	p.refilter()
	if ok {
		for r := range p.rowCount() {
			if it, _ := p.itemAt(r); it.Value == sel.Value && it.Custom == sel.Custom {
				p.cursor = r
				break
			}
		}
	}
	// The selected item is what a live picker shows now; indexes changed.
	p.shown = -1
	if p.cursor < len(p.matches) {
		p.shown = p.matches[p.cursor].index
	}
	p.scrollToCursor()
}

// refilter recomputes the matches for the query and puts the cursor on the
// best match.
func (p *Picker) refilter() {
	p.matches = filterItems(p.folded, p.query)
	p.custom = false
	if p.opts.AllowCustom && strings.TrimSpace(p.query) != "" {
		p.custom = true
		for _, t := range p.titles {
			if t == strings.TrimSpace(p.query) {
				p.custom = false
				break
			}
		}
	}
	p.cursor, p.offset = 0, 0
}

func (p Picker) rowCount() int {
	n := len(p.matches)
	if p.custom {
		n++
	}
	return n
}

// rowOf returns the row showing item index i, or 0.
func (p Picker) rowOf(i int) int {
	for r, m := range p.matches {
		if m.index == i {
			return r
		}
	}
	return 0
}

func (p Picker) itemAt(row int) (PickerItem, bool) {
	if row >= 0 && row < len(p.matches) {
		return p.items[p.matches[row].index], true
	}
	if p.custom && row == len(p.matches) {
		v := strings.TrimSpace(p.query)
		return PickerItem{Value: v, Title: v, Detail: p.opts.CustomDetail, Custom: true}, true
	}
	return PickerItem{}, false
}

// Update handles a key press (or pasted text, or the mouse wheel) and says
// what the root should do. The root handles its global keys (quit) before
// routing here.
func (p Picker) Update(msg tea.Msg) (Picker, PickerResult) {
	before := p.cursor
	beforeQuery := p.query
	switch msg := msg.(type) {
	case tea.KeyPressMsg:
		if res, done := p.handleKey(msg); done {
			return p, res
		}
	case tea.PasteMsg:
		p.typeText(msg.Content)
	case tea.MouseWheelMsg:
		switch msg.Button {
		case tea.MouseWheelUp:
			p.move(-1, false)
		case tea.MouseWheelDown:
			p.move(1, false)
		}
	default:
		return p, PickerResult{}
	}
	if p.query != beforeQuery {
		p.refilter()
	}
	p.scrollToCursor()
	if p.cursor != before || p.query != beforeQuery {
		return p, p.preview()
	}
	return p, PickerResult{}
}

// handleKey applies one key; done means res is final (choose, cancel).
func (p *Picker) handleKey(msg tea.KeyPressMsg) (res PickerResult, done bool) {
	lk := listKeysFor(p.ctx, true)
	switch {
	case lk.cancel(msg):
		res = PickerResult{Action: PickerCancel}
		if p.opts.Live && p.current >= 0 {
			res.Item = p.items[p.current]
		}
		return res, true
	case lk.choose(msg):
		if it, ok := p.Selected(); ok {
			return PickerResult{Action: PickerChoose, Item: it}, true
		}
		return PickerResult{}, true
	case lk.up(msg):
		p.move(-1, true)
	case lk.down(msg):
		p.move(1, true)
	case lk.pageUp(msg):
		p.move(-max(p.visibleRows()-1, 1), false)
	case lk.pageDown(msg):
		p.move(max(p.visibleRows()-1, 1), false)
	case lk.first(msg):
		p.cursor = 0
	case lk.last(msg):
		p.cursor = max(p.rowCount()-1, 0)
	default:
		p.editFilter(msg)
	}
	return PickerResult{}, false
}

// move steps the cursor by n rows. Single steps wrap around the ends (up on
// the first row goes to the last); page steps stop at the ends.
func (p *Picker) move(n int, wrap bool) {
	rows := p.rowCount()
	if rows == 0 {
		return
	}
	c := p.cursor + n
	switch {
	case wrap:
		c = ((c % rows) + rows) % rows
	case c < 0:
		c = 0
	case c >= rows:
		c = rows - 1
	}
	p.cursor = c
}

// editFilter applies a key that edits the filter text: printable text is
// appended; backspace deletes a character, ctrl+w (and alt+backspace) a
// word, ctrl+u everything.
func (p *Picker) editFilter(msg tea.KeyPressMsg) {
	switch msg.Keystroke() {
	case "backspace", "ctrl+h":
		r := []rune(p.query)
		if len(r) > 0 {
			p.query = string(r[:len(r)-1])
		}
		return
	case "ctrl+w", "alt+backspace":
		q := strings.TrimRight(p.query, " ")
		if i := strings.LastIndexAny(q, " -_/:."); i >= 0 {
			p.query = q[:i+1]
		} else {
			p.query = ""
		}
		return
	case "ctrl+u":
		p.query = ""
		return
	}
	if msg.Mod&(tea.ModCtrl|tea.ModAlt|tea.ModMeta|tea.ModSuper|tea.ModHyper) != 0 {
		return
	}
	p.typeText(msg.Text)
}

// typeText appends typed or pasted text to the filter, one line, no
// control characters.
func (p *Picker) typeText(s string) {
	if s == "" {
		return
	}
	s = strings.Map(func(r rune) rune {
		switch {
		case r == '\n' || r == '\r' || r == '\t':
			return ' '
		case r < 0x20 || r == 0x7f || (r >= 0x80 && r <= 0x9f):
			return -1
		}
		return r
	}, s)
	s = termsafe.Sanitize(s) // bidi controls and stray bytes
	if len(p.query)+len(s) > maxQuery {
		return
	}
	p.query += s
}

// maxQuery bounds the filter (a huge paste is not a search).
const maxQuery = 256

// preview returns PickerPreview when a live picker's selected item changed
// since the last preview.
func (p *Picker) preview() PickerResult {
	if !p.opts.Live || p.cursor >= len(p.matches) {
		return PickerResult{}
	}
	i := p.matches[p.cursor].index
	if i == p.shown {
		return PickerResult{}
	}
	p.shown = i
	return PickerResult{Action: PickerPreview, Item: p.items[i]}
}
