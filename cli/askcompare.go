package cli

import (
	"context"
	"errors"
	"fmt"
	"io"
	"strings"
	"time"

	"parley/api"
	"parley/chat"
	"parley/config"
	"parley/conversation"
	"parley/termsafe"
)

// compareDrain is how often `parley ask` with several models takes what
// their streams gathered: an answer is printed at most that long after
// it ended.
const compareDrain = 20 * time.Millisecond

// compareModels are the models -m and --compare name, in order, each once
// (none: the usual one model).
func (f askFlags) compareModels() ([]string, error) {
	var out []string
	seen := map[string]bool{}
	for _, m := range append(append([]string(nil), f.models...), f.compare...) {
		m = strings.TrimSpace(m)
		if m == "" {
			return nil, usagef("-m and --compare take a model's name, not an empty one")
		}
		if seen[m] {
			return nil, usagef("the model %q is named twice; name each model once", termsafe.Sanitize(m))
		}
		seen[m] = true
		out = append(out, m)
	}
	if len(out) > conversation.MaxCompare {
		return nil, usagef("ask at most %d models at once, not %d", conversation.MaxCompare, len(out))
	}
	if len(f.compare) > 0 && len(out) < 2 {
		return nil, usagef("--compare names 2 to %d models, as in --compare gpt-4o,llama3", conversation.MaxCompare)
	}
	return out, nil
}

// askCompare asks several models the same question at once on the chat
// engine (Engine.Compare) and prints each answer whole under a header
// with its model's name as it ends, or in the order given (--ordered).
// Every answer is kept in the session, alternatives of one another. It
// fails (exit 1) when any model failed, after printing the others.
func (a *app) askCompare(ctx context.Context, f askFlags, models []string, prompt string) error {
	if f.tools {
		return usagef("--tools works with one model, and -m was given %d times: ask the models one at a time to let them call tools", len(models))
	}
	text, cfg, h, err := a.askStart(ctx, f, prompt)
	if err != nil {
		return err
	}
	defer h.close()
	plans, atts, err := a.planCompare(ctx, cfg, f, h, models)
	if err != nil {
		return err
	}
	clients := chat.NewClients(func(model string) (*api.Client, error) { return a.client(cfg, model) })
	opts := make([]conversation.TurnOptions, len(plans))
	for i, p := range plans {
		if _, err := clients.Get(p.model); err != nil {
			return err
		}
		opts[i] = p.turnOptions(f.system, cfg, h.continued())
	}
	eng := chat.New(ctx, chat.Options{Clients: clients, Now: a.env.Now, Flush: h.flushFunc(), FlushWait: flushTimeout, Mask: a.console.mask})
	conv := h.conversation(a.env.Now, plans[0].system(f.system, cfg))
	if plans[0].role != nil {
		conv.SetRole(plans[0].role.Name)
	}
	eng.Replace(conv)
	replies, skipped, err := eng.Compare(&conversation.UserInput{Text: text, Attachments: atts}, opts)
	for _, s := range skipped {
		a.console.warn(s.Sentence())
	}
	if err != nil {
		return usage(err)
	}
	a.warnDropped(replies[0].Turn)
	p := &comparePrinter{a: a, f: f, eng: eng, order: replies}
	eng.RunAll(ctx, compareDrain, p.ended)
	h.close()
	if p.err != nil {
		return fmt.Errorf("could not write the answers to stdout (%w)", p.err)
	}
	if ctx.Err() != nil {
		return ctx.Err()
	}
	if len(p.failed) > 0 {
		return fmt.Errorf("%d of %d models failed (%s); the other answers are printed above", len(p.failed), len(replies), strings.Join(p.failed, ", "))
	}
	return nil
}

// planCompare plans each model on its own (its params) and reads the
// files once: the engine leaves out a model that cannot see them.
func (a *app) planCompare(ctx context.Context, cfg *config.Config, f askFlags, h *askHistory, models []string) ([]askPlan, []api.Attachment, error) {
	files := f.attach
	f.attach = nil
	var plans []askPlan
	for _, m := range models {
		g := f
		g.model = m
		p, err := a.planAsk(ctx, cfg, g, h)
		if err != nil {
			return nil, nil, err
		}
		plans = append(plans, p)
	}
	lim := cfg.AttachLimits()
	atts, err := a.attachAll(files, lim)
	if err != nil {
		return nil, nil, err
	}
	if err := lim.CheckTextTotal(atts); err != nil {
		return nil, nil, usage(err)
	}
	return plans, atts, nil
}

// comparePrinter prints the answers of a compare as they end, or in the
// order given.
type comparePrinter struct {
	a     *app
	f     askFlags
	eng   *chat.Engine
	order []*chat.Reply
	// next is the first reply of order not printed yet (--ordered).
	next    int
	printed int
	failed  []string
	err     error
}

// ended takes one reply's end: printed at once, or once every reply
// before it in the order given is (--ordered).
func (p *comparePrinter) ended(x chat.Ended) {
	if !p.f.ordered {
		p.print(x.Reply)
		return
	}
	for p.next < len(p.order) && p.order[p.next].Done {
		p.print(p.order[p.next])
		p.next++
	}
}

// print writes one answer under its header: "## MODEL" on stdout, a blank
// line between answers; a failure's error on stderr. A model that failed
// before any text has no section on stdout: an empty one would read as
// an empty answer.
func (p *comparePrinter) print(r *chat.Reply) {
	m, _ := p.eng.Conv().ByID(r.Turn.ReplyID)
	if r.Err == nil || m.Text != "" || m.Reasoning != "" {
		p.answer(r.Model, m)
	}
	switch {
	case r.Err != nil && !errors.Is(r.Err, context.Canceled):
		p.failed = append(p.failed, termsafe.Sanitize(r.Model))
		p.a.console.say(fmt.Sprintf("%s failed: %v", r.Model, r.Err), r.Model)
	case r.Err == nil:
		if note := finishNote(m.FinishReason); note != "" {
			p.a.console.say(r.Model+": "+note, r.Model)
		}
	}
	if p.f.usage {
		fmt.Fprintln(p.a.env.Stderr, termsafe.Sanitize(r.Model)+" "+usageLine(m.Usage))
	}
}

// answer writes model's answer m under its header, its reasoning on
// stderr.
func (p *comparePrinter) answer(model string, m conversation.Message) {
	out := p.a.env.Stdout
	if p.printed > 0 {
		p.write(out, "\n")
	}
	p.printed++
	p.write(out, "## "+termsafe.Sanitize(model)+"\n\n")
	if m.Reasoning != "" && (p.f.reasoning || p.a.env.StderrIsTerminal) {
		think := newReasoningWriter(p.a.env.Stderr, p.f.raw, p.a.env.StderrIsTerminal)
		think.Write(m.Reasoning)
		think.Close()
	}
	w := newReplyWriter(out, p.f.raw)
	w.Write(m.Text)
	if err := w.Close(); err != nil && p.err == nil {
		p.err = err
	}
}

func (p *comparePrinter) write(w io.Writer, s string) {
	if p.err == nil {
		_, p.err = io.WriteString(w, s)
	}
}
