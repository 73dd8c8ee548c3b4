package api

import (
	"bytes"
	"fmt"
	"path/filepath"
	"strings"

	"parley/internal/bytesize"
)

// Defaults for the text-file limits of AttachLimits: a file of 256 KB is
// about 60000 tokens, already more than many models' context; 1 MB is
// the most one message carries in all.
const (
	DefaultAttachMaxTextBytes = 256_000
	DefaultAttachMaxTextTotal = 1_000_000
)

// AttachKind says what an attachment is.
type AttachKind int

// The kinds of attachment. The zero value is an image, so attachments
// made before text files existed (and links) stay images.
const (
	KindImage AttachKind = iota
	KindText
)

// TextMIME is the media type of every text attachment: parley sends the
// file's UTF-8 text, whatever the file's name says it holds.
const TextMIME = "text/plain; charset=utf-8"

// IsText reports whether the attachment is a text file, sent as a text
// part (TextBlock) rather than as an image.
func (a Attachment) IsText() bool { return a.Kind == KindText }

// utf8BOM is the byte order mark some editors put before UTF-8 text.
var utf8BOM = []byte{0xEF, 0xBB, 0xBF}

// utf16BOM reports text in UTF-16, which has NULs in every ASCII
// character and so is not taken for text; the refusal says how to fix it.
func utf16BOM(data []byte) bool {
	return bytes.HasPrefix(data, []byte{0xFF, 0xFE}) || bytes.HasPrefix(data, []byte{0xFE, 0xFF})
}

// CountLines counts the lines of a text: a last line without a newline
// counts; an empty text has none.
func CountLines(data []byte) int {
	data = bytes.TrimPrefix(data, utf8BOM)
	if len(data) == 0 {
		return 0
	}
	n := bytes.Count(data, []byte{'\n'})
	if data[len(data)-1] != '\n' {
		n++
	}
	return n
}

// attachText makes a text attachment of data, which media.IsText.
func attachText(name string, data []byte, lim AttachLimits) (Attachment, error) {
	if int64(len(data)) > lim.MaxTextBytes {
		size, limit := bytesize.Pair(int64(len(data)), lim.MaxTextBytes)
		return Attachment{}, fmt.Errorf("cannot attach %q: it is a text file of %s, more than parley sends of one (%s, attach_max_text_bytes in the config); attach a part of it or raise the limit",
			name, size, limit)
	}
	return TextAttachment(name, data), nil
}

// TextAttachment makes a text attachment of data, which must be UTF-8,
// with no limit of its own: the caller bounds it (a block of pasted text
// counts against the message's total, CheckTextTotal, but is not a file
// and so not held to MaxTextBytes).
func TextAttachment(name string, data []byte) Attachment {
	return Attachment{
		Name:      name,
		Kind:      KindText,
		MIME:      TextMIME,
		Bytes:     len(data),
		OrigBytes: len(data),
		OrigMIME:  TextMIME,
		Lines:     CountLines(data),
		Data:      data,
		SHA256:    HashBytes(data),
	}
}

// CheckTextTotal refuses text attachments that together pass
// lim.MaxTextTotal, as one sentence; call it with the attachments a
// message would carry (those already there and the new one).
func (l AttachLimits) CheckTextTotal(atts []Attachment) error {
	l = l.withDefaults()
	total, n := TextBytes(atts)
	if total <= l.MaxTextTotal {
		return nil
	}
	size, limit := bytesize.Pair(total, l.MaxTextTotal)
	return fmt.Errorf("the %d text files of this message come to %s, more than one message sends (%s, attach_max_text_total in the config); send some of them in another message",
		n, size, limit)
}

// TextBlock is how a text attachment reaches the model: its name, then
// its content in a fenced block whose language comes from the name's
// extension. The fence is longer than any run of backticks in the
// content, so a file that holds ``` (a Markdown file) stays whole.
//
//	File: main.go
//
//	```go
//	package main
//	```
func (a Attachment) TextBlock() string {
	text := string(bytes.TrimPrefix(a.Data, utf8BOM))
	fence := strings.Repeat("`", max(3, longestRun(text, '`')+1))
	var b strings.Builder
	b.Grow(len(text) + len(a.Name) + 32)
	b.WriteString("File: ")
	b.WriteString(a.Name)
	b.WriteString("\n\n")
	b.WriteString(fence)
	b.WriteString(FenceLanguage(a.Name))
	b.WriteByte('\n')
	b.WriteString(text)
	if !strings.HasSuffix(text, "\n") {
		b.WriteByte('\n')
	}
	b.WriteString(fence)
	return b.String()
}

// longestRun is the length of the longest run of c in s.
func longestRun(s string, c byte) int {
	best, run := 0, 0
	for i := 0; i < len(s); i++ {
		if s[i] == c {
			run++
			best = max(best, run)
		} else {
			run = 0
		}
	}
	return best
}

// FenceLanguage is the info string of a fenced block for a file name:
// "go" for main.go, "markdown" for README.md, "" when the extension says
// nothing a Markdown renderer knows.
func FenceLanguage(name string) string {
	base := strings.ToLower(filepath.Base(name))
	switch base {
	case "makefile", "gnumakefile":
		return "makefile"
	case "dockerfile", "containerfile":
		return "dockerfile"
	}
	ext := strings.TrimPrefix(filepath.Ext(base), ".")
	if lang, ok := fenceLanguages()[ext]; ok {
		return lang
	}
	return ""
}

// fenceLanguages maps extensions to the names Markdown renderers use.
func fenceLanguages() map[string]string {
	return map[string]string{
		"go": "go", "py": "python", "pyi": "python", "js": "javascript", "mjs": "javascript", "cjs": "javascript",
		"jsx": "jsx", "ts": "typescript", "tsx": "tsx", "rs": "rust", "c": "c", "h": "c",
		"cc": "cpp", "cpp": "cpp", "cxx": "cpp", "hpp": "cpp", "hh": "cpp", "java": "java", "kt": "kotlin",
		"swift": "swift", "rb": "ruby", "php": "php", "cs": "csharp", "scala": "scala", "lua": "lua",
		"pl": "perl", "r": "r", "sh": "bash", "bash": "bash", "zsh": "zsh", "fish": "fish", "ps1": "powershell",
		"sql": "sql", "html": "html", "htm": "html", "css": "css", "scss": "scss", "xml": "xml", "svg": "xml",
		"json": "json", "jsonl": "json", "yaml": "yaml", "yml": "yaml", "toml": "toml", "ini": "ini",
		"md": "markdown", "markdown": "markdown", "csv": "csv", "tsv": "tsv", "diff": "diff", "patch": "diff",
		"tex": "latex", "proto": "protobuf", "graphql": "graphql", "vue": "vue", "dart": "dart", "zig": "zig",
		"ex": "elixir", "exs": "elixir", "erl": "erlang", "hs": "haskell", "ml": "ocaml", "clj": "clojure",
		"txt": "text", "log": "text", "env": "bash", "cfg": "ini", "conf": "ini",
	}
}

// TextBytes returns how many bytes the text attachments of atts hold, and
// how many they are.
func TextBytes(atts []Attachment) (total int64, n int) {
	for _, a := range atts {
		if a.IsText() {
			total += int64(len(a.Data))
			n++
		}
	}
	return total, n
}
