package session

import (
	"context"
	"strings"
	"testing"
	"time"

	"parley/conversation"
)

// TestLongReplyProgressWritesGrowWithTheText: a long reply streamed over
// many seconds is saved every second, and what reaches the disk grows
// with the text, not with the text times the number of saves: each
// progress write adds the new piece only, the end writes the whole text
// once. Measured: the bytes the process wrote while an 8 MiB reply
// streamed for 64 seconds (2 MiB over 32 under the race detector),
// checkpoints included.
func TestLongReplyProgressWritesGrowWithTheText(t *testing.T) {
	c := newClock()
	s, _ := openStore(t, c)
	r := record(t, s)
	conv := conversation.New(conversation.Options{Listeners: []conversation.Listener{r}, Now: c.now})
	conv.AddUser("print the log", nil)
	id, _ := conv.StartReply("gpt-4o")
	flush(t, r)
	pieces, pieceSize := 64, 128<<10
	if raceEnabled {
		pieces, pieceSize = 32, 64<<10 // a 2 MiB reply
	}
	piece := strings.Repeat("log line x\n", pieceSize/11+1)[:pieceSize]
	start, measured := bytesWritten()
	for i := range pieces {
		c.advance(time.Second)
		conv.AppendDelta(id, piece)
		flushWithin(t, r, time.Minute) // every progress write happens: none is coalesced
		if i == pieces/2 {
			// Halfway, the text so far is what a crash would leave.
			got, err := s.Load(context.Background(), conv.ID())
			if err != nil || got.Snapshot.Messages[1].Text != strings.Repeat(piece, i+1) {
				t.Fatalf("halfway: %d bytes saved, err %v", len(got.Snapshot.Messages[1].Text), err)
			}
		}
	}
	conv.Finish(id, "stop", nil)
	flushWithin(t, r, time.Minute)
	end, _ := bytesWritten()
	text := strings.Repeat(piece, pieces)
	got, err := s.Load(context.Background(), conv.ID())
	if err != nil || got.Snapshot.Messages[1].Text != text || got.Snapshot.Messages[1].State != conversation.StateDone {
		t.Fatalf("final reply: %d bytes, err %v", len(got.Snapshot.Messages[1].Text), err)
	}
	if !measured {
		t.Skip("the kernel does not report bytes written here")
	}
	written := end - start
	t.Logf("a %d MiB reply saved %d times: %d MiB written (%.1f× the text)", len(text)>>20, pieces, written>>20, float64(written)/float64(len(text)))
	// Pieces, the final text, its search index and the checkpoints of all
	// of them: a few times the text. Rewriting the text at every save
	// wrote about pieces/2 times the text.
	if written > 8*int64(len(text)) {
		t.Fatalf("wrote %d MiB for a %d MiB reply", written>>20, len(text)>>20)
	}
}
