package session

import (
	"bufio"
	"encoding/json"
	"fmt"
	"strings"

	"parley/conversation"
	"parley/internal/bytesize"
)

// jsonToolCall is one tool call of a reply in the JSON export: the step
// (from 1) it belongs to, where in the reply's text it came (at, a byte
// offset), what was called and what came of it.
type jsonToolCall struct {
	Step      int              `json:"step"`
	At        int              `json:"at"`
	ID        string           `json:"id"`
	Name      string           `json:"name"`
	Server    string           `json:"server,omitempty"`
	Tool      string           `json:"tool,omitempty"`
	Arguments string           `json:"arguments"`
	Result    string           `json:"result"`
	Ran       bool             `json:"ran"`
	IsError   bool             `json:"is_error,omitempty"`
	Denied    bool             `json:"denied,omitempty"`
	Bytes     int              `json:"bytes,omitempty"`
	MS        int64            `json:"ms,omitempty"`
	Images    []jsonAttachment `json:"images,omitempty"`
}

func jsonToolCalls(m conversation.Message, sink imageSink) ([]jsonToolCall, error) {
	var out []jsonToolCall
	for i, st := range m.Tools {
		for _, c := range st.Calls {
			jc := jsonToolCall{Step: i + 1, At: st.At, ID: c.ID, Name: c.Name, Server: c.Server, Tool: c.Tool,
				Arguments: c.Arguments, Result: c.Result, Ran: c.Done && !c.Denied, IsError: c.IsError, Denied: c.Denied,
				Bytes: c.Bytes, MS: c.Took.Milliseconds()}
			for _, im := range c.Images {
				ref, err := sink.ref(im.SHA256, "tool-result", im.MIME)
				if err != nil {
					return nil, err
				}
				jc.Images = append(jc.Images, jsonAttachment{Type: "image", File: ref, SHA256: im.SHA256, MIME: im.MIME, Width: im.Width, Height: im.Height, Bytes: im.Bytes})
			}
			out = append(out, jc)
		}
	}
	return out, nil
}

// writeMarkdownReplyWithTools writes a reply's text with each step of
// tool calls where it came: the call, its arguments and its result.
func writeMarkdownReplyWithTools(b *bufio.Writer, m conversation.Message, sink imageSink) error {
	from := 0
	text := func(s string) {
		if strings.TrimSpace(s) != "" {
			b.WriteString("\n")
			b.WriteString(strings.TrimRight(s, " \t\n") + "\n")
		}
	}
	for _, st := range m.Tools {
		at := min(max(st.At, from), len(m.Text))
		text(m.Text[from:at])
		from = at
		for _, c := range st.Calls {
			if err := writeMarkdownCall(b, c, sink); err != nil {
				return err
			}
		}
	}
	text(m.Text[from:])
	return nil
}

func writeMarkdownCall(b *bufio.Writer, c conversation.ToolCallMade, sink imageSink) error {
	head := "**Tool call** `" + strings.ReplaceAll(oneLine(c.Name, 100), "`", "'") + "`"
	if c.Server != "" {
		head += " · " + oneLine(c.Server, 100)
	}
	switch {
	case c.Denied:
		head += " · denied"
	case !c.Done:
		head += " · not run"
	default:
		head += " · " + conversation.ThoughtText(c.Took) + " · " + bytesize.Format(int64(c.Bytes))
		if c.IsError {
			head += " · failed"
		}
	}
	fmt.Fprintf(b, "\n%s\n\n", head)
	b.WriteString(fenced("json", prettyJSON(c.Arguments)))
	if c.Done && !c.Denied {
		b.WriteString("\n")
		b.WriteString(quote(c.Result))
	}
	for _, im := range c.Images {
		ref, err := sink.ref(im.SHA256, "tool-result", im.MIME)
		if err != nil {
			return err
		}
		b.WriteString("\n")
		b.WriteString(imageLine("tool result", ref))
	}
	return nil
}

// prettyJSON indents a call's arguments when they are JSON, else leaves
// them as the model wrote them.
func prettyJSON(s string) string {
	var v any
	if json.Unmarshal([]byte(s), &v) != nil {
		return s
	}
	out, err := json.MarshalIndent(v, "", "  ")
	if err != nil {
		return s
	}
	return string(out)
}

// fenced is s in a code fence longer than any run of backticks in it.
func fenced(lang, s string) string {
	longest, run := 0, 0
	for _, r := range s {
		if r == '`' {
			run++
			longest = max(longest, run)
		} else {
			run = 0
		}
	}
	fence := strings.Repeat("`", max(3, longest+1))
	return fence + lang + "\n" + strings.TrimRight(s, "\n") + "\n" + fence + "\n"
}
