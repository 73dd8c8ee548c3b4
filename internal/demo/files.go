package demo

import (
	"fmt"
	"strings"

	"parley/api/fake"
)

// attachedFile is a text file as parley sends it: a text part that starts
// "File: NAME", then a blank line and the content in a fenced block.
type attachedFile struct {
	name, content string
}

// attachedFiles finds the text files of the last user message.
func attachedFiles(req *fake.ChatRequest) []attachedFile {
	m := lastUser(req)
	if m == nil {
		return nil
	}
	var out []attachedFile
	for _, p := range m.Content.Parts {
		if p.Type != "text" {
			continue
		}
		if f, ok := parseFilePart(p.Text); ok {
			out = append(out, f)
		}
	}
	return out
}

// parseFilePart reads "File: NAME\n\n```lang\nCONTENT```" (the fence as
// long as the opening one).
func parseFilePart(text string) (attachedFile, bool) {
	head, rest, ok := strings.Cut(text, "\n\n")
	name, isFile := strings.CutPrefix(head, "File: ")
	if !ok || !isFile {
		return attachedFile{}, false
	}
	open, body, ok := strings.Cut(rest, "\n")
	fence := open[:len(open)-len(strings.TrimLeft(open, "`"))]
	if !ok || len(fence) < 3 || !strings.HasSuffix(body, fence) {
		return attachedFile{}, false
	}
	return attachedFile{name: name, content: strings.TrimSuffix(body, fence)}, true
}

// maxQuotedLine bounds the first line a reply quotes.
const maxQuotedLine = 100

// describeFiles is demo-files's reply: for each attached text file its
// lines and words, and its first line.
func describeFiles(req *fake.ChatRequest) string {
	files := attachedFiles(req)
	var b strings.Builder
	b.WriteString("## Your files\n\n")
	if q := quote(lastUserText(req)); q != "" && len(files) == 0 {
		fmt.Fprintf(&b, "You asked: *%s*\n\n", q)
	}
	if len(files) == 0 {
		b.WriteString("Your last message has no text file. Attach one (`/attach notes.md`, the file picker, " +
			"or paste its path; `parley ask --demo -m demo-files -a notes.md \"what is in it?\"` from a shell) " +
			"and I will count its lines and words and quote its first line.\n")
		return b.String()
	}
	fmt.Fprintf(&b, "Your message carries %s:\n\n", plural(len(files), "text file", "text files"))
	b.WriteString("| file | lines | words |\n|---|---|---|\n")
	for _, f := range files {
		fmt.Fprintf(&b, "| `%s` | %d | %d |\n", strings.ReplaceAll(f.name, "`", "'"), lineCount(f.content), len(strings.Fields(f.content)))
	}
	b.WriteString("\n")
	for _, f := range files {
		first, _, _ := strings.Cut(strings.TrimLeft(f.content, "\n"), "\n")
		first = strings.TrimSpace(first)
		if r := []rune(first); len(r) > maxQuotedLine {
			first = string(r[:maxQuotedLine-1]) + "…"
		}
		if first == "" {
			fmt.Fprintf(&b, "- `%s` is empty.\n", strings.ReplaceAll(f.name, "`", "'"))
			continue
		}
		fmt.Fprintf(&b, "- `%s` begins: %q\n", strings.ReplaceAll(f.name, "`", "'"), first)
	}
	b.WriteString("\nI am the demo's file model: each file reached me as text, with its name, " +
		"in a fenced block. A model without vision can read them too.\n")
	return b.String()
}

// lineCount counts lines as parley's chip does: a last line without a
// newline counts.
func lineCount(s string) int {
	if s == "" {
		return 0
	}
	n := strings.Count(s, "\n")
	if !strings.HasSuffix(s, "\n") {
		n++
	}
	return n
}
