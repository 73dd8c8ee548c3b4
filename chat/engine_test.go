package chat

import (
	"context"
	"errors"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"parley/api"
	"parley/api/apitest"
	"parley/conversation"
	"parley/imagegen"
)

// The engine is driven directly: Run is called in the test's goroutine
// (it returns when the fake gateway's stream ends), the clock is the
// test's, and nothing waits on wall-clock time for what must have
// happened.

// clock is a fake clock the test moves by hand.
type clock struct{ t time.Time }

func (c *clock) now() time.Time                  { return c.t }
func (c *clock) advance(d time.Duration)         { c.t = c.t.Add(d) }
func newClock() *clock                           { return &clock{t: time.Date(2026, 11, 29, 9, 0, 0, 0, time.UTC)} }
func textOf(c *conversation.Conversation) string { return c.At(c.Len() - 1).Text }

// newEngine is an engine against a fresh fake gateway, its client for
// model built.
func newEngine(t *testing.T, c *clock, o Options) (*Engine, *apitest.Server) {
	t.Helper()
	gw := apitest.New(t)
	o.Clients = NewClients(func(string) (*api.Client, error) {
		return api.NewClient(api.ClientConfig{BaseURL: gw.URL(), APIKey: apitest.DefaultAPIKey})
	})
	o.Now = c.now
	e := New(t.Context(), o)
	if _, err := e.Clients().Get("gpt-4o"); err != nil {
		t.Fatal(err)
	}
	return e, gw
}

func ask(text string) *conversation.UserInput { return &conversation.UserInput{Text: text} }

var gpt4o = conversation.TurnOptions{Model: "gpt-4o", Catalog: api.NewCatalog(nil)}

func TestBeginWaitsForTheClientAndChangesNothing(t *testing.T) {
	e := New(t.Context(), Options{Clients: NewClients(func(string) (*api.Client, error) {
		return api.NewClient(api.ClientConfig{BaseURL: "http://127.0.0.1:9"})
	})})
	if _, err := e.Begin(ask("hi"), gpt4o); !errors.Is(err, ErrNoClient) {
		t.Fatalf("Begin before the client was built: %v, want ErrNoClient", err)
	}
	if e.Conv().Len() != 0 || e.Reply() != nil {
		t.Fatalf("a refused turn changed the conversation (%d messages) or started a reply", e.Conv().Len())
	}
	none := New(t.Context(), Options{})
	if _, err := none.Begin(ask("hi"), gpt4o); !errors.Is(err, ErrNoGateway) {
		t.Fatalf("Begin without a gateway: %v, want ErrNoGateway", err)
	}
}

func TestAReplyRunsDrainsAndFinishes(t *testing.T) {
	c := newClock()
	e, gw := newEngine(t, c, Options{})
	gw.Enqueue(apitest.Reply{Text: "List<String> is generic", DeltaRunes: 4})
	r, err := e.Begin(ask("what is it?"), gpt4o)
	if err != nil {
		t.Fatal(err)
	}
	if got := e.State(); got != Sending {
		t.Fatalf("state after Begin %v, want sending", got)
	}
	if _, err := e.Begin(ask("again"), gpt4o); !errors.Is(err, ErrBusy) {
		t.Fatalf("a second Begin while a reply is in flight: %v, want ErrBusy", err)
	}
	r.Run(0)
	c.advance(2 * time.Second)
	end, over := e.Drain()
	if !over || end.Err != nil || end.Reply != r {
		t.Fatalf("drain after the stream ended: over %v, %+v", over, end)
	}
	if got := textOf(e.Conv()); got != "List<String> is generic" {
		t.Fatalf("reply text %q", got)
	}
	if e.Reply() != nil || e.State() != Idle {
		t.Fatalf("after the end: reply %v, state %v", e.Reply(), e.State())
	}
	if last := e.Last(); last.Usage == nil || last.Usage.CompletionTokens == 0 {
		t.Fatalf("last reply's figures %+v", last)
	}
	if got := gw.Requests()[0].Chat.Messages; len(got) != 1 || got[0].Content.PlainText() != "what is it?" {
		t.Fatalf("request messages %+v", got)
	}
	// The engine keeps the reply for its figures; not the request, as
	// long as the session, that it was sent with.
	if g := e.Group(); len(g) != 1 || g[0].Turn.Chat.Messages != nil || g[0].Turn.Built.Messages != nil {
		t.Fatalf("the finished reply still holds its request's %d messages", len(r.Turn.Chat.Messages))
	}
}

