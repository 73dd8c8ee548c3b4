package preview

import (
	"bytes"
	"encoding/base64"
	"image"
	"image/png"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/charmbracelet/colorprofile"

	"parley/media/mediatest"
)

// graphicsCommand is one kitty graphics command: its control keys and its
// payload.
type graphicsCommand struct {
	ctl, payload string
}

// parseCommands splits a transmit or delete sequence into its commands,
// unwrapping tmux passthrough when tmux is set, and fails on anything else
// between them.
func parseCommands(t *testing.T, seq string, tmux bool) []graphicsCommand {
	t.Helper()
	var cmds []graphicsCommand
	for seq != "" {
		var cmd string
		if tmux {
			const open, end = "\x1bPtmux;", "\x1b\\"
			if !strings.HasPrefix(seq, open) {
				t.Fatalf("not a tmux passthrough: %q", seq[:min(len(seq), 40)])
			}
			rest := seq[len(open):]
			// Inside, every ESC is doubled; the first single ESC ends it.
			var b strings.Builder
			i := 0
			for ; i < len(rest); i++ {
				if rest[i] == 0x1b {
					if i+1 < len(rest) && rest[i+1] == 0x1b {
						b.WriteByte(0x1b)
						i++
						continue
					}
					break
				}
				b.WriteByte(rest[i])
			}
			if !strings.HasPrefix(rest[i:], end) {
				t.Fatalf("tmux passthrough not closed: %q", rest[i:min(len(rest), i+20)])
			}
			cmd, seq = b.String(), rest[i+len(end):]
		} else {
			end := strings.Index(seq, "\x1b\\")
			if end < 0 {
				t.Fatalf("command not closed: %q", seq[:min(len(seq), 40)])
			}
			cmd, seq = seq[:end+2], seq[end+2:]
		}
		if !strings.HasPrefix(cmd, "\x1b_G") || !strings.HasSuffix(cmd, "\x1b\\") {
			t.Fatalf("not a graphics command: %q", cmd[:min(len(cmd), 40)])
		}
		body := cmd[3 : len(cmd)-2]
		if strings.ContainsRune(body, 0x1b) {
			t.Fatalf("an ESC inside a command: %q", body)
		}
		ctl, payload, _ := strings.Cut(body, ";")
		cmds = append(cmds, graphicsCommand{ctl, payload})
	}
	return cmds
}

func TestTransmitChunks(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 1))
	for _, n := range []int{1, 3071, 3072, 3073, 10_000, 30_000} {
		data := make([]byte, n)
		for i := range data {
			data[i] = byte(rng.IntN(256))
		}
		for _, tmux := range []bool{false, true} {
			cmds := parseCommands(t, transmitSeq(77, data, 7, 3, tmux), tmux)
			wantChunks := (base64.StdEncoding.EncodedLen(n) + chunkSize - 1) / chunkSize
			if len(cmds) != wantChunks {
				t.Fatalf("%d bytes: %d commands, want %d", n, len(cmds), wantChunks)
			}
			var all strings.Builder
			for i, c := range cmds {
				more := "1"
				if i == len(cmds)-1 {
					more = "0"
				}
				want := "m=" + more + ",q=2"
				if i == 0 {
					want = "a=T,f=100,U=1,i=77,c=7,r=3,q=2,m=" + more
				}
				if c.ctl != want {
					t.Errorf("%d bytes, chunk %d: control %q, want %q", n, i, c.ctl, want)
				}
				if len(c.payload) > chunkSize || len(c.payload) == 0 || (i < len(cmds)-1 && len(c.payload) != chunkSize) {
					t.Errorf("%d bytes, chunk %d: %d bytes of payload", n, i, len(c.payload))
				}
				all.WriteString(c.payload)
			}
			got, err := base64.StdEncoding.DecodeString(all.String())
			if err != nil || !bytes.Equal(got, data) {
				t.Errorf("%d bytes (tmux %v): payload does not decode to the data (%v)", n, tmux, err)
			}
		}
	}
}

