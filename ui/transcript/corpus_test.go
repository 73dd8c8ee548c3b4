package transcript

import (
	"fmt"
	"math/rand/v2"
	"strings"
	"time"

	"parley/api"
	"parley/conversation"
)

// Test and benchmark material: answers shaped like what chat models write
// (headings, paragraphs with inline code and links, lists, fenced code,
// tables, quotes), generated deterministically.

var words = strings.Fields(`the a of to and in is it that for on with as this be are
by from at or an not which have can you use your function value returns error
request stream model token buffer width height screen render cache line block
message context terminal reply version option config server client handler`)

func sentence(r *rand.Rand, n int) string {
	var b strings.Builder
	for i := range n {
		if i > 0 {
			b.WriteByte(' ')
		}
		w := words[r.IntN(len(words))]
		switch r.IntN(14) {
		case 0:
			w = "`" + w + "()`"
		case 1:
			w = "**" + w + "**"
		case 2:
			w = "_" + w + "_"
		}
		if i == 0 {
			w = strings.ToUpper(w[:1]) + w[1:]
		}
		b.WriteString(w)
	}
	b.WriteString(". ")
	return b.String()
}

func paragraph(r *rand.Rand) string {
	var b strings.Builder
	for range 2 + r.IntN(4) {
		b.WriteString(sentence(r, 6+r.IntN(12)))
	}
	return strings.TrimSpace(b.String())
}

func codeBlock(r *rand.Rand, lines int) string {
	var b strings.Builder
	b.WriteString("```go\n")
	for i := range lines {
		switch i % 5 {
		case 0:
			fmt.Fprintf(&b, "func %s%d(ctx context.Context, n int) (string, error) {\n", words[r.IntN(len(words))], i)
		case 1:
			fmt.Fprintf(&b, "\tif n > %d {\n\t\treturn \"\", fmt.Errorf(\"too many: %%d\", n)\n\t}\n", r.IntN(100))
		case 2:
			fmt.Fprintf(&b, "\ts := strings.Repeat(%q, n) // %s\n", words[r.IntN(len(words))], sentence(r, 4))
		case 3:
			b.WriteString("\tfor i := range n {\n\t\t_ = i\n\t}\n")
		default:
			b.WriteString("\treturn s, nil\n}\n\n")
		}
	}
	b.WriteString("```")
	return b.String()
}

func table(r *rand.Rand) string {
	var b strings.Builder
	b.WriteString("| name | kind | note |\n|------|:----:|------|\n")
	for range 3 + r.IntN(3) {
		fmt.Fprintf(&b, "| %s | %d | %s |\n", words[r.IntN(len(words))], r.IntN(1000), strings.TrimSpace(sentence(r, 3)))
	}
	return strings.TrimSuffix(b.String(), "\n")
}

// answer returns Markdown of about size bytes.
func answer(r *rand.Rand, size int) string {
	var blocks []string
	n := 0
	for n < size {
		var blk string
		switch k := r.IntN(12); {
		case k == 0:
			blk = "## " + strings.TrimSuffix(strings.TrimSpace(sentence(r, 3)), ".")
		case k <= 5:
			blk = paragraph(r)
		case k <= 7:
			var b strings.Builder
			for i := range 3 + r.IntN(3) {
				if i > 0 {
					b.WriteByte('\n')
				}
				fmt.Fprintf(&b, "- %s", strings.TrimSpace(sentence(r, 5+r.IntN(8))))
			}
			blk = b.String()
		case k == 8:
			blk = codeBlock(r, 6+r.IntN(10))
		case k == 9:
			blk = table(r)
		case k == 10:
			blk = "> " + paragraph(r)
		default:
			blk = fmt.Sprintf("1. %s\n2. %s\n3. see [the docs](https://example.com/%s)",
				strings.TrimSpace(sentence(r, 6)), strings.TrimSpace(sentence(r, 6)), words[r.IntN(len(words))])
		}
		blocks = append(blocks, blk)
		n += len(blk) + 2
	}
	return strings.Join(blocks, "\n\n")
}

// conversationOf returns n finished messages alternating user questions
// and Markdown replies of typical sizes (0.3–2.5 KB).
func conversationOf(n int, seed uint64) []conversation.Message {
	r := rand.New(rand.NewPCG(seed, 7))
	msgs := make([]conversation.Message, n)
	for i := range msgs {
		m := conversation.Message{ID: i + 1, Created: time.Unix(0, 0), Version: 1}
		if i%2 == 0 {
			m.Role = api.RoleUser
			m.Text = strings.TrimSpace(sentence(r, 5+r.IntN(25)))
			if r.IntN(8) == 0 {
				m.Attachments = []api.Attachment{{Name: "shot.png", Width: 2048, Height: 1536, Bytes: 1_234_567, Data: []byte{1}}}
			}
		} else {
			m.Role = api.RoleAssistant
			m.Model = "gpt-4o"
			m.Text = answer(r, 300+r.IntN(2200))
			m.FinishReason = "stop"
		}
		msgs[i] = m
	}
	return msgs
}

// splitDeltas cuts s into deltas of 1..maxLen bytes (not caring about
// UTF-8 boundaries: gateways do not either, at the byte level of SSE
// reassembly the sanitiser must cope).
func splitDeltas(s string, maxLen int, seed uint64) []string {
	r := rand.New(rand.NewPCG(seed, 3))
	var out []string
	for len(s) > 0 {
		n := min(1+r.IntN(maxLen), len(s))
		out = append(out, s[:n])
		s = s[n:]
	}
	return out
}
