package ui

import (
	"context"
	"fmt"
	"runtime"
	"strings"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"

	"parley/api"
	"parley/chat"
	"parley/conversation"
	"parley/termsafe"
	"parley/ui/mdstream"
)

// newWithEngine is New with the engine it presents, built first and kept
// by the caller.
func newWithEngine(ctx context.Context, opts Options) (*Model, *chat.Engine) {
	eng := NewEngine(ctx, opts)
	opts.Engine = eng
	return New(ctx, opts), eng
}

// benchModel returns a model at 120x40 with a reply of size bytes in
// flight (rendered once), ready for more of the stream, and the engine it
// presents, which the bench feeds.
func benchModel(b *testing.B, size int) (*Model, *chat.Engine, int) {
	b.Helper()
	clock := time.Date(2025, 6, 1, 12, 0, 0, 0, time.UTC)
	m, eng := newWithEngine(context.Background(), Options{
		Model: "gpt-4o", Theme: "dark", Width: 120, Height: 40,
		Now: func() time.Time { return clock },
		// A client that is never asked: the reply's stream is fed by hand.
		NewClient: func(string) (*api.Client, error) {
			return api.NewClient(api.ClientConfig{BaseURL: "http://127.0.0.1:9"})
		},
	})
	if _, err := eng.Clients().Get(eng.Model()); err != nil {
		b.Fatal(err)
	}
	r, err := eng.Begin(&conversation.UserInput{Text: "benchmark question"}, eng.TurnOptions(eng.Model()))
	if err != nil {
		b.Fatal(err)
	}
	b.Cleanup(func() { eng.Stop() })
	id := r.Turn.ReplyID
	para := "Some **Markdown** text of a typical answer, with `code` and a [link](https://example.com).\n\n"
	var sb strings.Builder
	for sb.Len() < size {
		sb.WriteString(para)
	}
	eng.Conv().AppendDelta(id, sb.String()[:size])
	renderAll(m)
	return m, eng, eng.Reply().ID
}

// BenchmarkStreamDelta is one stream delta through the root model: into
// the pump (what the goroutine reading the stream does), taken from it and
// applied to the conversation and the transcript (what the frame tick does
// with it before rendering), and a View, with 1 KB and 100 KB of reply
// already in flight. Rendering happens on the frame tick, not here
// (BenchmarkFrame). The baseline, in the same run, shows each delta the
// naive way: applied, then the whole reply rendered again, then View.
func BenchmarkStreamDelta(b *testing.B) {
	for _, size := range []int{1 << 10, 100 << 10} {
		name := fmt.Sprintf("%dKB", size>>10)
		b.Run(name+"/incremental", func(b *testing.B) {
			m, eng, _ := benchModel(b, size)
			ev := api.StreamEvent{Text: "word "}
			b.ReportAllocs()
			b.ResetTimer()
			before := len(lastText(eng))
			for b.Loop() {
				eng.Reply().Pump().Event(ev)
				eng.Drain()
				_ = m.View()
			}
			if got := len(lastText(eng)); got != before+b.N*len(ev.Text) {
				b.Fatalf("reply grew from %d to %d bytes over %d deltas", before, got, b.N)
			}
		})
		b.Run(name+"/naive-rerender", func(b *testing.B) {
			m, eng, _ := benchModel(b, size)
			r, err := mdstream.NewRendererWith(layoutOf(m).Transcript.W-2, m.ctx.Glamour, mdstream.Options{})
			if err != nil {
				b.Fatal(err)
			}
			ev := api.StreamEvent{Text: "word "}
			b.ReportAllocs()
			b.ResetTimer()
			for b.Loop() {
				eng.Reply().Pump().Event(ev)
				eng.Drain()
				_ = r.Render(termsafe.Markdown(lastText(eng)))
				_ = m.View()
			}
		})
	}
}

// BenchmarkFrame is one frame tick while streaming: text into the pump,
// then the tick that takes it, re-renders the reply's unfinished tail, the
// status bar and the frame, then View. The batches form paragraphs of about 400 bytes, as
// answers do, so the unfinished tail stays the size it has in practice.
func BenchmarkFrame(b *testing.B) {
	for _, size := range []int{1 << 10, 100 << 10} {
		b.Run(fmt.Sprintf("%dKB", size>>10), func(b *testing.B) {
			m, eng, sid := benchModel(b, size)
			word := api.StreamEvent{Text: "word word word word word "}
			para := api.StreamEvent{Text: "end.\n\n"}
			frame := frameMsg{id: sid}
			b.ReportAllocs()
			b.ResetTimer()
			i := 0
			for b.Loop() {
				if i++; i%16 == 0 {
					eng.Reply().Pump().Event(para)
				} else {
					eng.Reply().Pump().Event(word)
				}
				m.Update(frame)
				_ = m.View()
			}
		})
	}
}

