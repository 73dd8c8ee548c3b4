package session

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"time"
	"unicode/utf8"

	"parley/api"
	"parley/conversation"
)

// The JSON export. Field names are part of parley's interface: add,
// never rename.
type (
	jsonSession struct {
		Format       string      `json:"format"`
		Version      int         `json:"version"`
		ID           string      `json:"id"`
		Title        string      `json:"title"`
		Titled       bool        `json:"titled"`
		Model        string      `json:"model,omitempty"`
		SystemPrompt string      `json:"system_prompt,omitempty"`
		Role         string      `json:"role,omitempty"`
		Params       *api.Params `json:"params,omitempty"`
		Created      string      `json:"created"`
		Updated      string      `json:"updated"`
		// ActiveLeaf is the id of the active path's last message;
		// Branches how many leaves the tree has. Messages are the active
		// path, or with AllBranches every message of the tree, each after
		// its parent.
		ActiveLeaf      int             `json:"active_leaf"`
		Branches        int             `json:"branches"`
		AllBranches     bool            `json:"all_branches,omitempty"`
		Messages        []jsonMessage   `json:"messages"`
		GeneratedImages []jsonGenerated `json:"generated_images,omitempty"`
	}
	// jsonMessage: Parent is the id of the message it follows (0: it
	// opens the conversation); Alternative (from 1) of Alternatives when
	// its parent has several children; Excluded when its turn is left out
	// of what the model sees.
	jsonMessage struct {
		ID           int              `json:"id"`
		Parent       int              `json:"parent"`
		Role         string           `json:"role"`
		Text         string           `json:"text"`
		Reasoning    string           `json:"reasoning,omitempty"`
		ReasoningMS  int64            `json:"reasoning_ms,omitempty"` // from the first reasoning delta to the last
		State        string           `json:"state"`
		Model        string           `json:"model,omitempty"`
		Error        string           `json:"error,omitempty"`
		FinishReason string           `json:"finish_reason,omitempty"`
		Usage        *jsonUsage       `json:"usage,omitempty"`
		Created      string           `json:"created"`
		Attachments  []jsonAttachment `json:"attachments,omitempty"`
		Alternative  int              `json:"alternative,omitempty"`
		Alternatives int              `json:"alternatives,omitempty"`
		Excluded     bool             `json:"excluded,omitempty"`
		ToolCalls    []jsonToolCall   `json:"tool_calls,omitempty"`
	}
	jsonUsage struct {
		PromptTokens     int `json:"prompt_tokens"`
		CompletionTokens int `json:"completion_tokens"`
		TotalTokens      int `json:"total_tokens"`
		ReasoningTokens  int `json:"reasoning_tokens,omitempty"`
	}
	// jsonAttachment: Types "image" and "text" (a text file) have File
	// (empty when the stored copy is missing) and SHA256; type "link" has
	// URL.
	jsonAttachment struct {
		Type   string `json:"type"`
		File   string `json:"file,omitempty"`
		URL    string `json:"url,omitempty"`
		SHA256 string `json:"sha256,omitempty"`
		Name   string `json:"name,omitempty"`
		MIME   string `json:"mime,omitempty"`
		Width  int    `json:"width,omitempty"`
		Height int    `json:"height,omitempty"`
		Bytes  int    `json:"bytes,omitempty"`
	}
	jsonGenerated struct {
		Prompt  string `json:"prompt"`
		Model   string `json:"model"`
		Size    string `json:"size,omitempty"`
		Path    string `json:"path,omitempty"`
		File    string `json:"file,omitempty"`
		SHA256  string `json:"sha256"`
		MIME    string `json:"mime,omitempty"`
		Width   int    `json:"width,omitempty"`
		Height  int    `json:"height,omitempty"`
		Bytes   int    `json:"bytes,omitempty"`
		Created string `json:"created"`
	}
)

// jsonFormat names the export's format and jsonVersion its version.
const (
	jsonFormat  = "parley.session"
	jsonVersion = 1
)