func TestDeleteSeq(t *testing.T) {
	if got, want := deleteSeq(123, false), "\x1b_Ga=d,d=I,i=123,q=2\x1b\\"; got != want {
		t.Errorf("got %q, want %q", got, want)
	}
	if got, want := deleteSeq(123, true), "\x1bPtmux;\x1b\x1b_Ga=d,d=I,i=123,q=2\x1b\x1b\\\x1b\\"; got != want {
		t.Errorf("tmux: got %q, want %q", got, want)
	}
}

// The placeholder cells, byte for byte: U+10EEEE, then the marks for row,
// column and (when not zero) the id's top byte, from kitty's table (0 is
// U+0305, 1 U+030D), in the colour carrying the id's low bits.
func TestPlaceholderLinesGolden(t *testing.T) {
	const ph = "\U0010EEEE"
	got := placeholderLines(0x01020304, false, 2, 2, 4, 3)
	want := []string{
		" \x1b[38;2;2;3;4m" + ph + "\u0305\u0305\u030D" + ph + "\u0305\u030D\u030D" + "\x1b[m ",
		" \x1b[38;2;2;3;4m" + ph + "\u030D\u0305\u030D" + ph + "\u030D\u030D\u030D" + "\x1b[m ",
		"    ",
	}
	if !equalLines(got, want) {
		t.Errorf("true colour:\n got %q\nwant %q", got, want)
	}
	got = placeholderLines(17, true, 1, 1, 1, 1)
	want = []string{"\x1b[38;5;17m" + ph + "\u0305\u0305" + "\x1b[m"}
	if !equalLines(got, want) {
		t.Errorf("256 colours:\n got %q\nwant %q", got, want)
	}
	assertBlock(t, placeholderLines(0xff123456, false, 297, 3, 300, 5), 300, 5)
}

func TestKittyIDs(t *testing.T) {
	seen := map[uint32]bool{}
	for seed := range uint32(70_000) {
		id := kittyID(seed, true)
		if low := id & 0xffffff; low < 16 || low > 255 {
			t.Fatalf("seed %d: indexed id %#x carries more than a 256-colour index from 16", seed, id)
		}
		if seed < 240*256 {
			if seen[id] {
				t.Fatalf("seed %d: indexed id %#x repeats within 61,440 seeds", seed, id)
			}
			seen[id] = true
		}
	}
	for _, seed := range []uint32{0, 1, 0xFFFFFE, 0xFFFFFF, 0x1000000, 0xFFFFFFFF} {
		id := kittyID(seed, false)
		if id&0xffffff == 0 {
			t.Errorf("seed %#x: id %#x has an all-zero colour", seed, id)
		}
	}
	if kittyID(0xFFFFFE, false) == kittyID(0xFFFFFF, false) {
		t.Error("neighbouring seeds share an id")
	}
}

// A PNG that fits is transmitted as it is, undecoded; the lines are the
// placement laid out like half blocks would be.
func TestRenderKittyPassesSmallPNG(t *testing.T) {
	data := mediatest.PNG(t, mediatest.Photo(40, 20))
	r, err := Render(data, 60, 20, Options{Mode: Kitty, Profile: colorprofile.TrueColor})
	if err != nil {
		t.Fatal(err)
	}
	if r.Mode != Kitty || r.ID == 0 || r.Cols != 40 || r.Rows != 10 || r.X != 10 || r.Y != 5 {
		t.Fatalf("rendered %+v", r)
	}
	assertBlock(t, r.Lines, 60, 20)
	cmds := parseCommands(t, r.Transmit, false)
	if !strings.HasPrefix(cmds[0].ctl, "a=T,f=100,U=1,i=") || !strings.Contains(cmds[0].ctl, ",c=40,r=10,") {
		t.Errorf("first command %q", cmds[0].ctl)
	}
	if got := payloadOf(t, cmds); !bytes.Equal(got, data) {
		t.Error("the PNG was not sent as it is")
	}
	if del := parseCommands(t, r.Delete, false); len(del) != 1 || !strings.Contains(del[0].ctl, "a=d,d=I,") {
		t.Errorf("delete %q", r.Delete)
	}
	// Render without a cache derives the id from the content.
	again, _ := Render(data, 60, 20, Options{Mode: Kitty, Profile: colorprofile.TrueColor})
	if again.ID != r.ID {
		t.Errorf("same image, ids %d and %d", r.ID, again.ID)
	}
}