// BenchmarkStreamDeltaComposed is the delta with the frame joined at once
// (what Update does after every message): the cost a delta would have if
// it were shown without waiting for the frame tick's render.
func BenchmarkStreamDeltaComposed(b *testing.B) {
	for _, size := range []int{1 << 10, 100 << 10} {
		b.Run(fmt.Sprintf("%dKB", size>>10), func(b *testing.B) {
			m, eng, _ := benchModel(b, size)
			ev := api.StreamEvent{Text: "word "}
			b.ReportAllocs()
			b.ResetTimer()
			for b.Loop() {
				eng.Reply().Pump().Event(ev)
				eng.Drain()
				m.composeFrame()
				_ = m.View()
			}
		})
	}
}

// BenchmarkKeystroke is typing one character into the composer (Update +
// View) with a 100 KB transcript.
func BenchmarkKeystroke(b *testing.B) {
	m, _, _ := benchModel(b, 100<<10)
	m.interruptStream()
	m.Update(tea.PasteMsg{Content: "a question being typed "})
	k := tea.KeyPressMsg{Code: 'a', Text: "a"}
	bs := tea.KeyPressMsg{Code: tea.KeyBackspace}
	b.ReportAllocs()
	b.ResetTimer()
	for b.Loop() {
		m.Update(k)
		m.Update(bs)
		_ = m.View()
	}
}

func lastText(eng *chat.Engine) string {
	r, _ := eng.Conv().LastReply()
	return r.Text
}

// BenchmarkKeystrokeLargeComposer is typing into the composer after 1 MB
// of text was pasted into it (a log: 12,500 lines of 80 bytes), one key
// and a backspace an op (Update + View). The paste is past the composer's
// bound, so it is a block on the message and the composer holds only the
// line typed before it; typing costs what it costs in an empty composer.
// Before the bound the textarea held the text (the first 10,000 lines of
// it: it cut the rest) and an op cost about 2 s of CPU.
func BenchmarkKeystrokeLargeComposer(b *testing.B) {
	m, _, _ := benchModel(b, 10<<10)
	m.interruptStream()
	m.Update(tea.PasteMsg{Content: "what went wrong here? "})
	m.Update(tea.PasteMsg{Content: megabyteLog()})
	if len(attachedTo(m)) != 1 || draftOf(m) != "what went wrong here? " {
		b.Fatalf("the paste is not a block: %d attachments, %d bytes in the composer", len(attachedTo(m)), len(draftOf(m)))
	}
	k := tea.KeyPressMsg{Code: 'a', Text: "a"}
	bs := tea.KeyPressMsg{Code: tea.KeyBackspace}
	b.ReportAllocs()
	b.ResetTimer()
	for b.Loop() {
		m.Update(k)
		m.Update(bs)
		_ = m.View()
	}
}

// megabyteLog is 1 MB of a log, 12,500 lines of 80 bytes: the most text
// one message sends by default (attach_max_text_total).
func megabyteLog() string {
	line := strings.Repeat("x", 65) + " level=info ok\n"
	return strings.Repeat(line, api.DefaultAttachMaxTextTotal/len(line))
}

// BenchmarkKeystrokeComposerSize is what a key costs with the composer
// holding n lines of a given width (one key and a backspace an op, Update
// and View, at 120x40), in CPU of the thread a key: the measurement
// composerMaxLines and composerMaxBytes come from. The cost follows the
// rows the text makes on screen.
func BenchmarkKeystrokeComposerSize(b *testing.B) {
	cases := []struct {
		name string
		text string
	}{
		{"25x80B", lines(25, 80)},
		{"50x80B", lines(50, 80)},
		{"100x80B", lines(100, 80)},
		{"200x80B", lines(200, 80)},
		{"400x80B", lines(400, 80)},
		{"100x1B", lines(100, 1)},
		{"200x1B", lines(200, 1)},
		{"1x8KB", strings.Repeat("word ", 1600)},
		{"1x16KB", strings.Repeat("word ", 3200)},
	}
	for _, tc := range cases {
		b.Run(tc.name, func(b *testing.B) {
			runtime.LockOSThread()
			defer runtime.UnlockOSThread()
			m, _, _ := benchModel(b, 10<<10)
			m.interruptStream()
			// Put in directly: past the bound a paste would be a block.
			m.comp.insert(tc.text)
			k := tea.KeyPressMsg{Code: 'a', Text: "a"}
			bs := tea.KeyPressMsg{Code: tea.KeyBackspace}
			m.Update(k)
			m.Update(bs)
			_ = m.View()
			var cpu time.Duration
			b.ResetTimer()
			for b.Loop() {
				c0 := threadCPU()
				m.Update(k)
				_ = m.View()
				m.Update(bs)
				_ = m.View()
				cpu += threadCPU() - c0
			}
			b.ReportMetric(float64(cpu)/float64(2*b.N)/float64(time.Millisecond), "cpu-ms/key")
		})
	}
}

// lines is n lines of w bytes (the last without its newline, so the cursor
// ends on text).
func lines(n, w int) string {
	return strings.Repeat(strings.Repeat("x", w-1)+"\n", n-1) + strings.Repeat("x", w-1)
}
