package slash

import (
	"context"
	"strings"
	"time"

	tea "charm.land/bubbletea/v2"

	"parley/termsafe"
	"parley/ui/uictx"
)

// Bounds of argument completion.
const (
	// completeTimeout is how long one Complete call may take; its context
	// is cancelled then (and at once when the input changes).
	completeTimeout = 2 * time.Second
	// maxCandidates is how many candidates the list keeps from one call.
	maxCandidates = 500
)

// mode is what the composer's text is: a command name being typed, the
// arguments of a known command, or a literal "//text".
type mode int

const (
	modeName mode = iota
	modeArgs
	modeLiteral
)

// Outcome tells the root what a message to the list asks for.
type Outcome int

// Outcomes of List.Update.
const (
	// Pass: not a key of the list. Give it to the composer, then call
	// SetInput with the composer's text.
	Pass Outcome = iota
	// Consumed: the list used the message (the highlight moved, candidates
	// arrived); there is nothing else to do.
	Consumed
	// Replace: set the composer's text to Result.Text, cursor at the end
	// (tab completion). The list has taken the text already and stays open.
	Replace
	// Run: dispatch Result.Invocation and clear the composer. The list has
	// closed.
	Run
	// Send: send Result.Text as an ordinary message (it was typed as
	// "//text") and clear the composer. The list has closed.
	Send
	// Fail: show Result.Err. The composer keeps its text and the list stays
	// open, so the user can correct it.
	Fail
	// Closed: the user closed the list (esc). Set the composer's text to
	// Result.Text: what was typed, or "" when it was only "/".
	Closed
)

// Result is what List.Update returns.
type Result struct {
	Outcome    Outcome
	Text       string
	Invocation Invocation
	Err        error
}

// CompletionsMsg carries the candidates of one Complete call back to the
// list; the root routes it to List.Update. Late answers (the text changed
// since) are dropped.
type CompletionsMsg struct {
	seq   uint64
	input string
	items []Completion
}

// List is the command list shown above the composer while a command is
// typed. It is a plain struct: the root owns it, opens it when "/" is typed
// into an empty composer, routes key presses and CompletionsMsg to Update
// while it is open, and tells it the composer's text after every edit.
type List[E any] struct {
	ctx *uictx.Context
	reg *Registry[E]
	env E

	open  bool
	input string
	mode  mode

	// modeName: the filter text and the commands it matches.
	query   string
	matches []nameMatch
	sugg    string // the nearest command when nothing matches

	// modeArgs: the command, the word being completed and its candidates.
	cmd       int
	arg       Arg
	wordStart int    // byte offset of that word in input
	valuePre  string // kept before a completed value ("--mask=")
	flagNames bool   // the candidates are option names (no Complete call)
	cands     []Completion
	candsFor  string // the input cands answer; differs while a call runs
	pending   bool   // a Complete call is running
	tabWait   bool   // tab was pressed while it ran: complete on arrival

	cursor int
	moved  bool // the user moved the highlight since the input changed

	// labels and shortLabels are the keys of the commands' actions, read
	// from the key map when the list opens (see keyLabels).
	labels, shortLabels []string

	seq    uint64
	cancel context.CancelFunc

	// cache holds the last rendering; every change of state replaces it,
	// so copies of a List never share a stale one.
	cache *viewCache
}

// NewList returns a closed list over reg. ctx is read at every View (theme
// and keys may change); it must not be nil.
func NewList[E any](ctx *uictx.Context, reg *Registry[E]) List[E] {
	return List[E]{ctx: ctx, reg: reg, cache: &viewCache{}}
}

// SetEnv sets the value handed to Complete (model names, themes, the
// working directory). Pass a fresh value rather than modifying the one
// given before: a running Complete call may still read it. When the list
// shows candidates they are asked for again.
func (l *List[E]) SetEnv(env E) tea.Cmd {
	l.env = env
	if l.open && l.mode == modeArgs && !l.flagNames && l.reg.cmds[l.cmd].Complete != nil {
		return l.request()
	}
	return nil
}

// IsOpen reports whether the list is shown.
func (l List[E]) IsOpen() bool { return l.open }

// Input returns the composer text the list last saw.
func (l List[E]) Input() string { return l.input }