// Other pictures are decoded, turned, scaled to at most 16×32 pixels a
// cell and sent as PNG.
func TestRenderKittyScalesAndTurns(t *testing.T) {
	jpg := mediatest.JPEG(t, mediatest.Photo(2000, 1000), 90)
	r, err := Render(jpg, 30, 10, Options{Mode: Kitty, Profile: colorprofile.TrueColor})
	if err != nil {
		t.Fatal(err)
	}
	// 2000x1000 into 30x10 cells (30x20 half-block pixels): 30x15 → 30x8
	// cells; sent at most 480x256 pixels: 480x240.
	if r.Cols != 30 || r.Rows != 8 || r.Width != 2000 || r.Height != 1000 {
		t.Errorf("rendered %+v", r)
	}
	if b := pngBounds(t, payloadOf(t, parseCommands(t, r.Transmit, false))); b != image.Rect(0, 0, 480, 240) {
		t.Errorf("sent %v, want 480x240", b)
	}

	turned := mediatest.WithEXIFOrientation(mediatest.JPEG(t, mediatest.Photo(200, 100), 90), 6)
	r, err = Render(turned, 60, 60, Options{Mode: Kitty, Profile: colorprofile.TrueColor})
	if err != nil {
		t.Fatal(err)
	}
	if r.Width != 100 || r.Height != 200 || r.Cols != 60 || r.Rows != 60 {
		t.Errorf("turned: %+v", r)
	}
	if b := pngBounds(t, payloadOf(t, parseCommands(t, r.Transmit, false))); b != image.Rect(0, 0, 100, 200) {
		t.Errorf("turned: sent %v, want 100x200", b)
	}
}

// In tmux, and with 256 colours, the id rides in a palette index and the
// commands are wrapped; without colour, kitty falls back to blocks.
func TestRenderKittyProfilesAndTmux(t *testing.T) {
	data := mediatest.PNG(t, mediatest.Photo(8, 8))
	r, err := Render(data, 8, 4, Options{Mode: KittyTmux, Profile: colorprofile.TrueColor})
	if err != nil {
		t.Fatal(err)
	}
	if low := r.ID & 0xffffff; low < 16 || low > 255 || !strings.Contains(r.Lines[0], "\x1b[38;5;") {
		t.Errorf("tmux: id %#x, line %q", r.ID, r.Lines[0])
	}
	parseCommands(t, r.Transmit, true)
	parseCommands(t, r.Delete, true)

	r, err = Render(data, 8, 4, Options{Mode: Kitty, Profile: colorprofile.ANSI256})
	if err != nil || r.Mode != Kitty || !strings.Contains(r.Lines[0], "\x1b[38;5;") {
		t.Errorf("256 colours: %+v, %v", r, err)
	}
	for _, p := range []colorprofile.Profile{colorprofile.ANSI, colorprofile.ASCII} {
		r, err = Render(data, 8, 4, Options{Mode: Kitty, Profile: p})
		if err != nil || r.Mode != Blocks || r.Transmit != "" || r.ID != 0 {
			t.Errorf("%v: %+v, %v", p, r, err)
		}
	}
}

func payloadOf(t *testing.T, cmds []graphicsCommand) []byte {
	t.Helper()
	var all strings.Builder
	for _, c := range cmds {
		all.WriteString(c.payload)
	}
	b, err := base64.StdEncoding.DecodeString(all.String())
	if err != nil {
		t.Fatal(err)
	}
	return b
}

func pngBounds(t *testing.T, data []byte) image.Rectangle {
	t.Helper()
	img, err := png.Decode(bytes.NewReader(data))
	if err != nil {
		t.Fatalf("the payload is not a PNG: %v", err)
	}
	return img.Bounds()
}
