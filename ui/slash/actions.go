package slash

import (
	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"

	"parley/ui/keys"
)

// key handles one key press.
func (l *List[E]) key(msg tea.KeyPressMsg) (Result, tea.Cmd) {
	ks := msg.Keystroke()
	km := l.ctx.Keys
	switch {
	case ks == "esc" || matchList(msg, km.Close):
		text := l.input
		if text == "/" {
			text = ""
		}
		l.Close()
		return Result{Outcome: Closed, Text: text}, nil
	case ks == "enter" || matchList(msg, km.Select) || matchList(msg, km.Send):
		return l.enter()
	case ks == "tab":
		return l.tab()
	case ks == "up" || ks == "shift+tab" || matchList(msg, km.ListUp):
		l.move(-1)
		return Result{Outcome: Consumed}, nil
	case ks == "down" || matchList(msg, km.ListDown):
		l.move(1)
		return Result{Outcome: Consumed}, nil
	case ks == "pgup":
		l.move(-(MaxRows - 1))
		return Result{Outcome: Consumed}, nil
	case ks == "pgdown":
		l.move(MaxRows - 1)
		return Result{Outcome: Consumed}, nil
	}
	return Result{Outcome: Pass}, nil
}

// move steps the highlight by n rows, stopping at the ends (home and end
// stay the composer's: they move in the typed text).
func (l *List[E]) move(n int) {
	if l.rows() == 0 {
		return
	}
	l.touch()
	if l.mode == modeArgs {
		l.candList.Move(n)
	} else {
		l.names.Move(n)
	}
	l.moved = true
}

// enter runs what the list shows: the highlighted command, or the typed
// line with its arguments.
func (l *List[E]) enter() (Result, tea.Cmd) {
	text := l.input
	switch l.mode {
	case modeLiteral:
		l.Close()
		return Result{Outcome: Send, Text: text[1:]}, nil
	case modeName:
		if i, ok := l.names.Selected(); ok {
			c := l.reg.cmds[i]
			if c.needsArgs() {
				return l.replace("/" + c.Name + " ")
			}
			text = "/" + c.Name
		}
	case modeArgs:
		if c, ok := l.candList.Selected(); ok && l.moved && l.candsFor == l.input {
			text = l.applied(c)
		}
	}
	inv, send, err := l.reg.Parse(text)
	switch {
	case err != nil:
		return Result{Outcome: Fail, Err: err}, nil
	case inv.Name == "":
		l.Close()
		return Result{Outcome: Send, Text: send}, nil
	}
	l.Close()
	return Result{Outcome: Run, Invocation: inv}, nil
}

// replace takes text as the input and tells the root to show it.
func (l *List[E]) replace(text string) (Result, tea.Cmd) {
	cmd := l.SetInput(text)
	return Result{Outcome: Replace, Text: text}, cmd
}

// tab completes the command name (or takes the suggested one when nothing
// matches) or the word being typed. With several candidates and the
// highlight not moved, it first completes what they all share, as a shell
// does ("scr" -> "screenshot-" when every candidate starts so); after that,
// or once the user moved the highlight, it takes the highlighted one.
func (l *List[E]) tab() (Result, tea.Cmd) {
	switch l.mode {
	case modeName:
		i, ok := l.names.Selected()
		switch {
		case ok:
			return l.replace("/" + l.reg.cmds[i].Name + " ")
		case l.sugg != "":
			return l.replace("/" + l.sugg + " ")
		}
		return Result{Outcome: Consumed}, nil
	case modeArgs:
		if l.candsFor != l.input {
			if l.pending {
				l.tabWait = true
			}
			return Result{Outcome: Consumed}, nil
		}
		c, ok := l.candList.Selected()
		if !ok {
			return Result{Outcome: Consumed}, nil
		}
		text := l.applied(c)
		if !l.moved && len(l.cands) > 1 {
			if p := commonPrefix(l.cands); len([]rune(p)) > len([]rune(l.arg.Word)) {
				text = l.input[:l.wordStart] + l.valuePre + quoteArg(p)
			}
		}
		return l.replace(text)
	}
	return Result{Outcome: Consumed}, nil
}

// applied is the input with the word being completed replaced by c.
func (l List[E]) applied(c Completion) string {
	text := l.input[:l.wordStart] + l.valuePre + quoteArg(c.Value)
	if !c.More {
		text += " "
	}
	return text
}

// commonPrefix is the longest prefix all candidates' values share.
func commonPrefix(cs []Completion) string {
	p := []rune(cs[0].Value)
	for _, c := range cs[1:] {
		v := []rune(c.Value)
		n := 0
		for n < len(p) && n < len(v) && p[n] == v[n] {
			n++
		}
		p = p[:n]
	}
	return string(p)
}

// matchList reports whether the press triggers b, ignoring b's printable
// keys: while the list is open, text typed goes to the composer, so a list
// binding on "k" must not steal it.
func matchList(msg tea.KeyPressMsg, b key.Binding) bool {
	if !b.Enabled() {
		return false
	}
	s, ks := msg.String(), msg.Keystroke()
	for _, k := range b.Keys() {
		if keys.Printable(k) {
			continue
		}
		if k == s || k == ks {
			return true
		}
	}
	return false
}
