package slash

import (
	"context"
	"strings"

	tea "charm.land/bubbletea/v2"

	"parley/ui/list"
	"parley/ui/uictx"
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

	// modeName: the filter text and the commands it matches (indexes
	// into the registry, best first).
	query string
	names list.Model[int]
	sugg  string // the nearest command when nothing matches

	// modeArgs: the command, the word being completed and its candidates.
	cmd       int
	arg       Arg
	wordStart int    // byte offset of that word in input
	valuePre  string // kept before a completed value ("--mask=")
	flagNames bool   // the candidates are option names (no Complete call)
	cands     []Completion
	candList  list.Model[Completion]
	candsFor  string // the input cands answer; differs while a call runs
	pending   bool   // a Complete call is running
	tabWait   bool   // tab was pressed while it ran: complete on arrival

	moved bool // the user moved the highlight since the input changed

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
	l := List[E]{ctx: ctx, reg: reg, cache: &viewCache{}}
	l.newLists()
	return l
}

// newLists makes the lists of commands and of candidates, drawing with
// the key labels read at the last Open.
func (l *List[E]) newLists() {
	l.names = list.New(l.ctx, nameOptions(l.ctx, l.reg.cmds, l.labels, l.shortLabels))
	idx := make([]int, len(l.reg.cmds))
	for i := range idx {
		idx[i] = i
	}
	l.names.SetItems(idx)
	l.candList = list.New(l.ctx, candOptions(l.ctx))
	l.candList.SetItems(l.cands)
}

// setCands shows candidates, the first highlighted.
func (l *List[E]) setCands(cs []Completion) {
	l.cands = cs
	l.candList.SetItems(cs)
	l.candList.SetCursor(0)
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
	l.newLists()
	l.input = "\x00" // differs from any text, so SetInput recomputes
	return l.SetInput(text)
}

// Close hides the list and stops a running Complete call.
func (l *List[E]) Close() {
	l.stopRequest()
	reg, ctx, env, seq := l.reg, l.ctx, l.env, l.seq
	*l = List[E]{ctx: ctx, reg: reg, env: env, seq: seq, cache: &viewCache{}}
	l.newLists()
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
	l.moved, l.tabWait = false, false
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
		l.names.SetQuery(name)
		l.names.SetCursor(0)
		l.sugg = ""
		if l.names.Len() == 0 {
			l.sugg = l.reg.unknown(name).Suggestion
		}
		l.stopRequest()
		return nil
	}
	if l.mode != modeArgs || l.cmd != i {
		l.setCands(nil)
		l.candsFor = ""
	}
	l.mode, l.cmd = modeArgs, i
	l.locateWord(1+len(name), rest)
	c := l.reg.cmds[i]
	switch {
	case l.flagNames:
		l.stopRequest()
		l.setCands(flagCandidates(c.Flags, l.arg.Word))
		l.candsFor = text
		return nil
	case c.Complete == nil:
		l.stopRequest()
		l.setCands(nil)
		l.candsFor = text
		return nil
	}
	return l.request()
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

// rows is how many rows the cursor moves over.
func (l List[E]) rows() int {
	switch l.mode {
	case modeName:
		return l.names.Len()
	case modeArgs:
		return l.candList.Len()
	}
	return 0
}
