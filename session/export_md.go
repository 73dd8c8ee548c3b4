package session

import (
	"bufio"
	"fmt"
	"io"
	"strings"
	"time"

	"parley/api"
	"parley/conversation"
	"parley/termsafe"
)

// writeMarkdown writes a session as a Markdown document: a header with
// what the session is, the system prompt, then each message of the active
// path under a heading naming who wrote it and when (with every branch:
// a section per branch, each going on from where it leaves the branch
// before it, so every message is written once). Message text is written as it is (replies are Markdown
// already), except that terminal control characters and escape sequences
// become visible placeholders, as on screen (termsafe.Markdown): a
// reply's raw escapes must not act when the file is printed with cat or
// shown by a pager.
func writeMarkdown(w io.Writer, e exported, sink imageSink, loc *time.Location) error {
	safe := &markdownSafe{w: w}
	b := bufio.NewWriter(safe)
	t := e.tree()
	branches := t.branches(e.all)
	if len(branches) == 0 {
		branches = t.branches(false) // no messages: the header alone
	}
	writeMarkdownHeader(b, e, len(branches), branches[0].Len, loc)
	sections := len(branches) > 1
	for k, br := range branches {
		if sections {
			fmt.Fprintf(b, "\n---\n\n## Branch %d of %d%s\n\n%s", k+1, len(branches), activeMark(br.Active), branchNote(br, k))
		}
		v := t.section(br, e.all)
		for i, m := range v.msgs {
			if err := writeMarkdownMessage(b, m, v.hashes[i], sink, loc); err != nil {
				return err
			}
		}
	}
	if err := writeMarkdownGenerated(b, e, sink, loc); err != nil {
		return err
	}
	if err := b.Flush(); err != nil {
		return err
	}
	return safe.close()
}

// writeMarkdownHeader writes what the session is; written is how many
// branches follow, pathLen how many messages the first holds.
func writeMarkdownHeader(b *bufio.Writer, e exported, written, pathLen int, loc *time.Location) {
	title := e.Title
	if title == "" {
		title = "(untitled)"
	}
	fmt.Fprintf(b, "# %s\n\n", oneLine(title, 200))
	fmt.Fprintf(b, "- Session: `%s`\n", e.ID)
	if e.Model != "" {
		fmt.Fprintf(b, "- Model: %s\n", e.Model)
	}
	fmt.Fprintf(b, "- Created: %s\n", stamp(e.Created, loc))
	fmt.Fprintf(b, "- Updated: %s\n", stamp(e.Updated, loc))
	switch n := e.branchCount(); {
	case written > 1:
		fmt.Fprintf(b, "- Messages: %d in %d branches, each written below from where it leaves the branch before it\n", len(e.Snapshot.Messages), written)
	case n > 1:
		fmt.Fprintf(b, "- Messages: %d\n- Branches: %d; this is the active one\n", pathLen, n)
	default:
		fmt.Fprintf(b, "- Messages: %d\n", pathLen)
	}
	if e.Role != "" {
		fmt.Fprintf(b, "- Role: %s\n", oneLine(e.Role, 100))
	}
	if names := e.Params.Names(); len(names) > 0 {
		set := make([]string, len(names))
		for i, n := range names {
			v, _ := e.Params.Value(n)
			set[i] = n + " = " + oneLine(v, 100)
		}
		fmt.Fprintf(b, "- Parameters: %s\n", strings.Join(set, ", "))
	}
	if p := e.SystemPrompt; p != "" {
		b.WriteString("\n## System prompt\n\n")
		b.WriteString(quote(p))
	}
}

func activeMark(active bool) string {
	if active {
		return " (active)"
	}
	return ""
}

// branchNote says what a branch holds and which of its messages were
// written with the branch before it.
func branchNote(b conversation.Branch, k int) string {
	note := fmt.Sprintf("*%d messages", b.Len)
	switch {
	case k == 0:
	case b.Shared == 0:
		note += "; it starts with another first message"
	case b.Shared == 1:
		note += fmt.Sprintf("; the first is the same as in branch %d, written above, so this one goes on from message 2", k)
	default:
		note += fmt.Sprintf("; the first %d are the same as in branch %d, written above, so this one goes on from message %d", b.Shared, k, b.Shared+1)
	}
	return note + ".*\n"
}

// writeMarkdownMessage writes one message under its heading.
func writeMarkdownMessage(b *bufio.Writer, m conversation.Message, hashes []string, sink imageSink, loc *time.Location) error {
	b.WriteString("\n---\n\n")
	head := who(m) + " · " + stamp(m.Created, loc)
	if m.AltCount > 1 {
		head += fmt.Sprintf(" · alternative %d of %d", m.AltIndex+1, m.AltCount)
	}
	fmt.Fprintf(b, "### %s\n", head)
	// Each block is preceded by a blank line.
	block := func(s string) {
		b.WriteString("\n")
		b.WriteString(s)
	}
	if strings.TrimSpace(m.Reasoning) != "" {
		block(thinking(m))
	}
	if len(m.Tools) > 0 {
		if err := writeMarkdownReplyWithTools(b, m, sink); err != nil {
			return err
		}
	} else if strings.TrimSpace(m.Text) != "" {
		block(strings.TrimRight(m.Text, "\n") + "\n")
	}
	for j, a := range m.Attachments {
		hash := ""
		if j < len(hashes) {
			hash = hashes[j]
		}
		ref, err := attachmentRef(sink, a, hash)
		if err != nil {
			return err
		}
		if a.IsText() {
			block(fileLine(a.Name, ref))
		} else {
			block(imageLine(a.Name, ref))
		}
	}
	if note := stateNote(m); note != "" {
		block(note)
	}
	if m.Excluded {
		block("> *Left out of what the model sees.*\n")
	}
	if u := m.Usage; u != nil {
		block(fmt.Sprintf("*%d prompt + %d completion = %d tokens*\n", u.PromptTokens, u.CompletionTokens, u.TotalTokens))
	}
	return nil
}