func TestTheStateMachine(t *testing.T) {
	c := newClock()
	e, _ := newEngine(t, c, Options{})
	if e.State() != Idle {
		t.Fatalf("a new engine is %v", e.State())
	}
	e.Hold(WaitAttachments)
	if e.State() != Preparing || e.Waiting() != WaitAttachments {
		t.Fatalf("held: %v waiting for %v", e.State(), e.Waiting())
	}
	r, err := e.Begin(ask("hi"), gpt4o)
	if err != nil {
		t.Fatal(err)
	}
	if e.Waiting() != WaitNone || e.State() != Sending {
		t.Fatalf("a begun turn: %v, waiting for %v", e.State(), e.Waiting())
	}
	// The pump is fed by hand: the test decides what arrived.
	r.Pump().Event(api.StreamEvent{Text: "hel"})
	e.Drain()
	if e.State() != Streaming {
		t.Fatalf("with text: %v", e.State())
	}
	r.Pump().Event(api.StreamEvent{Text: "lo", FinishReason: "stop"})
	e.Drain()
	if e.State() != Finishing {
		t.Fatalf("after the finish reason: %v", e.State())
	}
	c.advance(2 * time.Second)
	r.Pump().End(errors.New("the gateway closed the stream"))
	e.Drain()
	if e.State() != Failed {
		t.Fatalf("after a failure: %v", e.State())
	}
	// 5 characters (1.25 tokens) over the 2 s since the first text.
	if got := e.Last().Rate; got < 0.6 || got > 0.7 {
		t.Fatalf("rate %v, want 5/4 tokens over 2 s", got)
	}
	if _, err := e.Begin(nil, gpt4o); err != nil {
		t.Fatal(err)
	}
	if !e.Stop() || e.State() != Cancelled {
		t.Fatalf("after a stop: %v", e.State())
	}
}

func TestStopKeepsWhatArrivedAsInterrupted(t *testing.T) {
	c := newClock()
	e, gw := newEngine(t, c, Options{})
	gw.Enqueue(apitest.Reply{Text: "first part and then a long stall", DeltaRunes: 5, StallAfterDeltas: 2})
	r, err := e.Begin(ask("go"), gpt4o)
	if err != nil {
		t.Fatal(err)
	}
	done := make(chan struct{})
	go func() { r.Run(0); close(done) }()
	waitFor(t, "the first deltas", func() bool { return r.Pump().Buffered() == len("first part") })
	if !e.Stop() {
		t.Fatal("Stop found no reply")
	}
	<-done // the reply's goroutine ends with its context
	m := e.Conv().At(1)
	if m.State != conversation.StateInterrupted || m.Text != "first part" {
		t.Fatalf("stopped reply: %v %q", m.State, m.Text)
	}
	if _, over := e.Drain(); over {
		t.Fatal("a late drain of a stopped reply reported an end")
	}
}

func TestAFailureIsKeptMasked(t *testing.T) {
	c := newClock()
	e, gw := newEngine(t, c, Options{Mask: func(s string) string { return strings.ReplaceAll(s, "sekrit", "[redacted]") }})
	gw.Enqueue(apitest.Reply{Status: 400, ErrorMessage: "bad key sekrit"})
	r, err := e.Begin(ask("hi"), gpt4o)
	if err != nil {
		t.Fatal(err)
	}
	r.Run(0)
	end, _ := e.Drain()
	if end.Err == nil {
		t.Fatal("a 400 ended as a success")
	}
	m := e.Conv().At(1)
	if m.State != conversation.StateFailed || strings.Contains(m.Err, "sekrit") || !strings.Contains(m.Err, "[redacted]") {
		t.Fatalf("kept failure %v %q", m.State, m.Err)
	}
}

func TestCompleteStreamsToTheHandlersAndTheConversation(t *testing.T) {
	for _, stream := range []bool{true, false} {
		c := newClock()
		e, gw := newEngine(t, c, Options{})
		gw.Enqueue(apitest.Reply{Text: "an answer", Reasoning: "thinking", DeltaRunes: 3})
		var flushed int
		e.SetFlush(func(context.Context) error { flushed++; return nil })
		r, err := e.Begin(ask("q"), gpt4o)
		if err != nil {
			t.Fatal(err)
		}
		var text, reasoning strings.Builder
		res, err := e.Complete(t.Context(), r, stream, Handlers{Text: func(s string) { text.WriteString(s) }, Reasoning: func(s string) { reasoning.WriteString(s) }})
		if err != nil {
			t.Fatalf("stream %v: %v", stream, err)
		}
		if text.String() != "an answer" || reasoning.String() != "thinking" || res.FinishReason != "stop" || res.Usage == nil {
			t.Fatalf("stream %v: text %q reasoning %q result %+v", stream, text.String(), reasoning.String(), res)
		}
		m := e.Conv().At(1)
		if m.Text != "an answer" || m.Reasoning != "thinking" || m.State != conversation.StateDone || flushed != 1 || e.Reply() != nil {
			t.Fatalf("stream %v: kept %q/%q %v, flushed %d", stream, m.Text, m.Reasoning, m.State, flushed)
		}
	}
}