// Open shows the list for the composer's text (normally "/", typed into an
// empty composer). The command may ask for argument candidates.
//
// The keys shown beside the commands are read from the key map now, so a
// key map changed while the list is open shows the next time it opens.
func (l *List[E]) Open(text string) tea.Cmd {
	l.open = true
	l.labels, l.shortLabels = keyLabels(l.ctx, l.reg.cmds)
	l.input = "\x00" // differs from any text, so SetInput recomputes
	return l.SetInput(text)
}

// Close hides the list and stops a running Complete call.
func (l *List[E]) Close() {
	l.stopRequest()
	reg, ctx, env, seq := l.reg, l.ctx, l.env, l.seq
	*l = List[E]{ctx: ctx, reg: reg, env: env, seq: seq, cache: &viewCache{}}
}

// SetInput tells the list the composer's text after an edit. The list
// closes when the text no longer starts with "/" or spans lines (the user
// is writing a message); otherwise it filters the commands or asks the
// command for argument candidates (the returned command). It does nothing
// while the list is closed.
func (l *List[E]) SetInput(text string) tea.Cmd {
	if !l.open || text == l.input {
		return nil
	}
	if !strings.HasPrefix(text, "/") || strings.ContainsAny(text, "\n\r") {
		l.Close()
		return nil
	}
	l.touch()
	l.input = text
	l.cursor, l.moved, l.tabWait = 0, false, false
	if strings.HasPrefix(text, "//") {
		l.mode = modeLiteral
		l.stopRequest()
		return nil
	}
	name, rest := splitName(text[1:])
	i, known := l.reg.lookupIndex(name)
	if rest == "" || !known {
		l.mode = modeName
		l.query = name
		l.matches = filterCommands(l.reg.cmds, name)
		l.sugg = ""
		if len(l.matches) == 0 {
			l.sugg = l.reg.unknown(name).Suggestion
		}
		l.stopRequest()
		return nil
	}
	if l.mode != modeArgs || l.cmd != i {
		l.cands, l.candsFor = nil, ""
	}
	l.mode, l.cmd = modeArgs, i
	l.locateWord(1+len(name), rest)
	c := l.reg.cmds[i]
	switch {
	case l.flagNames:
		l.stopRequest()
		l.cands, l.candsFor = flagCandidates(c.Flags, l.arg.Word), text
		return nil
	case c.Complete == nil:
		l.stopRequest()
		l.cands, l.candsFor = nil, text
		return nil
	}
	return l.request()
}

// locateWord finds the word being completed: the last word when the text
// ends inside it, else a new word at the end. rest is the text after the
// name, starting at byte offset off of the input.
func (l *List[E]) locateWord(off int, rest string) {
	ws := splitWords(rest)
	target := word{start: len(rest), end: len(rest)}
	before := ws
	if n := len(ws); n > 0 && ws[n-1].end == len(rest) {
		target, before = ws[n-1], ws[:n-1]
	}
	c := l.reg.cmds[l.cmd]
	a := Arg{Line: strings.TrimSpace(rest), Word: target.text}
	l.valuePre, l.flagNames = "", false
	// Count the positional words before the target, skipping options and
	// their values.
	for k := 0; k < len(before); k++ {
		w := before[k].text
		if len(c.Flags) > 0 && strings.HasPrefix(w, "--") && w != "--" {
			if f, ok := c.flag(strings.ToLower(strings.TrimPrefix(w, "--"))); ok && f.Value != "" {
				if k == len(before)-1 {
					a.Flag = f.Name // the target is this option's value
				}
				k++
			}
			continue
		}
		a.Index++
	}
	if len(c.Flags) > 0 && a.Flag == "" && strings.HasPrefix(target.text, "-") {
		if name, value, eq := strings.Cut(target.text[min(2, len(target.text)):], "="); eq && strings.HasPrefix(target.text, "--") {
			a.Flag, a.Word = strings.ToLower(name), value
			l.valuePre = target.text[:len(target.text)-len(value)]
		} else {
			l.flagNames = true
		}
	}
	if a.Flag != "" {
		a.Index = 0
	}
	l.arg = a
	l.wordStart = off + target.start
}

