package session

import (
	"bytes"
	"context"
	"crypto/sha256"
	"fmt"
	"image"
	"image/color"
	"image/png"
	"os"
	"path/filepath"
	"sync"
	"testing"
	"time"

	"parley/api"
	"parley/conversation"
)

// clock is a test clock moved by hand; every store and conversation of a
// test shares one, so stored times are predictable. The recorder reads it
// from its own goroutine.
type clock struct {
	mu sync.Mutex
	t  time.Time
}

func newClock() *clock { return &clock{t: time.Date(2026, 11, 23, 9, 30, 0, 0, time.UTC)} }

func (c *clock) now() time.Time {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.t
}

func (c *clock) advance(d time.Duration) {
	c.mu.Lock()
	c.t = c.t.Add(d)
	c.mu.Unlock()
}

// openStore opens a store in a fresh data directory.
func openStore(t testing.TB, c *clock) (*Store, string) {
	t.Helper()
	dir := filepath.Join(t.TempDir(), "parley")
	return openIn(t, dir, c), dir
}

func openIn(t testing.TB, dir string, c *clock) *Store {
	t.Helper()
	opts := Options{}
	if c != nil {
		opts.Now = c.now
	}
	s, err := Open(context.Background(), dir, opts)
	if err != nil {
		t.Fatalf("Open(%s): %v", dir, err)
	}
	t.Cleanup(func() { s.Close() })
	return s
}

// record starts a recorder closed at the end of the test.
func record(t testing.TB, s *Store) *Recorder {
	t.Helper()
	r := s.NewRecorder(context.Background())
	t.Cleanup(func() { r.Close() })
	return r
}

func flush(t testing.TB, r *Recorder) {
	t.Helper()
	flushWithin(t, r, 10*time.Second)
}

// flushWithin is flush for tests that write megabytes.
func flushWithin(t testing.TB, r *Recorder, d time.Duration) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), d)
	defer cancel()
	if err := r.Flush(ctx); err != nil {
		t.Fatalf("Flush: %v", err)
	}
}

// pngBytes encodes a real w×h PNG whose pixels depend on seed, so two
// seeds give two different files.
func pngBytes(t testing.TB, w, h int, seed uint8) []byte {
	t.Helper()
	img := image.NewNRGBA(image.Rect(0, 0, w, h))
	for y := 0; y < h; y++ {
		for x := 0; x < w; x++ {
			img.Set(x, y, color.NRGBA{R: uint8(x) + seed, G: uint8(y), B: seed, A: 255})
		}
	}
	var b bytes.Buffer
	if err := png.Encode(&b, img); err != nil {
		t.Fatal(err)
	}
	return b.Bytes()
}

// imageAttachment is an attachment as the composer makes one from a file.
func imageAttachment(t testing.TB, name string, w, h int, seed uint8) api.Attachment {
	data := pngBytes(t, w, h, seed)
	return api.Attachment{
		Name: name, MIME: "image/png", Width: w, Height: h, Bytes: len(data), Data: data,
		SHA256: fmt.Sprintf("%x", sha256.Sum256(data)), OrigWidth: w * 2, OrigHeight: h * 2, OrigBytes: len(data) * 3,
		OrigMIME: "image/jpeg", Resized: true,
	}
}

func linkAttachment(u string) api.Attachment {
	return api.Attachment{Name: filepath.Base(u), URL: u}
}

// chat records a conversation through a recorder: turns of question and
// answer, each reply streamed in a few deltas.
func chat(t testing.TB, r *Recorder, c *clock, id string, turns ...string) *conversation.Conversation {
	t.Helper()
	conv := conversation.New(conversation.Options{ID: id, Listeners: []conversation.Listener{r}, Now: c.now})
	for i := 0; i+1 < len(turns); i += 2 {
		answer(t, conv, c, turns[i], turns[i+1])
	}
	return conv
}

func answer(t testing.TB, conv *conversation.Conversation, c *clock, question, reply string, atts ...api.Attachment) {
	t.Helper()
	if _, err := conv.AddUser(question, atts); err != nil {
		t.Fatal(err)
	}
	c.advance(time.Second)
	id, err := conv.StartReply("gpt-4o")
	if err != nil {
		t.Fatal(err)
	}
	half := len(reply) / 2
	conv.AppendDelta(id, reply[:half])
	c.advance(time.Second)
	conv.AppendDelta(id, reply[half:])
	if err := conv.Finish(id, "stop", &api.Usage{PromptTokens: 10, CompletionTokens: 5, TotalTokens: 15}); err != nil {
		t.Fatal(err)
	}
	c.advance(time.Second)
}

// blobFiles lists the files in a store's blobs folder.
func blobFiles(t testing.TB, dir string) []string {
	t.Helper()
	var out []string
	filepath.WalkDir(filepath.Join(dir, BlobDir), func(p string, d os.DirEntry, err error) error {
		if err == nil && !d.IsDir() {
			out = append(out, filepath.Base(p))
		}
		return nil
	})
	return out
}
