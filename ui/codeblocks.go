package ui

import "strings"

// codeBlocks returns the contents of the fenced code blocks of a Markdown
// text, in order, without their fences. It follows CommonMark fences: a line
// of three or more backticks or tildes (indented at most three spaces) opens
// a block that a line of at least as many of the same character closes; an
// unclosed block runs to the end (a reply cut off mid-block).
func codeBlocks(md string) []string {
	var blocks []string
	var cur strings.Builder
	var fenceChar byte
	fenceLen, indent := 0, 0
	open := false
	for _, line := range strings.Split(md, "\n") {
		line = strings.TrimSuffix(line, "\r")
		if !open {
			c, n, ind, ok := fence(line)
			if ok && !(c == '`' && strings.ContainsRune(line[ind+n:], '`')) {
				open, fenceChar, fenceLen, indent = true, c, n, ind
				cur.Reset()
			}
			continue
		}
		if c, n, ind, ok := fence(line); ok && c == fenceChar && n >= fenceLen && strings.TrimSpace(line[ind+n:]) == "" {
			blocks = append(blocks, cur.String())
			open = false
			continue
		}
		// Content lines lose up to the fence's indentation.
		for i := 0; i < indent && strings.HasPrefix(line, " "); i++ {
			line = line[1:]
		}
		cur.WriteString(line)
		cur.WriteByte('\n')
	}
	if open && cur.Len() > 0 {
		blocks = append(blocks, cur.String())
	}
	return blocks
}

// fence recognises a fence line: its character, length and indentation.
func fence(line string) (byte, int, int, bool) {
	ind := 0
	for ind < len(line) && ind < 4 && line[ind] == ' ' {
		ind++
	}
	if ind > 3 || ind >= len(line) {
		return 0, 0, 0, false
	}
	c := line[ind]
	if c != '`' && c != '~' {
		return 0, 0, 0, false
	}
	n := 0
	for ind+n < len(line) && line[ind+n] == c {
		n++
	}
	if n < 3 {
		return 0, 0, 0, false
	}
	return c, n, ind, true
}
