package ui

import (
	"context"
	"strconv"
	"strings"
	"time"

	tea "charm.land/bubbletea/v2"
	"charm.land/lipgloss/v2"

	"parley/session"
	"parley/ui/cells"
	"parley/ui/keys"
	"parley/ui/uictx"
)

// sessionsLayer is the session browser: every saved session, newest first;
// typing filters their titles and searches every message (full text); a
// session or a message opens with enter. Sessions can be renamed, deleted
// (after a confirmation) and a new conversation started.
type sessionsLayer struct {
	ctx     *uictx.Context
	store   *session.Store
	current string // id of the conversation on screen
	now     func() time.Time

	w, h  int
	query string
	all   []session.Meta // every session, newest first
	shown []session.Meta // those whose title matches the query
	hits  []session.Hit  // messages matching the query
	// searchGen numbers searches: a late answer for an older query is
	// dropped.
	searchGen int
	loaded    bool
	err       string

	cursor, offset int
	// mode: browsing, renaming (input holds the new title) or confirming
	// a delete.
	mode  browserMode
	input string

	view    string
	viewKey string
	dirty   bool
}

type browserMode int

const (
	browsing browserMode = iota
	renaming
	confirmingDelete
)

// Messages of the browser's background work.
type (
	sessionsListedMsg struct {
		metas []session.Meta
		err   error
	}
	sessionsSearchedMsg struct {
		gen  int
		hits []session.Hit
		err  error
	}
	sessionsChangedMsg struct {
		what string
		err  error
	}
)

// minSearch is the shortest query that searches messages (one letter
// would match most of them).
const minSearch = 2

func newSessionsLayer(ctx *uictx.Context, store *session.Store, current string, now func() time.Time) (*sessionsLayer, tea.Cmd) {
	l := &sessionsLayer{ctx: ctx, store: store, current: current, now: now, dirty: true}
	return l, l.list()
}

func (l *sessionsLayer) name() string     { return "sessions" }
func (l *sessionsLayer) full() bool       { return true }
func (l *sessionsLayer) setSize(w, h int) { l.w, l.h, l.dirty = w, h, true }

func (l *sessionsLayer) hints() []uictx.Hint {
	km := &l.ctx.Keys
	switch l.mode {
	case renaming:
		return []uictx.Hint{{Key: "type", Desc: "new title"}, {Key: keyOf(km.Select), Desc: "save"}, {Key: keyOf(km.Close), Desc: "cancel"}}
	case confirmingDelete:
		return []uictx.Hint{{Key: "y", Desc: "delete"}, {Key: "n", Desc: "keep"}}
	}
	return []uictx.Hint{{Key: "type", Desc: "filter and search"}, {Key: keyOf(km.Select), Desc: "open"}, {Key: "ctrl+e", Desc: "rename"}, {Key: "ctrl+d", Desc: "delete"}, {Key: "ctrl+l", Desc: "new"}, {Key: keyOf(km.Close), Desc: "close"}}
}

// list reads every session in the background.
func (l *sessionsLayer) list() tea.Cmd {
	store := l.store
	return func() tea.Msg {
		ctx, cancel := context.WithTimeout(context.Background(), storeTimeout)
		defer cancel()
		metas, err := store.List(ctx, 0, 0)
		return sessionsListedMsg{metas: metas, err: err}
	}
}

// search looks for the query in every message, in the background.
func (l *sessionsLayer) search() tea.Cmd {
	l.searchGen++
	q := strings.TrimSpace(l.query)
	if len([]rune(q)) < minSearch {
		l.hits = nil
		return nil
	}
	gen, store := l.searchGen, l.store
	// The word being typed matches every word it starts.
	if !strings.HasSuffix(q, "\"") && !strings.HasSuffix(q, "*") {
		q += "*"
	}
	return func() tea.Msg {
		ctx, cancel := context.WithTimeout(context.Background(), storeTimeout)
		defer cancel()
		hits, err := store.Search(ctx, q, 50)
		return sessionsSearchedMsg{gen: gen, hits: hits, err: err}
	}
}