func writeJSON(w io.Writer, e exported, sink imageSink, loc *time.Location) error {
	ts := func(t time.Time) string {
		if t.IsZero() {
			return ""
		}
		return t.In(loc).Format(time.RFC3339)
	}
	t := e.tree()
	out := jsonSession{
		Format: jsonFormat, Version: jsonVersion, ID: e.ID, Title: e.Title, Titled: e.Titled, Model: e.Model,
		SystemPrompt: e.SystemPrompt, Role: e.Role, Created: ts(e.Created), Updated: ts(e.Updated), Messages: []jsonMessage{},
		ActiveLeaf: t.conv.Leaf(), Branches: e.branchCount(), AllBranches: e.all,
	}
	if !e.Params.IsZero() {
		out.Params = &e.Params
	}
	v := t.view(t.conv.Messages())
	if e.all {
		// The tree, every message once: parents say the branches.
		v = t.view(t.conv.Snapshot().Messages)
	}
	for i, m := range v.msgs {
		jm, err := jsonMessageOf(m, v.hashes[i], sink, ts)
		if err != nil {
			return err
		}
		out.Messages = append(out.Messages, jm)
	}
	for _, g := range e.generated {
		ref, err := sink.ref(g.SHA256, nameOr(g.Path, "generated"), g.MIME)
		if err != nil {
			return err
		}
		out.GeneratedImages = append(out.GeneratedImages, jsonGenerated{Prompt: g.Prompt, Model: g.Model, Size: g.Size,
			Path: g.Path, File: ref, SHA256: g.SHA256, MIME: g.MIME, Width: g.Width, Height: g.Height, Bytes: g.Bytes, Created: ts(g.Created)})
	}
	return WriteJSON(w, out)
}

func jsonMessageOf(m conversation.Message, hashes []string, sink imageSink, ts func(time.Time) string) (jsonMessage, error) {
	jm := jsonMessage{
		ID: m.ID, Parent: m.Parent, Role: m.Role, Text: m.Text, State: m.State.String(), Model: m.Model, Error: m.Err,
		FinishReason: m.FinishReason, Created: ts(m.Created), Excluded: m.Excluded,
	}
	if m.AltCount > 1 {
		jm.Alternative, jm.Alternatives = m.AltIndex+1, m.AltCount
	}
	if u := m.Usage; u != nil {
		jm.Usage = &jsonUsage{u.PromptTokens, u.CompletionTokens, u.TotalTokens, u.ReasoningTokens()}
	}
	jm.Reasoning, jm.ReasoningMS = m.Reasoning, m.ThoughtFor().Milliseconds()
	calls, err := jsonToolCalls(m, sink)
	if err != nil {
		return jm, err
	}
	jm.ToolCalls = calls
	for j, a := range m.Attachments {
		hash := ""
		if j < len(hashes) {
			hash = hashes[j]
		}
		if hash == "" {
			jm.Attachments = append(jm.Attachments, jsonAttachment{Type: "link", URL: a.URL, Name: a.Name})
			continue
		}
		ref, err := sink.ref(hash, a.Name, a.MIME)
		if err != nil {
			return jm, err
		}
		typ := "image"
		if a.IsText() {
			typ = "text"
		}
		jm.Attachments = append(jm.Attachments, jsonAttachment{Type: typ, File: ref, SHA256: hash, Name: a.Name,
			MIME: a.MIME, Width: a.Width, Height: a.Height, Bytes: a.Bytes})
	}
	return jm, nil
}

// WriteJSON writes v as indented JSON in which every control character,
// DEL, C1 control and bidi control is escaped as \uXXXX: the same JSON
// value, but inert when printed to a terminal (encoding/json leaves DEL,
// C1 and bidi characters raw).
func WriteJSON(w io.Writer, v any) error {
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	enc.SetIndent("", "  ")
	if err := enc.Encode(v); err != nil {
		return err
	}
	_, err := w.Write(escapeInert(buf.Bytes()))
	return err
}

func escapeInert(b []byte) []byte {
	clean := true
	for _, c := range b {
		if c >= 0x7f {
			clean = false
			break
		}
	}
	if clean {
		return b
	}
	out := make([]byte, 0, len(b)+16)
	for len(b) > 0 {
		r, n := utf8.DecodeRune(b)
		if r == 0x7f || (r >= 0x80 && r <= 0x9f) || (r >= 0x202a && r <= 0x202e) || (r >= 0x2066 && r <= 0x2069) {
			out = fmt.Appendf(out, `\u%04x`, r)
		} else {
			out = append(out, b[:n]...)
		}
		b = b[n:]
	}
	return out
}
