package preview

import (
	"encoding/base64"
	"strconv"
	"strings"

	"github.com/charmbracelet/x/ansi"
	"github.com/charmbracelet/x/ansi/kitty"
)

// The kitty graphics protocol, as parley uses it:
//
//   - Transmit: the picture as PNG (f=100), Base64 in chunks of at most
//     4096 bytes (m=1 on all but the last, m=0 on the last), transmitted
//     and given a virtual placement of c×r cells in one command (a=T, U=1),
//     quietly (q=2: the terminal answers nothing, so no reply can end up in
//     parley's input). Inside tmux every command is wrapped in tmux's
//     passthrough sequence.
//   - Place: the picture shows wherever the frame holds placeholder cells
//     for its id: U+10EEEE followed by combining marks for the row, the
//     column and, when not zero, the id's most significant byte, in the
//     foreground colour that carries the id's low bits. Every cell carries
//     its row and column, so a cell redrawn alone by the renderer's diff is
//     still placed right.
//   - Delete: a=d,d=I frees the picture and its placements.
//
// The terminal fits the picture into the placement keeping its aspect
// ratio, centred, as the half blocks are.

// MaxKittyCells is the most rows or columns a placement can address: the
// number of row/column marks the protocol defines.
const MaxKittyCells = 297

// chunkSize is the most Base64 bytes one transmit command carries.
const chunkSize = 4096

// kittyID maps a seed (a counter, or bits of a hash) to a valid image id.
// An id travels in the placeholder's foreground colour, 24 bits of it in
// true colour (never all zero), or 8 in a 256-colour index from 16 up (0–15
// become basic colours that renderers rewrite), plus a most significant
// byte in the third combining mark.
func kittyID(seed uint32, indexed bool) uint32 {
	if indexed {
		return (seed/240%256)<<24 | (16 + seed%240)
	}
	return (seed/0xFFFFFF%256)<<24 | (1 + seed%0xFFFFFF)
}

// placeholderLines lays a cols×rows placement of image id out centred in
// w×h cells.
func placeholderLines(id uint32, indexed bool, cols, rows, w, h int) []string {
	top, left := (h-rows)/2, (w-cols)/2
	blank := strings.Repeat(" ", w)
	lines := make([]string, h)
	for i := range lines {
		lines[i] = blank
	}
	var fg string
	if indexed {
		fg = "\x1b[38;5;" + strconv.Itoa(int(id&0xff)) + "m"
	} else {
		fg = "\x1b[38;2;" + strconv.Itoa(int(id>>16&0xff)) + ";" + strconv.Itoa(int(id>>8&0xff)) + ";" + strconv.Itoa(int(id&0xff)) + "m"
	}
	msb := id >> 24
	var b strings.Builder
	for r := range rows {
		b.Reset()
		b.WriteString(blank[:left])
		b.WriteString(fg)
		for c := range cols {
			b.WriteRune(kitty.Placeholder)
			b.WriteRune(kitty.Diacritic(r))
			b.WriteRune(kitty.Diacritic(c))
			if msb != 0 {
				b.WriteRune(kitty.Diacritic(int(msb)))
			}
		}
		b.WriteString("\x1b[m")
		b.WriteString(blank[:w-cols-left])
		lines[top+r] = b.String()
	}
	return lines
}

// transmitSeq is the commands that transmit a PNG as image id and give it
// a virtual placement of cols×rows cells.
func transmitSeq(id uint32, png []byte, cols, rows int, tmux bool) string {
	data := base64.StdEncoding.EncodeToString(png)
	var b strings.Builder
	b.Grow(len(data) + (len(data)/chunkSize+1)*48)
	first := true
	for len(data) > 0 || first {
		n := min(len(data), chunkSize)
		chunk := data[:n]
		data = data[n:]
		more := "0"
		if len(data) > 0 {
			more = "1"
		}
		var ctl string
		if first {
			ctl = "a=T,f=100,U=1,i=" + strconv.FormatUint(uint64(id), 10) +
				",c=" + strconv.Itoa(cols) + ",r=" + strconv.Itoa(rows) + ",q=2,m=" + more
			first = false
		} else {
			ctl = "m=" + more + ",q=2"
		}
		writeCommand(&b, "\x1b_G"+ctl+";"+chunk+"\x1b\\", tmux)
	}
	return b.String()
}

// deleteSeq is the command that frees image id in the terminal.
func deleteSeq(id uint32, tmux bool) string {
	var b strings.Builder
	writeCommand(&b, "\x1b_Ga=d,d=I,i="+strconv.FormatUint(uint64(id), 10)+",q=2\x1b\\", tmux)
	return b.String()
}

// writeCommand writes one graphics command, wrapped for tmux when asked.
func writeCommand(b *strings.Builder, cmd string, tmux bool) {
	if tmux {
		b.WriteString(ansi.TmuxPassthrough(cmd))
		return
	}
	b.WriteString(cmd)
}