// filter keeps the sessions whose title (or preview) has every word of the
// query.
func (l *sessionsLayer) filter() {
	words := strings.Fields(strings.ToLower(l.query))
	l.shown = l.shown[:0:0]
	for _, s := range l.all {
		hay := strings.ToLower(s.Title + " " + s.ID)
		ok := true
		for _, w := range words {
			if !strings.Contains(hay, w) {
				ok = false
				break
			}
		}
		if ok {
			l.shown = append(l.shown, s)
		}
	}
	l.cursor, l.offset = 0, 0
}

func (l *sessionsLayer) rows() int { return len(l.shown) + len(l.hits) }

func (l *sessionsLayer) update(msg tea.Msg) (tea.Cmd, result) {
	l.dirty = true
	switch msg := msg.(type) {
	case sessionsListedMsg:
		l.loaded = true
		if msg.err != nil {
			l.err = msg.err.Error()
			return nil, nil
		}
		l.all, l.err = msg.metas, ""
		l.filter()
		return nil, nil
	case sessionsSearchedMsg:
		if msg.gen != l.searchGen {
			return nil, nil
		}
		if msg.err != nil {
			l.err = msg.err.Error()
			return nil, nil
		}
		l.hits = msg.hits
		l.cursor = min(l.cursor, max(l.rows()-1, 0))
		return nil, nil
	case sessionsChangedMsg:
		if msg.err != nil {
			l.err = msg.err.Error()
			return nil, nil
		}
		return tea.Batch(l.list(), l.search()), nil
	case tea.KeyPressMsg:
		return l.key(msg)
	case tea.PasteMsg:
		if l.mode == renaming {
			l.input += cells.Fold(msg.Content)
		} else if l.mode == browsing {
			l.query += cells.Fold(msg.Content)
			l.filter()
			return l.search(), nil
		}
	}
	return nil, nil
}

func (l *sessionsLayer) key(msg tea.KeyPressMsg) (tea.Cmd, result) {
	k := msg.Keystroke()
	km := &l.ctx.Keys
	switch l.mode {
	case renaming:
		switch {
		case keys.Matches(msg, km.Close):
			l.mode = browsing
		case keys.Matches(msg, km.Select):
			l.mode = browsing
			return l.rename(strings.TrimSpace(l.input))
		case k == "backspace":
			l.input = dropLastRune(l.input)
		case msg.Text != "":
			l.input += msg.Text
		}
		return nil, nil
	case confirmingDelete:
		l.mode = browsing
		if k == "y" {
			return l.deleteSelected()
		}
		return nil, nil
	}
	switch {
	case keys.Matches(msg, km.Close):
		return nil, closeLayer{}
	case keys.Matches(msg, km.Select):
		return nil, l.open()
	case keys.Matches(msg, km.ListUp):
		l.move(-1)
	case keys.Matches(msg, km.ListDown):
		l.move(1)
	case k == "pgup":
		l.move(-max(l.bodyRows()/2, 1))
	case k == "pgdown":
		l.move(max(l.bodyRows()/2, 1))
	case k == "ctrl+e":
		if s, ok := l.selectedSession(); ok {
			l.mode, l.input = renaming, s.Title
		}
	case k == "ctrl+d":
		if _, ok := l.selectedSession(); ok {
			l.mode = confirmingDelete
		}
	case keys.Matches(msg, km.NewConversation):
		return nil, newConversationAsked{}
	case k == "backspace":
		l.query = dropLastRune(l.query)
		l.filter()
		return l.search(), nil
	case k == "ctrl+u":
		l.query = ""
		l.filter()
		return l.search(), nil
	case msg.Text != "":
		l.query += msg.Text
		l.filter()
		return l.search(), nil
	}
	return nil, nil
}

func (l *sessionsLayer) move(n int) {
	if rows := l.rows(); rows > 0 {
		l.cursor = max(min(l.cursor+n, rows-1), 0)
	}
}

// selectedSession is the session under the cursor (a session row, or the
// session of a message row).
func (l *sessionsLayer) selectedSession() (session.Meta, bool) {
	if l.cursor < len(l.shown) {
		return l.shown[l.cursor], true
	}
	if i := l.cursor - len(l.shown); i < len(l.hits) {
		for _, s := range l.all {
			if s.ID == l.hits[i].SessionID {
				return s, true
			}
		}
	}
	return session.Meta{}, false
}

