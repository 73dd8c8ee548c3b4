package transcript

import (
	"encoding/json"
	"fmt"
	"strings"

	"parley/conversation"
	"parley/internal/bytesize"
	"parley/termsafe"
)

// A reply's tool calls show under its thinking block, one folded line
// each ("▸ search_files · filesystem · 0.3 s · 2 KB"); the thinking
// toggle (ctrl+t, /thinking) unfolds them with the reasoning, to their
// arguments and result, each cut to maxToolLines lines (the message
// cursor copies them whole).
const maxToolLines = 24

// toolsOf are the steps of a reply (none for other messages).
func toolsOf(it *item) []conversation.ToolStep {
	if it.isUser() || it.msg.IsImages() {
		return nil
	}
	return it.msg.Tools
}

// toolLines appends the lines of a reply's tool calls.
func (t *thinking) toolLines(it *item, dst []string) []string {
	for _, st := range toolsOf(it) {
		for _, c := range st.Calls {
			mark := foldedMark
			if t.thinkShown {
				mark = unfoldedMark
			}
			dst = t.thinkLabel(dst, mark+ToolSummary(c))
			if !t.thinkShown {
				continue
			}
			dst = t.toolPart(dst, "arguments", prettyArgs(c.Arguments))
			switch {
			case c.Denied:
				dst = t.toolPart(dst, "", "denied: the model was told so")
			case c.Done:
				dst = t.toolPart(dst, "result", c.Result)
			}
			for _, im := range c.Images {
				dst = t.thinkLine(dst, fmt.Sprintf("%s%s %d×%d, %s", chipMark, im.MIME, im.Width, im.Height, bytesize.Format(int64(im.Bytes))))
			}
		}
	}
	return dst
}

// toolPart appends a titled part of an unfolded call, sanitised and cut.
func (t *thinking) toolPart(dst []string, title, text string) []string {
	if title != "" {
		dst = t.thinkLine(dst, title+":")
	}
	lines := wrapPlain(t.lay(termsafe.Sanitize(strings.TrimRight(text, "\n"))), max(t.thinkRoom()-2, 1), nil)
	for i, l := range lines {
		if i == maxToolLines {
			dst = t.thinkLine(dst, fmt.Sprintf("  … %d more lines (the message cursor's y copies all of it)", len(lines)-i))
			break
		}
		dst = t.thinkLine(dst, "  "+l)
	}
	return dst
}

// toolEstimate is how many lines the calls of it take.
func (t *thinking) toolEstimate(it *item) int {
	n := 0
	for _, st := range toolsOf(it) {
		n += len(st.Calls)
		if t.thinkShown {
			n += len(st.Calls) * 6
		}
	}
	return n
}

// ToolSummary is a call's folded line: "search_files · filesystem · 0.3 s
// · 2 KB", "… · denied", "… · running". Names are sanitised.
func ToolSummary(c conversation.ToolCallMade) string {
	parts := []string{oneLine(termsafe.Sanitize(c.Name))}
	if c.Server != "" {
		parts = append(parts, oneLine(termsafe.Sanitize(c.Server)))
	}
	switch {
	case c.Denied:
		parts = append(parts, "denied")
	case !c.Done:
		parts = append(parts, "running")
	default:
		parts = append(parts, conversation.ThoughtText(c.Took), bytesize.Format(int64(c.Bytes)))
		if c.IsError {
			parts = append(parts, "failed")
		}
	}
	return strings.Join(parts, " · ")
}

// prettyArgs indents arguments that are JSON.
func prettyArgs(s string) string {
	var v any
	if json.Unmarshal([]byte(s), &v) != nil {
		return s
	}
	b, err := json.MarshalIndent(v, "", "  ")
	if err != nil {
		return s
	}
	return string(b)
}

// UpdateTools shows the tool calls of a reply as they change (a step of
// calls began, a result came), in flight or not.
func (t *Transcript) UpdateTools(id int, steps []conversation.ToolStep) {
	l := &t.list
	i, it, ok := l.at(id)
	if !ok {
		return
	}
	old := l.hs.get(i)
	m := *it.msg // the message it holds may be shared: never changed
	m.Tools = steps
	it.msg = &m
	d := it.draw()
	d.think = t.think.renderThink(it, d.think[:0])
	if it.rendered() {
		l.setHeight(i, old, false)
	} else {
		l.hs.set(i, l.p.estimate(it))
	}
	if it.height() > old {
		l.grew(i)
	}
	l.ensureWindow()
}
