package mdstream

import (
	"github.com/yuin/goldmark/parser"
	"github.com/yuin/goldmark/util"
)

// refContext resolves link references for one run of blocks parsed on its
// own. CommonMark link reference definitions are document-wide (the first
// definition of a label wins, wherever it is), so a block rendered alone
// must see the definitions of the rest of the message. It records the
// labels looked up so that a cached block is rendered again only when the
// definition it used changes.
type refContext struct {
	parser.Context
	table   *refTable
	start   int // source offset of the blocks being parsed
	lookups []string
}

func (c *refContext) reset() {
	c.Context = parser.NewContext()
	c.lookups = c.lookups[:0]
}

// Reference implements parser.Context: definitions before these blocks,
// then their own, then those after them. The table may be a frame old: a
// run that was just finished sees the definitions that followed it only
// after Doc.refreshRefs, which renders it again if that changes anything.
func (c *refContext) Reference(label string) (parser.Reference, bool) {
	c.lookups = append(c.lookups, label)
	if e, ok := c.table.get(label); ok && e.pos < c.start {
		return e.ref, true
	}
	if r, ok := c.Context.Reference(label); ok {
		return r, true
	}
	if e, ok := c.table.get(label); ok && e.pos > c.start {
		return e.ref, true
	}
	return nil, false
}

type refEntry struct {
	ref parser.Reference
	pos int
}

// refTable holds the first definition of each label in the message, with
// the source offset of the run of blocks that defines it.
type refTable struct {
	m map[string]refEntry
}

func (t *refTable) get(label string) (refEntry, bool) {
	if t == nil || t.m == nil {
		return refEntry{}, false
	}
	e, ok := t.m[label]
	return e, ok
}

func (t *refTable) add(pos int, defs []parser.Reference) {
	if len(defs) == 0 {
		return
	}
	if t.m == nil {
		t.m = make(map[string]refEntry)
	}
	for _, d := range defs {
		k := util.ToLinkReference(d.Label())
		if _, ok := t.m[k]; !ok {
			t.m[k] = refEntry{ref: d, pos: pos}
		}
	}
}

// signature describes how the looked-up labels resolve for blocks starting
// at start whose own definitions are own; equal signatures render alike.
func (t *refTable) signature(lookups []string, start int, own []parser.Reference) string {
	if len(lookups) == 0 {
		return ""
	}
	b := make([]byte, 0, 64)
	for _, l := range lookups {
		var r parser.Reference
		if e, ok := t.get(l); ok && e.pos < start {
			r = e.ref
		} else if o := findRef(own, l); o != nil {
			r = o
		} else if ok && e.pos > start {
			r = e.ref
		}
		b = append(b, l...)
		b = append(b, 0)
		if r != nil {
			b = append(b, r.Destination()...)
			b = append(b, 0)
			b = append(b, r.Title()...)
		}
		b = append(b, 1)
	}
	return string(b)
}

func findRef(defs []parser.Reference, label string) parser.Reference {
	for _, d := range defs {
		if util.ToLinkReference(d.Label()) == label {
			return d
		}
	}
	return nil
}