// open is enter: the session, or the session of a message scrolled to it.
func (l *sessionsLayer) open() result {
	id, jump := "", 0
	switch {
	case l.cursor < len(l.shown):
		id = l.shown[l.cursor].ID
	case l.cursor-len(l.shown) < len(l.hits):
		h := l.hits[l.cursor-len(l.shown)]
		id, jump = h.SessionID, h.MessageID
	default:
		return nil
	}
	return sessionChosen{id: id, jump: jump}
}

func (l *sessionsLayer) rename(title string) (tea.Cmd, result) {
	s, ok := l.selectedSession()
	if !ok || title == "" {
		return nil, nil
	}
	store, id := l.store, s.ID
	cmd := func() tea.Msg {
		ctx, cancel := context.WithTimeout(context.Background(), storeTimeout)
		defer cancel()
		return sessionsChangedMsg{what: "renamed", err: store.Rename(ctx, id, title)}
	}
	return cmd, sessionRenamed{id: id, title: title}
}

func (l *sessionsLayer) deleteSelected() (tea.Cmd, result) {
	s, ok := l.selectedSession()
	if !ok {
		return nil, nil
	}
	store, id := l.store, s.ID
	cmd := func() tea.Msg {
		ctx, cancel := context.WithTimeout(context.Background(), storeTimeout)
		defer cancel()
		_, err := store.Delete(ctx, id)
		return sessionsChangedMsg{what: "deleted", err: err}
	}
	return cmd, sessionDeleted{id: id, title: s.Title}
}

// bodyRows is the rows the list has below the title and the query.
func (l *sessionsLayer) bodyRows() int { return max(l.h-4, 1) }

func (l *sessionsLayer) draw() (string, int, int) {
	key := strconv.Itoa(l.w) + "x" + strconv.Itoa(l.h) + "/" + strconv.Itoa(l.ctx.StyleGen)
	if l.dirty || key != l.viewKey {
		l.viewKey, l.dirty = key, false
		l.view = l.render()
	}
	return l.view, 0, 0
}

func (l *sessionsLayer) render() string {
	st := l.ctx.Styles
	w, h := max(l.w, 1), max(l.h, 1)
	title := "Sessions"
	if l.loaded {
		title += " · " + strconv.Itoa(len(l.all))
	}
	lines := []string{st.OverlayTitle.Render(cells.Fit(" "+title, w))}
	switch l.mode {
	case renaming:
		lines = append(lines, st.PickerFilter.Render(cells.Fit(" new title: "+cells.OneLine(l.input)+"▏", w)))
	case confirmingDelete:
		s, _ := l.selectedSession()
		lines = append(lines, st.Warning.Render(cells.Fit(" delete “"+cells.OneLine(s.Title)+"” and its messages? y deletes, any other key keeps it", w)))
	default:
		lines = append(lines, st.PickerFilter.Render(cells.Fit(" search: "+cells.OneLine(l.query)+"▏", w)))
	}
	lines = append(lines, cells.Spaces(w))
	body := l.body(w)
	rows := l.bodyRows()
	// Keep the cursor's row in sight.
	at := l.rowLine(l.cursor)
	if at < l.offset {
		l.offset = at
	} else if at+2 > l.offset+rows {
		l.offset = at + 2 - rows
	}
	l.offset = max(min(l.offset, len(body)-rows), 0)
	end := min(l.offset+rows, len(body))
	lines = append(lines, body[l.offset:end]...)
	if l.err != "" {
		lines = append(lines, st.Error.Render(cells.Fit(" "+cells.Fold(l.err), w)))
	}
	return cells.Block(lines, w, h)
}

// rowLine is the first line of row i in the body.
func (l *sessionsLayer) rowLine(i int) int {
	if i < len(l.shown) {
		return i * 2
	}
	line := len(l.shown) * 2
	if len(l.shown) > 0 {
		line++ // the blank line between the sections
	}
	return line + 1 + (i-len(l.shown))*2
}

