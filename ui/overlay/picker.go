package overlay

import (
	"fmt"
	"strings"

	tea "charm.land/bubbletea/v2"

	"parley/ui/cells"
	"parley/ui/lineedit"
	"parley/ui/list"
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
	// For is what the picker chooses for (a model for the chat, a theme,
	// a branch, …), the holder's own data: every result carries it back
	// (PickerResult.For), so one picker serves every purpose and the
	// holder tells them apart by it.
	For any
	// Wide lets the box grow past the usual width on a wide screen, for
	// rows whose titles are long texts (the branch list).
	Wide bool
	// KeepDetail cuts the title to leave room for the whole detail: in
	// pickers whose detail is what tells the rows apart, it must show.
	KeepDetail bool
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

// PickerResult is a picker's action (Picker.Update): what the user did,
// on which item, in a picker opened for what (PickerOptions.For).
type PickerResult struct {
	Action PickerAction
	Item   PickerItem
	For    any
}

// Picker is a filterable list in a centred box: type to filter, move with
// the list keys, enter to choose, esc to cancel. The rows are a ui/list
// and the filter a ui/lineedit.
type Picker struct {
	ctx  *uictx.Context
	opts PickerOptions

	items  []PickerItem // sanitised
	list   list.Model[pickerRow]
	filter lineedit.Model

	current int // index of the item that was current at open, -1 if none
	shown   int // item index last returned as a preview, -1 if none

	loading string // status while more items are on their way
	errLine string // sanitised one-line error (gateway list failed)

	width, height int
	cache         *pickerCache
	// models makes the rows of a model picker again when the gateway's
	// list arrives (nil in other pickers).
	models *ModelList
}

// pickerRow is what one row draws: the item, whether the rows have a
// column for the ● current marker (some item is current), and whether the
// title gives way to the detail.
type pickerRow struct {
	item       PickerItem
	curCol     bool
	keepDetail bool // PickerOptions.KeepDetail
}

// maxQuery bounds the filter (a huge paste is not a search).
const maxQuery = 256

// NewPicker returns a picker over items. ctx is read at every View (theme
// and keys may change while the picker is open); it must not be nil.
func NewPicker(ctx *uictx.Context, items []PickerItem, opts PickerOptions) Picker {
	p := Picker{ctx: ctx, opts: opts, current: -1, shown: -1, cache: &pickerCache{}}
	p.filter = lineedit.New(ctx, lineedit.Options{Prompt: "› ", Placeholder: "type to filter", Limit: maxQuery})
	p.setItems(items)
	for i, it := range p.items {
		if it.Current {
			p.current = i
			p.shown = i
			p.list.SetCursor(i)
			break
		}
	}
	return p
}

// setItems stores items with their display text made safe and one line,
// and makes the list over them (keeping the filter).
func (p *Picker) setItems(items []PickerItem) {
	p.items = make([]PickerItem, len(items))
	curCol := false
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
		curCol = curCol || it.Current
	}
	rows := make([]pickerRow, len(p.items))
	for i, it := range p.items {
		rows[i] = pickerRow{item: it, curCol: curCol, keepDetail: p.opts.KeepDetail}
	}
	titles := make(map[string]bool, len(p.items))
	for _, it := range p.items {
		titles[it.Title] = true
	}
	p.list = list.New(p.ctx, p.listOptions(curCol, titles))
	p.list.SetItems(rows)
	p.list.SetQuery(p.filter.Value())
	p.layout()
}

// listOptions says how the list filters and draws the picker's rows.
// The functions read only their arguments and ctx: a Picker is a value,
// and a closure over it would read a stale copy.
func (p *Picker) listOptions(curCol bool, titles map[string]bool) list.Options[pickerRow] {
	ctx, opts := p.ctx, p.opts
	o := list.Options[pickerRow]{
		Text:   func(r pickerRow) string { return r.item.Title },
		ID:     func(r pickerRow) string { return r.item.Value },
		Typing: true,
		Empty:  opts.Empty,
		Render: func(r list.Row[pickerRow]) string {
			return pickerRowView(lookFor(ctx), r.Item, r.Hits, r.Selected, r.Width)
		},
	}
	if o.Empty == "" {
		o.Empty = "nothing to choose from"
	}
	if opts.AllowCustom {
		o.Custom = func(q string) (pickerRow, bool) {
			v := strings.TrimSpace(q)
			if titles[v] {
				return pickerRow{}, false
			}
			return pickerRow{item: PickerItem{Value: v, Title: cells.OneLine(v), Detail: cells.OneLine(opts.CustomDetail), Custom: true}, curCol: curCol}, v != ""
		}
	}
	return o
}

// SetSize sets the area the picker draws in (the whole screen, or the
// transcript's area). Call it on open and on every resize.
func (p *Picker) SetSize(width, height int) {
	p.width, p.height = max(width, 0), max(height, 0)
	p.layout()
}

