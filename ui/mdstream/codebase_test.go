package mdstream

import (
	"maps"
	"slices"
	"strings"
	"testing"
)

// TestCodeBase: a message whose code blocks follow others in a
// conversation labels them from base+1, whole or streamed, and reports
// how many it labelled.
func TestCodeBase(t *testing.T) {
	r := themeRenderer(t, 60, false)
	want := []string{"11 go", "12", "13 python", "14 sh", "15", "16 rust"}
	lines, codes, ok := r.RenderFrom(codeDoc, 10)
	if !ok || codes != 6 || !slices.Equal(labels(lines), want) {
		t.Fatalf("RenderFrom(base 10): %d blocks, labels %q", codes, labels(lines))
	}
	d := &Doc{}
	d.SetCodeBase(10)
	for i := 0; i < len(codeDoc); i += 9 {
		d.Append(codeDoc[i:min(i+9, len(codeDoc))])
		d.Lines(r)
	}
	d.Finish()
	if got := labels(d.Lines(r)); !slices.Equal(got, want) || d.CodeBlocks() != 6 {
		t.Fatalf("streamed: %d blocks, labels %q", d.CodeBlocks(), got)
	}
	// A new base renders the labels again.
	d.SetCodeBase(2)
	if got := labels(d.Lines(r)); got[0] != "3 go" || got[5] != "8 rust" {
		t.Fatalf("after SetCodeBase(2): %q", got)
	}
	// At a new width the finished message renders whole, from its base.
	r2 := themeRenderer(t, 50, false)
	if got := labels(d.Lines(r2)); got[0] != "3 go" || d.CodeBlocks() != 6 {
		t.Fatalf("at a new width: %d blocks, labels %q", d.CodeBlocks(), got)
	}
}

// TestCountCodeBlocks: the count is that of CodeBlocks for every test
// document, and the estimate from the fences matches it where there are
// only fences at the top level.
func TestCountCodeBlocks(t *testing.T) {
	docs := corpus(t)
	docs["code"] = codeDoc
	docs["none"] = "Just text.\n\n- a list\n- of items\n"
	for name, md := range docs {
		if got, want := CountCodeBlocks(md), len(CodeBlocks(md)); got != want {
			t.Errorf("%s: CountCodeBlocks = %d, CodeBlocks has %d", name, got, want)
		}
	}
	fenced := strings.Repeat("Text.\n\n```go\nx := 1\n```\n\n~~~\nplain\n~~~\n\n", 5) + "```\nopen to the end\n"
	if got, want := EstimateCodeBlocks(fenced), CountCodeBlocks(fenced); got != want || want != 11 {
		t.Fatalf("estimate %d, count %d, want 11", got, want)
	}
	// Past MaxMarkdownBytes the text is plain: its blocks have no label.
	long := strings.Repeat("word ", MaxMarkdownBytes/5) + "\n\n```\nafter the limit\n```\n"
	if n := CountCodeBlocks(long); n != 0 {
		t.Fatalf("a block past the Markdown part counted: %d", n)
	}
}

// TestCodeCounterReused: one CodeCounter counting every document in turn,
// twice over (its parser reused, documents the fences tell between those
// it parses), gives each the count CodeBlocks gives.
func TestCodeCounterReused(t *testing.T) {
	docs := corpus(t)
	docs["code"] = codeDoc
	docs["list"] = "- a list\n\n  ```go\n  x := 1\n  ```\n- and\n\n      indented code\n"
	docs["fenced"] = "Text.\n\n```\nplain\n```\n"
	names := slices.Sorted(maps.Keys(docs))
	var c CodeCounter
	parsed := 0
	for range 2 {
		for _, name := range names {
			md := docs[name]
			if _, ok := fenceCount(MarkdownPart(md)); !ok {
				parsed++
			}
			if got, want := c.Count(md), len(CodeBlocks(md)); got != want {
				t.Errorf("%s: Count = %d, CodeBlocks has %d", name, got, want)
			}
		}
	}
	if parsed < 4 {
		t.Fatalf("only %d counts parsed: the test does not reuse the parser", parsed)
	}
}

// TestFenceCount: where the lines alone tell the code blocks, their count
// is the parser's; where they cannot (fences in lists and quotes, indented
// code, HTML), the parser is asked.
func TestFenceCount(t *testing.T) {
	cases := map[string]bool{ // text: whether the lines alone tell
		"Text.\n\n```go\nx\n```\n\nMore.\n\n~~~\ny\n~~~\n":           true,
		"````md\n```\nnot a fence inside\n```\n````\n":               true,
		"```\nunclosed to the end\n":                                 true,
		"No code at all.\n\n- a list\n- with items\n":                true,
		"Inline ```not a fence``` in text.\n":                        true,
		"- item\n\n  ```sh\n  in a list\n  ```\n":                    false,
		"> ```\n> quoted\n> ```\n":                                   false,
		"Para.\n\n    indented code\n":                               false,
		"<details>\n```\ninside html\n```\n</details>\n":             false,
		"1. step\n   ```bash\n   run\n   ```\n2. next\n":             false,
		"\tcode with a tab\n":                                        false,
		"Text\n```\nfence right after a paragraph line\n```\nText\n": true,
	}
	for md, tells := range cases {
		n, ok := fenceCount(md)
		if ok != tells {
			t.Errorf("%q: fenceCount sure = %v, want %v", md, ok, tells)
		}
		want := len(CodeBlocks(md))
		if ok && n != want {
			t.Errorf("%q: fenceCount = %d, the parser finds %d", md, n, want)
		}
		if got := CountCodeBlocks(md); got != want {
			t.Errorf("%q: CountCodeBlocks = %d, want %d", md, got, want)
		}
	}
	for name, md := range corpus(t) {
		if n, ok := fenceCount(md); ok && n != len(CodeBlocks(md)) {
			t.Errorf("%s: fenceCount = %d, the parser finds %d", name, n, len(CodeBlocks(md)))
		}
	}
}
