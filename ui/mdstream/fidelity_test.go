package mdstream

import (
	"strings"
	"testing"
)

// fidelityCorpus are replies full of what Markdown renderers lose (issue 15
// §1): generics, comparisons, tag-like text, templates, autolinks, emails,
// emphasis characters in identifiers, task lists and footnotes. want is the
// text a reader expects to see, word for word, in order: the Markdown
// syntax that is not text (emphasis marks, list markers, a code fence,
// backticks, a table's rules) is left out of it, nothing else.
var fidelityCorpus = []struct {
	name, md, want string
}{
	{"generics",
		"Use List<String> or Vec<u8> here. The signature is <T extends Comparable<T>> always.\n\n" +
			"In Rust: Option<Box<dyn Error>> and HashMap<K, V>; in C++: std::vector<int> v; template <typename T> T max(T a, T b);\n",
		"Use List<String> or Vec<u8> here. The signature is <T extends Comparable<T>> always. " +
			"In Rust: Option<Box<dyn Error>> and HashMap<K, V>; in C++: std::vector<int> v; template <typename T> T max(T a, T b);"},
	{"tags",
		"Wrap it in a <div> and close it with </div>. Use <br> for breaks, a<b>c and x<y and y>z.\n\n" +
			"<div class=\"note\">\nAn HTML block with <b>bold</b> &amp; *stars*.\n</div>\n\n" +
			"<!-- a comment the model wrote -->\n\nAfter the block, <span title=\"a & b\">text</span>.\n",
		"Wrap it in a <div> and close it with </div>. Use <br> for breaks, a<b>c and x<y and y>z. " +
			"<div class=\"note\"> An HTML block with <b>bold</b> &amp; *stars*. </div> " +
			"<!-- a comment the model wrote --> After the block, <span title=\"a & b\">text</span>."},
	{"comparisons",
		"If a < b && b > c then a <= c; x<5 and y>=3, 1 << 4, a -> b, a => b, <-- an arrow, <3 and 3>2.\n",
		"If a < b && b > c then a <= c; x<5 and y>=3, 1 << 4, a -> b, a => b, <-- an arrow, <3 and 3>2."},
	{"templates",
		"Hello {{ .Name }}, your home is ${HOME} and %PATH%; use {% if x %}yes{% endif %}, <%= user %> and <?php echo $x; ?>.\n",
		"Hello {{ .Name }}, your home is ${HOME} and %PATH%; use {% if x %}yes{% endif %}, <%= user %> and <?php echo $x; ?>."},
	{"links and emails",
		"See <https://example.com/docs?a=1&b=2> and https://go.dev/doc/ or <mailto:me@example.com>; write to me@example.com or <you@example.org>.\n",
		"See https://example.com/docs?a=1&b=2 and https://go.dev/doc/ or mailto:me@example.com; write to me@example.com or you@example.org."},
	{"emphasis characters",
		"Call snake_case_name with file_name_here, *args and **kwargs; 2 * 3 * 4 = 24; a_b_c, _private, CONSTANT_VALUE_X and *emphasis* too.\n",
		"Call snake_case_name with file_name_here, *args and **kwargs; 2 * 3 * 4 = 24; a_b_c, _private, CONSTANT_VALUE_X and emphasis too."},
	{"task list",
		"- [ ] write tests for Vec<T>\n- [x] fix <div> handling\n- [ ] check a<b>c\n",
		"write tests for Vec<T> fix <div> handling check a<b>c"},
	{"footnotes",
		"A claim[^1] and another[^note].\n\n[^1]: Source one, with <T>.\n[^note]: Second source.\n",
		"A claim[^1] and another[^note]. [^1]: Source one, with <T>. [^note]: Second source."},
	{"code stays",
		"Inline `List<String>` and `a &amp; b` stay.\n\n```go\nvar m map[string]<-chan int // <T>\n```\n",
		"Inline List<String> and a &amp; b stay. var m map[string]<-chan int // <T>"},
	{"table and heading",
		"## Using Vec<T> in Rust\n\n| type | example |\n|---|---|\n| generic | Vec<u8> |\n| html | <div> |\n\n> Note: Map<K, V> is generic.\n",
		"Using Vec<T> in Rust type example generic Vec<u8> html <div> Note: Map<K, V> is generic."},
	{"entities",
		"&lt;div&gt; written with entities, &copy; 2026 &amp; more.\n",
		"<div> written with entities, © 2026 & more."},
}

// shownWords are the words of rendered lines (colours and the code labels
// left in: they are extra words, which the check allows).
func shownWords(lines []string) []string {
	return strings.Fields(strings.Join(plain(lines), "\n"))
}

// TestFidelityCorpus: every word of each reply is on screen, in order, at
// every width and whether it was rendered whole or streamed.
func TestFidelityCorpus(t *testing.T) {
	for _, tc := range fidelityCorpus {
		t.Run(tc.name, func(t *testing.T) {
			want := strings.Fields(tc.want)
			for _, w := range []int{40, 80} {
				r := chatRenderer(t, w)
				lines := r.Render(tc.md)
				if missing := inOrder(want, shownWords(lines)); missing != "" {
					t.Fatalf("width %d: not shown: %s\n%s", w, missing, strings.Join(plain(lines), "\n"))
				}
				d := &Doc{}
				for i := 0; i < len(tc.md); i += 5 {
					d.Append(tc.md[i:min(i+5, len(tc.md))])
					d.Lines(r)
				}
				d.Finish()
				if missing := inOrder(want, shownWords(d.Lines(r))); missing != "" {
					t.Fatalf("width %d, streamed: not shown: %s", w, missing)
				}
			}
		})
	}
}

// TestFidelityWithoutLiteral: glamour alone (the zero Options) keeps the
// tag-like words too: parley's copy of glamour shows raw HTML as written
// (third_party/glamour/PATCHED.md), where upstream's stripped every tag,
// so no path that forgets Options.Literal loses words.
func TestFidelityWithoutLiteral(t *testing.T) {
	r := newTestRenderer(t, 80, "notty")
	text := strings.Join(plain(r.Render(fidelityCorpus[0].md)), " ")
	for _, w := range []string{"List<String>", "Vec<u8>", "<T extends Comparable<T>>", "std::vector<int>"} {
		if !strings.Contains(text, w) {
			t.Errorf("glamour without Options.Literal lost %q:\n%s", w, text)
		}
	}
}
