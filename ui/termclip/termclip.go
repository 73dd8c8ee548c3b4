// Package termclip reads the clipboard of the terminal parley draws in,
// for when no desktop clipboard is reachable (over SSH, on a console):
// kitty's clipboard protocol (OSC 5522), which carries images, in
// terminals that speak it, else OSC 52's read, which carries text. It is
// the state of one read: what to write to the terminal, what the replies
// (the OSC sequences the terminal sends back) mean, and when to give up.
// It writes and waits for nothing itself: the UI sends what it is told to
// and hands back what arrives, so the read needs no goroutine.
package termclip

import (
	"encoding/base64"
	"errors"
	"fmt"
	"strings"
	"time"

	"parley/internal/bytesize"
)

// Waits for an answer. A terminal that does not know a request ignores it,
// so silence is the only "no"; kitty may ask the user first, which takes
// longer than a reply.
const (
	KittyWait = 15 * time.Second
	OSC52Wait = 3 * time.Second
)

// The ways a read finds nothing: a terminal that answered neither
// request, a clipboard that holds nothing.
var (
	ErrNoAnswer = errors.New("the terminal did not answer a clipboard read (OSC 52)")
	ErrEmpty    = errors.New("the clipboard is empty; copy a screenshot or some text first")
)

// Phase is what the read waits for.
type Phase int

// The phases of a read.
const (
	Idle  Phase = iota
	Kitty       // the reply to the OSC 5522 read
	OSC52       // the reply to the OSC 52 read
)

// Step is what the caller does next: write Write to the terminal (when
// not ""), ask for OSC 52's read (ReadOSC52), wait Wait for the phase Gen
// (when not 0; Expire(Gen) afterwards), and once Done, use Result.
type Step struct {
	Write     string
	ReadOSC52 bool
	Wait      time.Duration
	Gen       int
	Done      bool
	Result    Result
}

// Result is what the clipboard held: an image (PNG), text, or why there is
// neither.
type Result struct {
	Image []byte
	Text  string
	Err   error
}

// Reader is one read in flight; the zero value is idle.
type Reader struct {
	phase Phase
	gen   int
	limit int64
	bytes int64
	ok    bool
	data  map[string]*chunks
}

// chunks gathers one MIME type's Base64, decoded as whole quanta arrive.
type chunks struct {
	out   []byte
	carry string
}

// Phase is what the read waits for (Idle when none is in flight).
func (r *Reader) Phase() Phase { return r.phase }

// Start begins a read of at most limit bytes of data: through kitty's
// protocol when kitty is true (the terminal speaks it), else OSC 52's.
func (r *Reader) Start(kitty bool, limit int64) Step {
	*r = Reader{gen: r.gen + 1, limit: limit}
	if !kitty {
		return r.osc52()
	}
	r.phase = Kitty
	mimes := base64.StdEncoding.EncodeToString([]byte("image/png text/plain"))
	return Step{Write: "\x1b]5522;type=read;" + mimes + "\x1b\\", Wait: KittyWait, Gen: r.gen}
}

func (r *Reader) osc52() Step {
	r.phase, r.data = OSC52, nil
	r.gen++
	return Step{ReadOSC52: true, Wait: OSC52Wait, Gen: r.gen}
}

// Cancel forgets the read in flight: what arrives for it is ignored.
func (r *Reader) Cancel() {
	r.phase = Idle
	r.gen++
}

// Expire is the end of the wait gen: a kitty read that got no answer goes
// on with OSC 52, an OSC 52 read ends with ErrNoAnswer. A wait of an
// earlier phase does nothing.
func (r *Reader) Expire(gen int) Step {
	if gen != r.gen {
		return Step{}
	}
	switch r.phase {
	case Kitty:
		return r.osc52()
	case OSC52:
		return r.finish(Result{Err: ErrNoAnswer})
	}
	return Step{}
}

