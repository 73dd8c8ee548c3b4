package demo

import (
	"fmt"
	"strings"
)

// chatAnswer is demo-chat's reply: a tour of the demo written in every
// kind of Markdown the chat renders (headings, emphasis, inline code, a
// table, numbered and bulleted lists, a fenced code block, a quote).
func chatAnswer(prompt string) string {
	var b strings.Builder
	b.WriteString("## Hello from the parley demo\n\n")
	if q := quote(prompt); q != "" {
		fmt.Fprintf(&b, "You asked: *%s*\n\n", q)
	}
	b.WriteString("I am **demo-chat**, a model of the demo gateway that runs inside parley on " +
		"`127.0.0.1`: no account is needed and nothing you type leaves this machine.\n\n")
	b.WriteString("### The demo models\n\n")
	b.WriteString("| model | what it shows |\n|---|---|\n")
	for _, m := range Models() {
		fmt.Fprintf(&b, "| `%s` | %s |\n", m.Name, m.Shows)
	}
	b.WriteString("\n### Things to try\n\n" +
		"1. Switch to `demo-vision` (the model picker, **ctrl+o** by default) and paste the path of an image file.\n" +
		"2. Press **esc** while a reply streams: the text so far stays.\n" +
		"3. Ask `demo-think` something: its reasoning streams apart and folds away.\n" +
		"4. Attach a text file (`/attach notes.md`) and ask `demo-files` about it.\n" +
		"5. Ask `demo-fail` something to see how errors look.\n\n" +
		"From a shell:\n\n" +
		"- `parley ask --demo \"hello\"` prints a reply for scripts\n" +
		"- `parley image --demo \"a red kite\"` saves a PNG\n\n" +
		"### Using a real gateway\n\n" +
		"```sh\n" +
		"export OPENAI_BASE_URL=https://api.openai.com/v1\n" +
		"export OPENAI_API_KEY=sk-...\n" +
		"parley --model gpt-4o\n" +
		"```\n\n" +
		"> `parley models` lists what your gateway offers, and `parley help config` shows the config file.\n")
	return b.String()
}

// slowAnswer is demo-slow's reply; the gateway stops sending after its
// first few words (slowStallAfter deltas).
const slowAnswer = "This reply pauses here for twenty seconds, the way an overloaded gateway does. " +
	"parley says when no data has arrived for a while; **esc** stops the wait.\n\n" +
	"…and here it goes on. Nothing was lost while the gateway was silent."

// topic is what one section of the long answer is about.
type topic struct{ title, lang, code string }

// longTopics give the sections of the long answer their own words.
func longTopics() []topic {
	return []topic{
		{"Reading files", "go", "f, err := os.Open(path)\nif err != nil {\n\treturn fmt.Errorf(\"open %s: %w\", path, err)\n}\ndefer f.Close()"},
		{"Counting words", "python", "from collections import Counter\n\nwords = open(\"book.txt\").read().split()\nprint(Counter(words).most_common(5))"},
		{"Finding large files", "sh", "find . -type f -size +10M -print0 |\n  xargs -0 ls -lh |\n  sort -k5 -h"},
		{"A small config", "json", "{\n  \"name\": \"parley\",\n  \"stream\": true,\n  \"retries\": 2\n}"},
		{"Waiting with a timeout", "go", "ctx, cancel := context.WithTimeout(ctx, 5*time.Second)\ndefer cancel()\nselect {\ncase v := <-results:\n\treturn v, nil\ncase <-ctx.Done():\n\treturn 0, ctx.Err()\n}"},
		{"Parsing dates", "python", "from datetime import datetime\n\nwhen = datetime.fromisoformat(\"2026-11-23T09:30:00\")\nprint(when.strftime(\"%A %d %B\"))"},
	}
}

// longSections is how many sections the long answer has: about 20 KB.
const longSections = 31

// longAnswer is demo-long's reply: many sections, each with a heading,
// prose, a list, a table and a code block, for watching a long stream and
// scrolling through it.
func longAnswer() string {
	var b strings.Builder
	b.WriteString("# A long answer\n\nThis answer is long on purpose: it streams for a while and fills several screens, " +
		"so you can scroll while it grows and see how parley keeps up.\n\n")
	topics := longTopics()
	for i := range longSections {
		t := topics[i%len(topics)]
		fmt.Fprintf(&b, "## %d. %s\n\n", i+1, t.title)
		fmt.Fprintf(&b, "Section %d looks at *%s*. The idea is simple, but the details matter: "+
			"check every error, keep each step small, and say **why** in a comment rather than what. "+
			"A few lines of `%s` show the pattern below.\n\n", i+1, strings.ToLower(t.title), t.lang)
		b.WriteString("- start with the smallest thing that works\n- measure before making it faster\n" +
			"- keep the happy path on the left edge\n\n")
		fmt.Fprintf(&b, "| step | cost | note |\n|---|---:|---|\n| read | %d ms | from disk |\n| parse | %d ms | one pass |\n| write | %d ms | buffered |\n\n",
			3+i%5, 1+i%3, 2+i%4)
		fmt.Fprintf(&b, "```%s\n%s\n```\n\n", t.lang, t.code)
		fmt.Fprintf(&b, "> Note %d: the same approach works in most languages.\n\n", i+1)
	}
	b.WriteString("That is the end of the long answer.\n")
	return b.String()
}

// plural is "1 image" or "3 images".
func plural(n int, one, many string) string {
	if n == 1 {
		return "1 " + one
	}
	return fmt.Sprintf("%d %s", n, many)
}
