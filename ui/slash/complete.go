package slash

import (
	"context"
	"strings"
	"time"

	tea "charm.land/bubbletea/v2"

	"parley/termsafe"
)

// Bounds of argument completion.
const (
	// completeTimeout is how long one Complete call may take; its context
	// is cancelled then (and at once when the input changes).
	completeTimeout = 2 * time.Second
	// maxCandidates is how many candidates the list keeps from one call.
	maxCandidates = 500
)

// CompletionsMsg carries the candidates of one Complete call back to the
// list; the root routes it to List.Update. Late answers (the text changed
// since) are dropped.
type CompletionsMsg struct {
	seq   uint64
	input string
	items []Completion
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

// completions takes the answer of a Complete call if it is for the text
// shown now.
func (l *List[E]) completions(msg CompletionsMsg) (Result, tea.Cmd) {
	if !l.open || msg.seq != l.seq || msg.input != l.input {
		return Result{Outcome: Consumed}, nil
	}
	l.touch()
	l.pending = false
	l.cancel = nil
	l.setCands(usable(msg.items))
	l.candsFor, l.moved = msg.input, false
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
