package ui

import (
	"context"
	"fmt"
	"slices"
	"strings"
	"time"

	tea "charm.land/bubbletea/v2"

	"parley/api"
	"parley/chat"
	"parley/conversation"
	"parley/termsafe"
	"parley/ui/cells"
	"parley/ui/columns"
	"parley/ui/slash"
	"parley/ui/uictx"
)

// compare is the chat's side of a compare (issue 24): the models the next
// message goes to once /compare named them, and the view of the replies
// once it went, until one is picked or the conversation goes on. The
// replies themselves are the engine's (chat.Engine.Compare).
type compare struct {
	// models are the models the next message goes to (none: the usual
	// one model).
	models []string
	// view shows the replies of the last compare (nil: none shown).
	view *columns.View
}

// command is /compare MODEL MODEL…: the next message goes to each
// model at once. It does not ask the last question again: r, then R, on
// a reply regenerates it with another model for that. /compare alone (or
// off) leaves compare mode. The clients of the models are built ahead.
func (c *compare) command(inv slash.Invocation, eng *chat.Engine, base context.Context) (tea.Cmd, noticeResult) {
	args := inv.Positional
	if len(args) == 0 || (len(args) == 1 && args[0] == "off") {
		if len(c.models) == 0 {
			return nil, noticeResult{"/compare takes 2 to 4 models, as in /compare gpt-4o llama3: your next message goes to each at once", toastInfo}
		}
		c.models = nil
		return nil, noticeResult{"compare off: the next message goes to " + cells.OneLine(eng.Model()) + " alone", toastInfo}
	}
	models, err := compareModels(args)
	if err != nil {
		return nil, noticeResult{err.Error(), toastErr}
	}
	c.models = models
	var cmds []tea.Cmd
	names := make([]string, len(models))
	for i, md := range models {
		cmds = append(cmds, prepareClient(eng.Clients(), md))
		names[i] = cells.OneLine(md)
	}
	if eng.Listed() == nil && eng.Clients().Configured() {
		cmds = append(cmds, listPriced(base, eng.Clients(), eng.Model()))
	}
	return tea.Batch(cmds...), noticeResult{"your next message goes to " + strings.Join(names, ", ") + " at once, side by side (/compare off: back to one model)", toastOK}
}

// compareModels checks the models /compare names: 2 to 4, each once.
func compareModels(args []string) ([]string, error) {
	if len(args) < 2 || len(args) > conversation.MaxCompare {
		return nil, conversation.ErrCompareModels
	}
	for i, a := range args {
		if slices.Contains(args[:i], a) {
			return nil, fmt.Errorf("%s is named twice; /compare names each model once", cells.OneLine(a))
		}
	}
	return slices.Clone(args), nil
}

// completeCompare offers the chat's models for every word of /compare,
// leaving out those already named, up to conversation.MaxCompare.
func completeCompare(_ context.Context, a slash.Arg, env commandEnv) []slash.Completion {
	named := strings.Fields(a.Line)
	if a.Word != "" && len(named) > 0 {
		named = named[:len(named)-1]
	}
	if len(named) >= conversation.MaxCompare {
		return nil
	}
	out := make([]slash.Completion, 0, len(env.models))
	for _, md := range env.models {
		if !slices.Contains(named, md) {
			out = append(out, slash.Completion{Value: md})
		}
	}
	return slash.FilterCompletions(a.Word, out)
}

// send sends in to every model /compare named, at once: each a reply of
// its own, streaming into its column. Models that cannot take the message
// are left out with one sentence each (the notice). sent is nil when
// nothing went: a client is still being built (the message waits, and
// cmd builds it), or the engine refused.
func (c *compare) send(eng *chat.Engine, in *conversation.UserInput) (sent []*chat.Reply, cmd tea.Cmd, n noticeResult) {
	var building []tea.Cmd
	for _, md := range c.models {
		if eng.Clients().NeedsBuild(md) {
			building = append(building, prepareClient(eng.Clients(), md))
		}
	}
	if len(building) > 0 {
		// The message waits in the composer and goes once the last
		// client is built (clientReady).
		eng.Hold(chat.WaitClient)
		return nil, tea.Batch(building...), noticeResult{}
	}
	opts := make([]conversation.TurnOptions, len(c.models))
	for i, md := range c.models {
		opts[i] = eng.TurnOptions(md)
	}
	rs, skipped, err := eng.Compare(in, opts)
	var left []string
	for _, s := range skipped {
		left = append(left, s.Sentence())
	}
	if err != nil {
		eng.Hold(chat.WaitNone)
		if len(left) > 0 {
			return nil, nil, noticeResult{strings.Join(left, "; "), toastErr}
		}
		return nil, nil, refusal(err)
	}
	c.models = nil
	ids := make([]int, len(rs))
	cmds := make([]tea.Cmd, len(rs))
	for i, r := range rs {
		ids[i] = r.Turn.ReplyID
		cmds[i] = runCompared(r)
	}
	c.view = columns.New(in.Text, ids)
	if len(left) > 0 {
		n = noticeResult{strings.Join(left, "; "), toastWarn}
	}
	return rs, tea.Batch(cmds...), n
}

