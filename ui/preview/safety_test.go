package preview

import (
	"bytes"
	"encoding/base64"
	"encoding/binary"
	"hash/crc32"
	"image/color"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/charmbracelet/colorprofile"

	"parley/media"
	"parley/media/mediatest"
)

// checkLines fails unless every escape in the lines is an SGR sequence
// (ESC [ digits and semicolons m) and nothing else is a control character.
func checkLines(t *testing.T, lines []string) {
	t.Helper()
	for i, l := range lines {
		for j := 0; j < len(l); {
			if l[j] == 0x1b {
				k := j + 1
				if k >= len(l) || l[k] != '[' {
					t.Fatalf("line %d: an escape that is not SGR at %d: %q", i, j, l)
				}
				k++
				for k < len(l) && (l[k] >= '0' && l[k] <= '9' || l[k] == ';') {
					k++
				}
				if k >= len(l) || l[k] != 'm' {
					t.Fatalf("line %d: an escape that is not SGR at %d: %q", i, j, l)
				}
				j = k + 1
				continue
			}
			r, size := utf8.DecodeRuneInString(l[j:])
			if r == utf8.RuneError || r < 0x20 || (r >= 0x7f && r < 0xa0) {
				t.Fatalf("line %d: control or invalid character %q at %d", i, r, j)
			}
			j += size
		}
	}
}

// checkCommands fails unless seq is only kitty graphics commands whose
// payloads are Base64.
func checkCommands(t *testing.T, seq string, tmux bool) {
	t.Helper()
	for _, c := range parseCommands(t, seq, tmux) {
		if strings.Trim(c.payload, "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/=") != "" {
			t.Fatalf("a payload that is not Base64: %q", c.payload)
		}
		if strings.Trim(c.ctl, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789=,") != "" {
			t.Fatalf("odd control keys: %q", c.ctl)
		}
	}
}

// withTextChunk inserts a tEXt chunk carrying text after the PNG's header
// chunk, as an image from anywhere may carry.
func withTextChunk(png []byte, text string) []byte {
	const ihdrEnd = 8 + 4 + 4 + 13 + 4
	data := append([]byte("Comment\x00"), text...)
	var chunk bytes.Buffer
	_ = binary.Write(&chunk, binary.BigEndian, uint32(len(data)))
	chunk.WriteString("tEXt")
	chunk.Write(data)
	_ = binary.Write(&chunk, binary.BigEndian, crc32.ChecksumIEEE(append([]byte("tEXt"), data...)))
	out := append([]byte{}, png[:ihdrEnd]...)
	out = append(out, chunk.Bytes()...)
	return append(out, png[ihdrEnd:]...)
}

// Escape sequences inside an image file (here a PNG comment that would set
// the clipboard and the title) never reach the output: the lines are
// built from colours, and the file goes to the terminal only as Base64.
func TestHostileImageStaysInside(t *testing.T) {
	evil := "\x1b]52;c;cm0gLXJmIH4=\x07\x1b]0;pwned\x07\x1b[2J\x9b31m"
	data := withTextChunk(mediatest.PNG(t, mediatest.Photo(16, 16)), evil)
	for _, opts := range []Options{
		{Mode: Blocks, Profile: colorprofile.TrueColor},
		{Mode: Blocks, Profile: colorprofile.ANSI256},
		{Mode: Blocks, Profile: colorprofile.ASCII},
		{Mode: Kitty, Profile: colorprofile.TrueColor},
		{Mode: KittyTmux, Profile: colorprofile.TrueColor},
		{Mode: Off},
	} {
		r, err := Render(data, 20, 8, opts)
		if err != nil {
			t.Fatalf("%v: %v", opts.Mode, err)
		}
		checkLines(t, r.Lines)
		for _, s := range append([]string{r.Transmit, r.Delete}, r.Lines...) {
			if strings.Contains(s, "pwned") || strings.Contains(s, "]52;") {
				t.Fatalf("%v: the file's text reached the output", opts.Mode)
			}
		}
		checkCommands(t, r.Transmit, opts.Mode == KittyTmux)
		checkCommands(t, r.Delete, opts.Mode == KittyTmux)
	}
	// The kitty picture was the file itself, comment and all, as Base64.
	r, _ := Render(data, 20, 8, Options{Mode: Kitty, Profile: colorprofile.TrueColor})
	if !bytes.Equal(payloadOf(t, parseCommands(t, r.Transmit, false)), data) {
		t.Error("the PNG was not passed as it is")
	}

	// Text that is not an image is refused without quoting it.
	_, err := Render([]byte(evil), 20, 8, Options{Mode: Blocks})
	if err == nil || strings.ContainsAny(err.Error(), "\x1b\x07") {
		t.Errorf("refusal: %q", err)
	}
}

// FuzzRender feeds damaged and arbitrary bytes: Render never panics, and
// what it returns keeps the layout and the escape rules.
func FuzzRender(f *testing.F) {
	f.Add(mediatest.PNG(f, mediatest.Photo(7, 5)), uint8(9), uint8(3), uint8(0))
	f.Add(mediatest.JPEG(f, mediatest.Photo(9, 9), 70), uint8(4), uint8(4), uint8(1))
	f.Add(mediatest.GIF(f, 1, 6, 6), uint8(6), uint8(2), uint8(2))
	f.Add(mediatest.SolidWEBP(5, 3, color.NRGBA{1, 2, 3, 255}), uint8(3), uint8(3), uint8(3))
	f.Add([]byte("\x89PNG\r\n\x1a\n"), uint8(1), uint8(1), uint8(0))
	f.Fuzz(func(t *testing.T, data []byte, w, h, mode uint8) {
		opts := Options{Mode: Mode(mode % 4), Profile: colorprofile.TrueColor, Budget: media.NewBudget(8 << 20)}
		r, err := Render(data, int(w%40)+1, int(h%20)+1, opts)
		if err != nil {
			return
		}
		assertBlock(t, r.Lines, int(w%40)+1, int(h%20)+1)
		checkLines(t, r.Lines)
		if r.Transmit != "" {
			checkCommands(t, r.Transmit, opts.Mode == KittyTmux)
			if _, err := base64.StdEncoding.DecodeString(strings.Join(payloads(t, r.Transmit, opts.Mode == KittyTmux), "")); err != nil {
				t.Fatalf("payload: %v", err)
			}
		}
	})
}

func payloads(t *testing.T, seq string, tmux bool) []string {
	t.Helper()
	var out []string
	for _, c := range parseCommands(t, seq, tmux) {
		out = append(out, c.payload)
	}
	return out
}