// flagCandidates offers the options whose name starts with what was typed
// after the dashes.
func flagCandidates(flags []Flag, typed string) []Completion {
	p := strings.ToLower(strings.TrimLeft(typed, "-"))
	var out []Completion
	for _, f := range flags {
		if strings.HasPrefix(f.Name, p) {
			d := f.Usage
			if f.Value != "" {
				d = strings.TrimSpace(f.Value + "  " + f.Usage)
			}
			out = append(out, Completion{Value: "--" + f.Name, Detail: d})
		}
	}
	return out
}

// request starts a Complete call for the current word and returns the
// command that runs it; a call still running is cancelled.
func (l *List[E]) request() tea.Cmd {
	l.stopRequest()
	ctx, cancel := context.WithTimeout(context.Background(), completeTimeout)
	l.cancel = cancel
	l.seq++
	l.pending = true
	seq, input, arg, env, complete := l.seq, l.input, l.arg, l.env, l.reg.cmds[l.cmd].Complete
	return func() tea.Msg {
		defer cancel()
		return CompletionsMsg{seq: seq, input: input, items: complete(ctx, arg, env)}
	}
}

// stopRequest cancels a running Complete call; its answer will be dropped.
func (l *List[E]) stopRequest() {
	if l.cancel != nil {
		l.cancel()
		l.cancel = nil
	}
	if l.pending {
		l.seq++ // the answer, if it still comes, no longer matches
		l.pending = false
	}
}

// touch marks a change of state: the next View renders again.
func (l *List[E]) touch() { l.cache = &viewCache{} }

// Update handles a key press while the list is open, or a CompletionsMsg.
func (l *List[E]) Update(msg tea.Msg) (Result, tea.Cmd) {
	switch msg := msg.(type) {
	case CompletionsMsg:
		return l.completions(msg)
	case tea.KeyPressMsg:
		if !l.open {
			return Result{}, nil
		}
		return l.key(msg)
	}
	return Result{}, nil
}

// completions takes the answer of a Complete call if it is for the text
// shown now.
func (l *List[E]) completions(msg CompletionsMsg) (Result, tea.Cmd) {
	if !l.open || msg.seq != l.seq || msg.input != l.input {
		return Result{Outcome: Consumed}, nil
	}
	l.touch()
	l.pending = false
	l.cancel = nil
	l.cands, l.candsFor = usable(msg.items), msg.input
	l.cursor, l.moved = 0, false
	if l.tabWait {
		l.tabWait = false
		return l.tab()
	}
	return Result{Outcome: Consumed}, nil
}

// usable drops candidates that cannot be typed into the composer safely
// (control characters, line breaks: a hostile model name) and keeps at most
// maxCandidates.
func usable(items []Completion) []Completion {
	out := make([]Completion, 0, min(len(items), maxCandidates))
	for _, c := range items {
		if len(out) == maxCandidates {
			break
		}
		if c.Value == "" || !termsafe.IsClean(c.Value) || strings.ContainsAny(c.Value, "\n\t") {
			continue
		}
		out = append(out, c)
	}
	return out
}

// rows is how many rows the cursor moves over.
func (l List[E]) rows() int {
	switch l.mode {
	case modeName:
		return len(l.matches)
	case modeArgs:
		return len(l.cands)
	}
	return 0
}

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
	}
	return Result{Outcome: Pass}, nil
}

// move steps the highlight by n rows, wrapping around the ends.
func (l *List[E]) move(n int) {
	rows := l.rows()
	if rows == 0 {
		return
	}
	l.touch()
	l.cursor = ((l.cursor+n)%rows + rows) % rows
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
		if l.cursor < len(l.matches) {
			i := l.matches[l.cursor].cmd
			c := l.reg.cmds[i]
			if c.needsArgs() {
				return l.replace("/" + c.Name + " ")
			}
			text = "/" + c.Name
		}
	case modeArgs:
		if l.moved && l.candsFor == l.input && l.cursor < len(l.cands) {
			text = l.applied(l.cands[l.cursor])
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
		switch {
		case l.cursor < len(l.matches):
			return l.replace("/" + l.reg.cmds[l.matches[l.cursor].cmd].Name + " ")
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
		if len(l.cands) == 0 {
			return Result{Outcome: Consumed}, nil
		}
		text := l.applied(l.cands[l.cursor])
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