// shownView is the compare view while its replies are in the
// conversation on screen (nil otherwise: another conversation replaced
// it, or none was made).
func (c *compare) shownView(conv *conversation.Conversation) *columns.View {
	if c.view == nil {
		return nil
	}
	if !slices.Contains(c.view.IDs(), conv.Leaf()) {
		// The conversation went on (a new turn, a switch, another
		// conversation): the view is over.
		c.view = nil
	}
	return c.view
}

// done reports whether every reply of the view ended.
func (c *compare) done(eng *chat.Engine) bool {
	for _, id := range eng.Conv().InFlight() {
		if slices.Contains(c.view.IDs(), id) {
			return false
		}
	}
	return true
}

// replies are the view's replies as its columns show them now.
func (c *compare) replies(eng *chat.Engine, cat *api.Catalog, now time.Time) []columns.Reply {
	ids := c.view.IDs()
	group := map[int]*chat.Reply{}
	for _, r := range eng.Group() {
		group[r.Turn.ReplyID] = r
	}
	out := make([]columns.Reply, len(ids))
	for i, id := range ids {
		msg, _ := eng.Conv().ByID(id)
		r := columns.Reply{ID: id, Model: msg.Model, Text: msg.Text, Reasoning: msg.Reasoning, State: msg.State, Err: msg.Err, Thought: msg.ThoughtFor()}
		if g := group[id]; g != nil {
			r.Elapsed, r.Tokens, r.Rate = g.Figures(now)
		} else if msg.Usage != nil {
			r.Tokens = msg.Usage.CompletionTokens
		}
		if cost, ok := cat.Price(msg.Model).Cost(msg.Usage); ok {
			r.Cost = api.FormatCost(cost)
		}
		out[i] = r
	}
	return out
}

// frame renders what the compare's replies gained, every column at once,
// on the stream's frame tick.
func (c *compare) frame(ctx *uictx.Context, eng *chat.Engine, cat *api.Catalog, w int, now time.Time) {
	if v := c.shownView(eng.Conv()); v != nil {
		v.Sync(ctx, w, c.replies(eng, cat, now))
	}
}

// draw is the compare view in the transcript's place, w×h; false when
// none is shown.
func (c *compare) draw(ctx *uictx.Context, eng *chat.Engine, cat *api.Catalog, w, h int, now time.Time) (string, bool) {
	v := c.shownView(eng.Conv())
	if v == nil || w <= 0 || h <= 0 {
		return "", false
	}
	return v.View(ctx, w, h, c.replies(eng, cat, now)), true
}

// hints are the compare view's keys while it shows (nil otherwise).
func (c *compare) hints(eng *chat.Engine, textEmpty bool) []uictx.Hint {
	if c.shownView(eng.Conv()) == nil || !textEmpty {
		return nil
	}
	return c.view.Hints(c.done(eng))
}

// status is the status bar's mark of a compare the next message makes.
func (c *compare) status() string {
	if len(c.models) == 0 {
		return ""
	}
	names := make([]string, len(c.models))
	for i, md := range c.models {
		names[i] = cells.OneLine(md)
	}
	return "⇶ compare " + strings.Join(names, " · ")
}

// compareKeyed is what a key the compare view took changed: the
// transcript goes to its end (a pick), and what to say.
type compareKeyed struct {
	bottom bool
	say    noticeResult
}