// body is every row of the list, two lines each: sessions, then messages.
func (l *sessionsLayer) body(w int) []string {
	st := l.ctx.Styles
	var out []string
	if !l.loaded {
		return []string{st.Muted.Render(cells.Fit(" reading the history…", w))}
	}
	if len(l.shown) == 0 && len(l.hits) == 0 {
		msg := " no saved session yet: every conversation is kept here as you chat"
		if l.query != "" {
			msg = " nothing matches “" + cells.OneLine(l.query) + "”"
		}
		return []string{st.Muted.Render(cells.Fit(msg, w))}
	}
	for i, s := range l.shown {
		out = append(out, l.sessionRow(s, i == l.cursor, w)...)
	}
	if len(l.hits) > 0 {
		if len(out) > 0 {
			out = append(out, cells.Spaces(w))
		}
		out = append(out, st.OverlayTitle.Render(cells.Fit(" Messages with “"+cells.OneLine(strings.TrimSpace(l.query))+"”", w)))
		for i, hit := range l.hits {
			out = append(out, l.hitRow(hit, len(l.shown)+i == l.cursor, w)...)
		}
	}
	return out
}

func (l *sessionsLayer) sessionRow(s session.Meta, selected bool, w int) []string {
	st := l.ctx.Styles
	title := cells.OneLine(s.Title)
	if title == "" {
		title = "(untitled)"
	}
	if s.ID == l.current {
		title += " · open"
	}
	info := cells.OneLine(s.Model)
	if info != "" {
		info += " · "
	}
	info += l.when(s.Updated) + " · " + strconv.Itoa(s.Messages) + " " + plural(s.Messages, "message", "messages")
	if s.HasDraft {
		info += " · draft"
	}
	return l.twoLines(title, info, cells.OneLine(s.Preview), nil, selected, w, st.Text)
}

func (l *sessionsLayer) hitRow(h session.Hit, selected bool, w int) []string {
	st := l.ctx.Styles
	title := cells.OneLine(h.SessionTitle)
	if title == "" {
		title = "(untitled)"
	}
	return l.twoLines(title, h.Role+" · "+l.when(h.Created), "", session.SplitSnippet(h.Snippet), selected, w, st.Muted)
}

// twoLines draws a row: a title with its details on the right, and a
// muted second line (a preview, or a snippet with its matches marked).
func (l *sessionsLayer) twoLines(title, info, second string, spans []session.Span, selected bool, w int, titleStyle lipgloss.Style) []string {
	st := l.ctx.Styles
	mark := "  "
	if selected {
		mark = "▸ "
	}
	infoW := min(cells.Width(info), max(w/2, 10))
	left := cells.Fit(mark+title, max(w-infoW-2, 1))
	first := left + "  " + cells.Fit(info, max(w-cells.Width(left)-2, 0))
	var line2 string
	if spans != nil {
		var b strings.Builder
		used := 4
		b.WriteString(cells.Spaces(4))
		for _, sp := range spans {
			t := cells.Fold(sp.Text)
			room := w - used
			if room <= 0 {
				break
			}
			t = cells.Truncate(t, room)
			used += cells.Width(t)
			if sp.Hit {
				b.WriteString(st.PickerMatch.Render(t))
			} else {
				b.WriteString(st.Muted.Render(t))
			}
		}
		line2 = cells.Fit(b.String(), w)
	} else {
		line2 = st.Muted.Render(cells.Fit("    "+second, w))
	}
	if selected {
		return []string{st.PickerSelected.UnsetPaddingLeft().Render(cells.Fit(first, w)), line2}
	}
	return []string{titleStyle.Render(first), line2}
}

// when shows a time the short way: the hour today, the day this year, the
// date before.
func (l *sessionsLayer) when(t time.Time) string {
	now := l.now()
	t = t.Local()
	switch {
	case t.Year() == now.Year() && t.YearDay() == now.YearDay():
		return t.Format("15:04")
	case t.Year() == now.Year():
		return t.Format("Jan 2")
	}
	return t.Format("2006-01-02")
}

func dropLastRune(s string) string {
	r := []rune(s)
	if len(r) == 0 {
		return s
	}
	return string(r[:len(r)-1])
}

// openSessions opens the browser (history must be on).
func (m *Model) openSessions() tea.Cmd {
	if m.hist.Store == nil {
		return m.notify(m.hist.off().Error(), toastInfo)
	}
	l, cmd := newSessionsLayer(m.ctx, m.hist.Store, m.conv.ID(), m.now)
	m.layers.push(l)
	return tea.Batch(cmd, m.hist.saveDraft(m.conv.ID(), &m.comp))
}
