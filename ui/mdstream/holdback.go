package mdstream

import "bytes"

// tailEnd is where the rendered tail ends: the partial line of a table
// delimiter row is held back while streaming.
func (d *Doc) tailEnd() int {
	end := len(d.src)
	if d.finished || d.sc.pos >= end || d.sc.pos <= d.stable {
		return end
	}
	partial := d.src[d.sc.pos:]
	if !isDelimiterStart(partial) {
		return end
	}
	prev := d.src[d.stable : d.sc.pos-1]
	if i := bytes.LastIndexByte(prev, '\n'); i >= 0 {
		prev = prev[i+1:]
	}
	if bytes.IndexByte(prev, '|') < 0 {
		return end
	}
	return d.sc.pos
}

// isDelimiterStart reports whether a partial line may be the start of a
// table's delimiter row.
func isDelimiterStart(b []byte) bool {
	pipe := false
	for _, c := range b {
		switch c {
		case '|':
			pipe = true
		case '-', ':', ' ', '\t':
		default:
			return false
		}
	}
	return pipe
}