// key gives a key to the compare view while it shows: with an empty
// composer every key of its own, with text only the scrolling keys. A pick
// makes the chosen reply the active branch (stored, so a reopened session
// shows it with its ‹ i/n ›); the others stay alternatives. area is the
// transcript's, where the columns are drawn.
func (c *compare) key(msg tea.KeyPressMsg, eng *chat.Engine, typing bool, ctx *uictx.Context, area rect, now time.Time) (compareKeyed, bool) {
	v := c.shownView(eng.Conv())
	if v == nil {
		return compareKeyed{}, false
	}
	if k := msg.Keystroke(); typing && k != "pgup" && k != "pgdown" {
		return compareKeyed{}, false
	}
	act, ok := v.Key(msg, c.done(eng), columns.BodyHeight(area.H))
	if !ok {
		return compareKeyed{}, false
	}
	switch act.Kind {
	case columns.Pick:
		c.view = nil
		if err := eng.Conv().SwitchTo(act.ID); err != nil {
			text, kind := treeRefusal(err)
			return compareKeyed{say: noticeResult{text, kind}}, true
		}
		sel, _ := eng.Conv().ByID(act.ID)
		return compareKeyed{bottom: true, say: noticeResult{"going on from " + termsafe.Sanitize(sel.Model) + "'s answer; the others stay as alternatives (esc, then ←/→ on the reply)", toastOK}}, true
	case columns.Stop:
		if eng.StopReply(act.ID) {
			// The last one stopped: no frame tick comes any more, so the
			// columns are drawn now (and the transcript under them
			// catches up with the caller's next tick).
			c.frame(ctx, eng, eng.Catalog(), area.W, now)
		}
	case columns.Close:
		c.view = nil
	}
	return compareKeyed{}, true
}

// spentSeg is the status bar's cost: the last reply's and the session's,
// where their prices are known ("" when none is).
func spentSeg(conv *conversation.Conversation, cat *api.Catalog) string {
	total, ok := conv.Tree().Spent(cat.Price)
	if !ok {
		return ""
	}
	s := api.FormatCost(total) + " session"
	if r, found := conv.LastReply(); found {
		if c, known := cat.Price(r.Model).Cost(r.Usage); known {
			s = api.FormatCost(c) + " reply · " + s
		}
	}
	return s
}

// listPriced asks the gateway for its model list once, for the prices
// it may give (OpenRouter's pricing) and the names completion offers; it
// comes back as a model check that checks no name.
func listPriced(base context.Context, pool *chat.Clients, model string) tea.Cmd {
	return func() tea.Msg {
		c, err := pool.Get(model)
		if err != nil {
			return modelCheckedMsg{err: err}
		}
		ctx, cancel := context.WithTimeout(base, modelListTimeout)
		defer cancel()
		ms, prices, err := c.ListModelsPriced(ctx)
		return modelCheckedMsg{models: ms, prices: prices, err: err}
	}
}

// covers reports whether the compare's columns stand in the transcript's
// place while their replies stream: the transcript under them then need
// not render the first reply's tail on every frame.
func (c *compare) covers(eng *chat.Engine) bool {
	return c.shownView(eng.Conv()) != nil && !c.done(eng)
}

// compareGap is how long each reader of a compare pauses before it waits
// for the network until the frames have taken its pump twice (readGap for
// one stream; then each pause ends just before a frame, as one stream's
// do): the columns take what came once a frame, so a reader that wakes
// once a frame loses nothing on screen, and three readers waking half as
// often save the scheduler's wake-ups (BENCHMARKS.md, "Three models at
// once").
const compareGap = frameInterval

// runCompared runs one reply of a compare, as runReply does one reply.
func runCompared(r *chat.Reply) tea.Cmd {
	return func() tea.Msg {
		r.Run(compareGap)
		return nil
	}
}

// frameEvery is the frame interval while a compare's columns stream: a
// quarter longer than one stream's (d), since each frame redraws every
// column, all of whose lines move as their answers grow.
func (c *compare) frameEvery(eng *chat.Engine, d time.Duration) time.Duration {
	if c.covers(eng) {
		return d + d/4
	}
	return d
}

// waitsFor reports whether a compare's send waits for the client of
// model, and it was the last one missing (or its build failed: then the
// send waits no more).
func (c *compare) waitsFor(model string, err error, pool *chat.Clients) bool {
	if !slices.Contains(c.models, model) {
		return false
	}
	if err != nil {
		return true
	}
	for _, md := range c.models {
		if pool.NeedsBuild(md) {
			return false
		}
	}
	return true
}
