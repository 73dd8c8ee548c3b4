package columns

import (
	"strconv"

	tea "charm.land/bubbletea/v2"

	"parley/ui/uictx"
)

// Kind is what the user asked of the compare view.
type Kind int

const (
	// None: nothing for the owner to do.
	None Kind = iota
	// Pick: go on from the reply ID; the others stay alternatives.
	Pick
	// Stop: stop the reply ID (the focused column); the others go on.
	Stop
	// Close: leave the view without a pick (the conversation goes on from
	// the first column's reply).
	Close
)

// Action is what a key asked of the owner.
type Action struct {
	Kind Kind
	ID   int
}

// Key handles a key of the compare view: done says every reply ended,
// bodyH is the height of the columns' answers (for paging). It reports
// whether the view took the key; one it did not take is the owner's
// (typing goes to the composer; esc stops every reply in flight).
//
//	1…4          pick that column once every reply ended (before: focus it)
//	←/→, enter   move the focus; enter picks the focused column
//	tab          scroll every column together, or the focused one alone
//	↑/↓, pgup/pgdn, home/end   scroll
//	x            stop the focused column
//	esc          once every reply ended: close without a pick
func (v *View) Key(msg tea.KeyPressMsg, done bool, bodyH int) (Action, bool) {
	k := msg.Keystroke()
	n := len(v.cols)
	switch {
	case len(k) == 1 && k[0] >= '1' && k[0] <= '9':
		i, _ := strconv.Atoi(k)
		if i > n {
			return Action{}, false
		}
		v.setFocus(i - 1)
		if done {
			return Action{Kind: Pick, ID: v.cols[i-1].id}, true
		}
		return Action{}, true
	case k == "left":
		v.setFocus(v.focus - 1)
		return Action{}, true
	case k == "right":
		v.setFocus(v.focus + 1)
		return Action{}, true
	case k == "enter":
		if done {
			return Action{Kind: Pick, ID: v.cols[v.focus].id}, true
		}
		return Action{}, true
	case k == "tab":
		v.together = !v.together
		v.gen++
		return Action{}, true
	case k == "up", k == "down", k == "pgup", k == "pgdown", k == "home", k == "end":
		v.scroll(k, bodyH)
		return Action{}, true
	case k == "x" && !done:
		return Action{Kind: Stop, ID: v.cols[v.focus].id}, true
	case k == "esc" && done:
		return Action{Kind: Close}, true
	}
	return Action{}, false
}

func (v *View) setFocus(i int) {
	v.focus = min(max(i, 0), len(v.cols)-1)
	v.gen++
}

// scroll moves every column, or the focused one, by what key k says.
func (v *View) scroll(k string, h int) {
	for i, c := range v.cols {
		if !v.together && i != v.focus {
			continue
		}
		total := len(c.body) + 2 // an error's lines are few
		switch k {
		case "up":
			c.scroll(-1, total, h)
		case "down":
			c.scroll(1, total, h)
		case "pgup":
			c.scroll(-max(h-1, 1), total, h)
		case "pgdown":
			c.scroll(max(h-1, 1), total, h)
		case "home":
			c.scroll(-total, total, h)
		case "end":
			c.scroll(total, total, h)
		}
	}
	v.gen++
}

// BodyHeight is the height of the columns' answers in a view of h rows.
func BodyHeight(h int) int { return max(h-1-headRows, 1) }

// Hints are the view's keys for the hint line: done says every reply
// ended.
func (v *View) Hints(done bool) []uictx.Hint {
	scroll := "scroll: all"
	if !v.together {
		scroll = "scroll: this one"
	}
	n := strconv.Itoa(len(v.cols))
	if !done {
		return []uictx.Hint{{Key: "←/→", Desc: "column"}, {Key: "x", Desc: "stop this one"}, {Key: "tab", Desc: scroll}, {Key: "pgup/pgdn", Desc: "scroll"}, {Key: "esc", Desc: "stop all"}}
	}
	return []uictx.Hint{{Key: "1–" + n, Desc: "pick"}, {Key: "←/→ enter", Desc: "pick"}, {Key: "tab", Desc: scroll}, {Key: "pgup/pgdn", Desc: "scroll"}, {Key: "type", Desc: "go on from 1"}, {Key: "esc", Desc: "close"}}
}
