package browser

import (
	"context"
	"errors"
	"strings"
	"time"

	tea "charm.land/bubbletea/v2"

	"parley/session"
)

// Messages of the browser's background work. Each carries the browser
// it belongs to, so a late message reaching a newer browser is dropped.
type (
	listedMsg struct {
		b     *Browser
		metas []session.Meta
		err   error
	}
	searchDueMsg struct {
		b   *Browser
		gen int
	}
	searchedMsg struct {
		b        *Browser
		gen      int
		query    string
		hits     []session.Hit
		err      error
		timedOut bool
	}
	changedMsg struct {
		b      *Browser
		action Action
		id     string
		title  string
		err    error
	}
)

// listCmd reads every session.
func (b *Browser) listCmd() tea.Cmd {
	store, parent, timeout := b.opts.Store, b.opts.Context, b.opts.StoreTimeout
	return func() tea.Msg {
		ctx, cancel := context.WithTimeout(parent, timeout)
		defer cancel()
		metas, err := store.List(ctx, 0, 0)
		return listedMsg{b: b, metas: metas, err: err}
	}
}

// query is what the filter searches for ("" when too short to search).
func (b *Browser) query() string {
	q := strings.TrimSpace(b.filter.Value())
	if len([]rune(q)) < minSearch {
		return ""
	}
	return q
}

// queryChanged stops the running search and, when the query is long
// enough, starts the debounce: the search runs when typing rests.
func (b *Browser) queryChanged() tea.Cmd {
	b.stopSearch()
	b.hits, b.hitsOf, b.timedOut, b.err = nil, "", false, ""
	b.setItems()
	if b.query() == "" {
		return nil
	}
	b.searching = true
	b.layout()
	gen := b.searchGen
	return tea.Tick(b.opts.Debounce, func(_ time.Time) tea.Msg { return searchDueMsg{b: b, gen: gen} })
}

// stopSearch cancels the running query (its answer will be dropped) and
// any debounce waiting.
func (b *Browser) stopSearch() {
	b.searchGen++
	if b.cancel != nil {
		b.cancel()
		b.cancel = nil
	}
	b.searching = false
}

// searchCmd runs the query now. The word being typed matches every word
// it starts.
func (b *Browser) searchCmd() tea.Cmd {
	q := b.query()
	if q == "" {
		b.searching = false
		return nil
	}
	fts := q
	if !strings.HasSuffix(fts, "\"") && !strings.HasSuffix(fts, "*") {
		fts += "*"
	}
	ctx, cancel := context.WithTimeout(b.opts.Context, b.opts.SearchTimeout)
	b.cancel = cancel
	gen, store := b.searchGen, b.opts.Store
	return func() tea.Msg {
		defer cancel()
		hits, err := store.Search(ctx, fts, maxHits)
		timedOut := errors.Is(ctx.Err(), context.DeadlineExceeded)
		return searchedMsg{b: b, gen: gen, query: q, hits: hits, err: err, timedOut: timedOut}
	}
}

// renameCmd renames session id in the store.
func (b *Browser) renameCmd(id, title string) tea.Cmd {
	store, parent, timeout := b.opts.Store, b.opts.Context, b.opts.StoreTimeout
	return func() tea.Msg {
		ctx, cancel := context.WithTimeout(parent, timeout)
		defer cancel()
		return changedMsg{b: b, action: Renamed, id: id, title: title, err: store.Rename(ctx, id, title)}
	}
}

// deleteCmd deletes session id (titled title) from the store.
func (b *Browser) deleteCmd(id, title string) tea.Cmd {
	store, parent, timeout := b.opts.Store, b.opts.Context, b.opts.StoreTimeout
	return func() tea.Msg {
		ctx, cancel := context.WithTimeout(parent, timeout)
		defer cancel()
		_, err := store.Delete(ctx, id)
		return changedMsg{b: b, action: Deleted, id: id, title: title, err: err}
	}
}