// layout hands the list and the filter their sizes; the geometry depends
// on the size, the items and the status lines.
func (p *Picker) layout() {
	bw, _, rows := p.geometry()
	cw := max(bw-4, 0)
	p.list.SetSize(cw, rows)
	empty := p.opts.Empty
	if empty == "" {
		empty = "nothing to choose from"
	}
	if p.loading != "" {
		empty = ""
	}
	p.list.SetEmpty(empty)
	p.filter.SetWidth(max(cw-len(p.count())-1, 0))
}

// Items returns the picker's items (titles sanitised).
func (p Picker) Items() []PickerItem { return append([]PickerItem(nil), p.items...) }

// Query returns the filter text.
func (p Picker) Query() string { return p.filter.Value() }

// Selected returns the highlighted item, false when nothing matches.
func (p Picker) Selected() (PickerItem, bool) {
	r, ok := p.list.Selected()
	return r.item, ok
}

// SetLoading shows a status line (e.g. "asking the gateway for models…")
// until SetItems or SetError; "" removes it.
func (p *Picker) SetLoading(status string) {
	p.loading = cells.OneLine(status)
	p.layout()
}

// SetError shows err (sanitised, one line) in the picker; nil removes it.
func (p *Picker) SetError(err error) {
	p.loading, p.errLine = "", ""
	if err != nil {
		p.errLine = cells.OneLine(err.Error())
	}
	p.layout()
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
	switch {
	case ok && sel.Custom:
		if last := p.list.Len() - 1; last >= 0 {
			p.list.SetCursor(last)
		}
	case ok:
		p.list.Select(sel.Value)
	}
	// The selected item is what a live picker shows now; indexes changed.
	p.shown = p.list.SelectedIndex()
}

// Update handles a key press (or pasted text, or the mouse wheel), or the
// gateway's model list of a model picker. Its action is a PickerResult
// when the user chose, cancelled or (live) moved to an item, and the list
// itself (ModelsListed) once the picker shows it.
func (p *Picker) Update(msg tea.Msg) (tea.Cmd, uictx.Action) {
	if ml, ok := msg.(ModelsListed); ok {
		if p.models == nil || ml.Asked != p.models.Asked {
			return nil, nil // the list of an earlier picker
		}
		if ml.Err != nil {
			// Said in the picker, and whole in the notices: the picker
			// may have too few rows for every word.
			ml.Err = fmt.Errorf("the gateway's model list is not available: %w", ml.Err)
			p.SetError(ml.Err)
			return nil, ml
		}
		p.SetItems(p.models.Items(ml.Models))
		return nil, ml
	}
	var res PickerResult
	*p, res = p.update(msg)
	if res.Action == PickerNone {
		return nil, nil
	}
	res.For = p.opts.For
	return nil, res
}

// Draw draws the box and says where it goes in the area.
func (p *Picker) Draw() (box string, x, y int) { return p.Box() }

// Hints are the keys of a filtered list.
func (p *Picker) Hints() []uictx.Hint {
	km := &p.ctx.Keys
	return []uictx.Hint{
		{Key: "type", Desc: "filter"},
		{Key: uictx.KeyOf(km.ListUp, "") + "/" + uictx.KeyOf(km.ListDown, ""), Desc: "move"},
		{Key: uictx.KeyOf(km.Select, ""), Desc: "choose"},
		{Key: uictx.KeyOf(km.Close, ""), Desc: "cancel"},
	}
}

// update handles a key press (or pasted text, or the mouse wheel) and
// says what the holder should do. The root handles its global keys (quit)
// before routing here.
func (p Picker) update(msg tea.Msg) (Picker, PickerResult) {
	switch msg := msg.(type) {
	case tea.KeyPressMsg:
		lk := listKeysFor(p.ctx, true)
		switch {
		case lk.cancel(msg):
			res := PickerResult{Action: PickerCancel}
			if p.opts.Live && p.current >= 0 {
				res.Item = p.items[p.current]
			}
			return p, res
		case lk.choose(msg):
			if it, ok := p.Selected(); ok {
				return p, PickerResult{Action: PickerChoose, Item: it}
			}
			return p, PickerResult{}
		default:
			// List keys first (home and end move in the list; ctrl+a and
			// ctrl+e in the filter), then the filter's editing keys.
			if !p.list.Update(msg) && p.filter.Update(msg) {
				p.list.SetQuery(p.filter.Value())
			}
		}
	case tea.PasteMsg:
		if p.filter.Update(msg) {
			p.list.SetQuery(p.filter.Value())
		}
	case tea.MouseWheelMsg:
		p.list.Update(msg)
	default:
		return p, PickerResult{}
	}
	p.layout() // the count's width may have changed
	return p, p.preview()
}

// preview returns PickerPreview when a live picker's selected item changed
// since the last preview.
func (p *Picker) preview() PickerResult {
	i := p.list.SelectedIndex()
	if !p.opts.Live || i < 0 || i == p.shown {
		return PickerResult{}
	}
	p.shown = i
	return PickerResult{Action: PickerPreview, Item: p.items[i]}
}