func writeMarkdownGenerated(b *bufio.Writer, e exported, sink imageSink, loc *time.Location) error {
	if len(e.generated) == 0 {
		return nil
	}
	b.WriteString("\n---\n\n## Generated images\n")
	for _, g := range e.generated {
		ref, err := sink.ref(g.SHA256, nameOr(g.Path, "generated"), g.MIME)
		if err != nil {
			return err
		}
		fmt.Fprintf(b, "\n### %s\n\n", oneLine(g.Prompt, 200))
		details := []string{g.Model}
		if g.Size != "" {
			details = append(details, g.Size)
		}
		details = append(details, stamp(g.Created, loc))
		fmt.Fprintf(b, "%s\n\n", strings.Join(details, " · "))
		b.WriteString(imageLine(g.Prompt, ref))
	}
	return nil
}

// markdownSafe makes what passes through it inert for a terminal
// (termsafe.MarkdownStream: a character reference cut between two writes
// is still caught).
type markdownSafe struct {
	w io.Writer
	s termsafe.MarkdownStream
}

func (m *markdownSafe) Write(p []byte) (int, error) {
	if _, err := io.WriteString(m.w, m.s.Write(string(p))); err != nil {
		return 0, err
	}
	return len(p), nil
}

func (m *markdownSafe) close() error {
	_, err := io.WriteString(m.w, m.s.Flush())
	return err
}

func attachmentRef(sink imageSink, a api.Attachment, hash string) (string, error) {
	if hash == "" {
		return a.URL, nil // a link the gateway fetched itself
	}
	return sink.ref(hash, a.Name, a.MIME)
}

// thinking is a reply's reasoning as a section of its own, quoted so it
// stands apart from the answer: "**Thinking** (4.2 s · 380 tokens)".
func thinking(m conversation.Message) string {
	var about []string
	if d := m.ThoughtFor(); d > 0 {
		about = append(about, conversation.ThoughtText(d))
	}
	if n := m.Usage.ReasoningTokens(); n > 0 {
		about = append(about, fmt.Sprintf("%d tokens", n))
	}
	head := "**Thinking**"
	if len(about) > 0 {
		head += " (" + strings.Join(about, " · ") + ")"
	}
	return head + "\n\n" + quote(m.Reasoning)
}

// fileLine links a text file, or notes that its bytes are gone.
func fileLine(name, ref string) string {
	name = strings.NewReplacer("[", "(", "]", ")", "\n", " ").Replace(oneLine(name, 100))
	if ref == "" {
		return fmt.Sprintf("*(file %s: its stored copy is missing)*\n", name)
	}
	if strings.ContainsAny(ref, " ()<>") {
		ref = "<" + strings.NewReplacer("<", "%3C", ">", "%3E").Replace(ref) + ">"
	}
	return fmt.Sprintf("File: [%s](%s)\n", name, ref)
}

// imageLine is a Markdown image, or a note when its bytes are gone.
func imageLine(alt, ref string) string {
	alt = strings.NewReplacer("[", "(", "]", ")", "\n", " ").Replace(oneLine(alt, 100))
	if ref == "" {
		return fmt.Sprintf("*(image %s: its stored copy is missing)*\n", alt)
	}
	if strings.ContainsAny(ref, " ()<>") {
		ref = "<" + strings.NewReplacer("<", "%3C", ">", "%3E").Replace(ref) + ">"
	}
	return fmt.Sprintf("![%s](%s)\n", alt, ref)
}

func who(m conversation.Message) string {
	switch {
	case m.Role == api.RoleUser:
		return "You"
	case m.IsImages():
		return "Images by " + oneLine(m.Model, 100)
	case m.Model != "":
		return m.Model
	}
	return "Assistant"
}

func stateNote(m conversation.Message) string {
	switch m.State {
	case conversation.StateInterrupted:
		return "> *Interrupted: the reply stopped here.*\n"
	case conversation.StateFailed:
		if m.Err != "" {
			return "> *Failed: " + oneLine(m.Err, 300) + "*\n"
		}
		return "> *Failed.*\n"
	}
	return ""
}

func quote(s string) string {
	lines := strings.Split(strings.TrimRight(s, "\n"), "\n")
	for i, l := range lines {
		lines[i] = strings.TrimRight("> "+l, " ")
	}
	return strings.Join(lines, "\n") + "\n"
}

func stamp(t time.Time, loc *time.Location) string {
	if t.IsZero() {
		return "unknown"
	}
	return t.In(loc).Format("2006-01-02 15:04 MST")
}

func nameOr(path, fallback string) string {
	if path == "" {
		return fallback
	}
	return path
}