func TestCompleteCancelledKeepsTheTurnInterrupted(t *testing.T) {
	c := newClock()
	e, gw := newEngine(t, c, Options{})
	gw.Enqueue(apitest.Reply{Text: "partial answer here", DeltaRunes: 7, StallAfterDeltas: 1})
	r, err := e.Begin(ask("q"), gpt4o)
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(t.Context())
	_, err = e.Complete(ctx, r, true, Handlers{Text: func(s string) {
		if s != "" {
			cancel()
		}
	}, Reasoning: func(string) {}})
	if !errors.Is(err, context.Canceled) {
		t.Fatalf("err %v, want context.Canceled", err)
	}
	if m := e.Conv().At(1); m.State != conversation.StateInterrupted || m.Text != "partial" {
		t.Fatalf("kept %v %q", m.State, m.Text)
	}
}

// The status follows the last turn: a failed reply followed by image
// turn that made its images leaves the chat idle, not failed.
func TestAnImageTurnAfterAFailureLeavesTheChatIdle(t *testing.T) {
	c := newClock()
	e, gw := newEngine(t, c, Options{})
	gw.Enqueue(apitest.Reply{Status: 400, ErrorMessage: "bad request"})
	r, err := e.Begin(ask("hi"), gpt4o)
	if err != nil {
		t.Fatal(err)
	}
	r.Run(0)
	e.Drain()
	if e.State() != Failed {
		t.Fatalf("after a 400: %v", e.State())
	}
	job, err := imagegen.Plan(api.NewCatalog(nil), imagegen.Request{Prompt: "a kite", Model: "gpt-image-1", Dir: filepath.Join(t.TempDir(), "out")})
	if err != nil {
		t.Fatal(err)
	}
	run, err := e.StartImages(job, "a kite", conversation.ImageTurn{Size: job.Size, N: job.N}, 0)
	if err != nil {
		t.Fatal(err)
	}
	if e.State() != Sending || !e.Busy() {
		t.Fatalf("while images are made: %v", e.State())
	}
	made := run.Run(c.now(), imagegen.RunOptions{})
	if n, ok := e.FinishImages(made, func(err error) string { return err.Error() }); !ok || n != 1 {
		t.Fatalf("finished %d images (%v): %v", n, ok, made.Err)
	}
	if e.State() != Idle {
		t.Fatalf("after the image turn: %v, want idle", e.State())
	}
	if _, ok := e.FinishImages(made, nil); ok {
		t.Fatal("a second answer for the same run was taken")
	}
}

// TestReaderCoalescesPacedDeltas: deltas that come a few milliseconds
// apart are read in bursts, after a pause of the gap, not one wake-up
// each; all of them arrive.
func TestReaderCoalescesPacedDeltas(t *testing.T) {
	c := newClock()
	e, gw := newEngine(t, c, Options{})
	text := strings.Repeat("ab ", 60)
	const deltas = 60
	gw.Enqueue(apitest.Reply{Text: text, DeltaRunes: len(text) / deltas, Interval: 5 * time.Millisecond})
	r, err := e.Begin(ask("go"), gpt4o)
	if err != nil {
		t.Fatal(err)
	}
	done := make(chan struct{})
	go func() { r.Run(50 * time.Millisecond); close(done) }()
	growths, last := 0, 0
	for running := true; running; {
		select {
		case <-done:
			running = false
		case <-time.After(200 * time.Microsecond):
		}
		if n := r.Pump().Buffered(); n != last {
			growths++
			last = n
		}
	}
	if last != len(text) {
		t.Fatalf("%d of %d bytes arrived", last, len(text))
	}
	if growths > deltas/3 {
		t.Errorf("the text grew %d times for %d deltas; bursts after a pause expected", growths, deltas)
	}
}

// TestReaderDoesNotSlowAFastGateway: text already waiting is read without
// a pause (counted, not timed: a busy machine must not decide it).
func TestReaderDoesNotSlowAFastGateway(t *testing.T) {
	c := newClock()
	e, gw := newEngine(t, c, Options{})
	text := strings.Repeat("fast ", 2000)
	gw.Enqueue(apitest.Reply{Text: text, DeltaRunes: 5})
	r, err := e.Begin(ask("go"), gpt4o)
	if err != nil {
		t.Fatal(err)
	}
	r.Run(50 * time.Millisecond)
	if got := r.Pump().Buffered(); got != len(text) {
		t.Fatalf("%d of %d bytes arrived", got, len(text))
	}
	// 2000 deltas, about 300 KB of event stream: one pause before the
	// first read and one each time the buffer ran dry, not one a delta.
	if p := r.Pump().Pauses(); p < 1 || p > 40 {
		t.Errorf("the reader paused %d times for 2000 deltas sent at once", p)
	}
}

// waitFor polls cond until it holds (10 s at most): for what another
// goroutine does, never for what must already have happened.
func waitFor(t *testing.T, what string, cond func() bool) {
	t.Helper()
	deadline := time.Now().Add(10 * time.Second)
	for !cond() {
		if time.Now().After(deadline) {
			t.Fatalf("timed out waiting for %s", what)
		}
		time.Sleep(time.Millisecond)
	}
}
