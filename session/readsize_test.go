package session

import (
	"context"
	"fmt"
	"strings"
	"testing"
	"unsafe"
)

// TestLoadWithWrongMessageCount: the session's message count sizes the
// slice the messages are read into; a damaged count, too small, too
// large, absurd or negative, still gives every row, and no room is kept
// for rows that did not come.
func TestLoadWithWrongMessageCount(t *testing.T) {
	c := newClock()
	s, _ := openStore(t, c)
	r := record(t, s)
	const id = "0190f0a1b2c3d4e5f60718293a4b5c6d"
	chat(t, r, c, id, "first question", "first answer", "second question", "second answer", "third question", "third answer")
	flush(t, r)
	ctx := context.Background()
	want := mustLoad(t, s, id).Snapshot.Messages
	if len(want) != 6 {
		t.Fatalf("the session holds %d messages, want 6", len(want))
	}
	for _, count := range []int{0, 1, 5, 7, 1_000_000_000, -5} {
		t.Run(fmt.Sprint(count), func(t *testing.T) {
			if _, err := s.db.ExecContext(ctx, `UPDATE sessions SET message_count = ? WHERE id = ?`, count, id); err != nil {
				t.Fatal(err)
			}
			got, err := s.Load(ctx, id)
			if err != nil {
				t.Fatal(err)
			}
			msgs := got.Snapshot.Messages
			if len(msgs) != len(want) {
				t.Fatalf("Load gave %d messages, want %d", len(msgs), len(want))
			}
			for i := range msgs {
				g, w := msgs[i], want[i]
				if g.ID != w.ID || g.Parent != w.Parent || g.Role != w.Role || g.Text != w.Text || g.Model != w.Model ||
					g.FinishReason != w.FinishReason || g.AltIndex != w.AltIndex || g.AltCount != w.AltCount {
					t.Fatalf("message %d = %+v, want %+v", i, g, w)
				}
			}
			if cap(msgs) > 2*len(msgs) {
				t.Errorf("the messages keep room for %d, %d came", cap(msgs), len(msgs))
			}
		})
	}
}

// TestInternerBounded: equal short strings come back as one string; a
// long one, and any past the first internMaxCount, are returned as given
// and not kept.
func TestInternerBounded(t *testing.T) {
	var in interner
	first := strings.Clone("assistant")
	if got := in.of(first); unsafe.StringData(got) != unsafe.StringData(first) {
		t.Fatal("the first string was not returned")
	}
	again := strings.Clone("assistant")
	if got := in.of(again); got != "assistant" || unsafe.StringData(got) != unsafe.StringData(first) {
		t.Fatal("an equal string did not share the kept one")
	}
	long := strings.Repeat("m", internMaxLen+1)
	in.of(long)
	if got := in.of(strings.Clone(long)); unsafe.StringData(got) == unsafe.StringData(long) {
		t.Error("a string over internMaxLen was kept")
	}
	for i := range 2 * internMaxCount {
		s := fmt.Sprintf("model-%d", i)
		if got := in.of(s); got != s {
			t.Fatalf("of(%q) = %q", s, got)
		}
	}
	if len(in) != internMaxCount {
		t.Errorf("the interner keeps %d strings, want at most %d", len(in), internMaxCount)
	}
	if in.of("") != "" {
		t.Error("the empty string changed")
	}
}