// OSC52Text is the reply to OSC 52's read.
func (r *Reader) OSC52Text(text string) Step {
	if r.phase != OSC52 {
		return Step{}
	}
	if text == "" {
		return r.finish(Result{Err: ErrEmpty})
	}
	return r.finish(Result{Text: text})
}

// Feed takes an OSC sequence the terminal sent (as it came, with its
// introducer and terminator); ok is false for one that is not a reply of
// kitty's protocol to this read.
func (r *Reader) Feed(seq string) (Step, bool) {
	body, ok := oscBody(seq)
	if !ok || r.phase != Kitty {
		return Step{}, false
	}
	meta, payload, _ := strings.Cut(strings.TrimPrefix(body, "5522;"), ";")
	keys := map[string]string{}
	for _, kv := range strings.Split(meta, ":") {
		k, v, _ := strings.Cut(kv, "=")
		keys[k] = v
	}
	if keys["type"] != "read" {
		return Step{}, false
	}
	switch status := keys["status"]; status {
	case "OK":
		r.ok = true
		return Step{}, true
	case "DATA":
		mime, err := base64.StdEncoding.DecodeString(keys["mime"])
		if err != nil {
			return r.finish(Result{Err: errors.New("the terminal sent clipboard data of an unreadable type")}), true
		}
		if err := r.add(string(mime), payload); err != nil {
			return r.finish(Result{Err: err}), true
		}
		return Step{}, true
	case "DONE":
		return r.done(), true
	case "EPERM":
		return r.finish(Result{Err: errors.New("the terminal refused to share its clipboard (permission denied); allow it when the terminal asks, or see clipboard_control in kitty's settings")}), true
	default:
		// ENOSYS and friends: nothing of the types asked for, or a
		// terminal that cannot read its clipboard; OSC 52 may still.
		return r.osc52(), true
	}
}

// oscBody strips an OSC sequence's introducer and terminator.
func oscBody(seq string) (string, bool) {
	switch {
	case strings.HasPrefix(seq, "\x1b]"):
		seq = seq[2:]
	case strings.HasPrefix(seq, "\u009d"):
		seq = seq[len("\u009d"):]
	}
	for _, end := range [...]string{"\x1b\\", "\x07", "\u009c"} {
		seq = strings.TrimSuffix(seq, end)
	}
	return seq, strings.HasPrefix(seq, "5522;")
}

// add decodes one chunk of a type's data, within the limit, checked from
// the Base64's length before decoding. Chunks may each be padded or be
// cut anywhere: whole quanta are decoded, the rest waits for the next.
func (r *Reader) add(mime, payload string) error {
	if r.data == nil {
		r.data = map[string]*chunks{}
	}
	c := r.data[mime]
	if c == nil {
		c = &chunks{}
		r.data[mime] = c
	}
	c.carry += strings.TrimSpace(payload)
	n := len(c.carry) / 4 * 4
	if n == 0 {
		return nil
	}
	r.bytes += int64(n / 4 * 3)
	if r.bytes > r.limit {
		return fmt.Errorf("the clipboard's content is larger than parley reads (%s); save it to a file and attach that", bytesize.Format(r.limit))
	}
	b, err := base64.StdEncoding.DecodeString(c.carry[:n])
	if err != nil {
		return fmt.Errorf("the terminal sent damaged clipboard data (%v)", err)
	}
	c.out = append(c.out, b...)
	c.carry = c.carry[n:]
	return nil
}

// done ends a kitty read: the image when there is one, else the text.
func (r *Reader) done() Step {
	img, txt := r.data["image/png"], r.data["text/plain"]
	switch {
	case img != nil && len(img.out) > 0:
		return r.finish(Result{Image: img.out})
	case txt != nil && len(txt.out) > 0:
		return r.finish(Result{Text: string(txt.out)})
	}
	return r.finish(Result{Err: ErrEmpty})
}

func (r *Reader) finish(res Result) Step {
	r.phase, r.data = Idle, nil
	r.gen++
	return Step{Done: true, Result: res}
}
