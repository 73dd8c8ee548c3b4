package slash

import "testing"

// BenchmarkViewCached is the cost of a frame while the list is open and
// nothing changed: the cache check (the key labels of the commands shown
// are compared, since the key map may change under the list).
func BenchmarkViewCached(b *testing.B) {
	l := newTestList(b)
	typeInto(b, &l, "/")
	l.View(80, 11)
	b.ReportAllocs()
	for b.Loop() {
		l.View(80, 11)
	}
}

// BenchmarkKeystroke is one typed character: filtering the commands and
// rendering the list again.
func BenchmarkKeystroke(b *testing.B) {
	l := newTestList(b)
	typeInto(b, &l, "/")
	inputs := []string{"/m", "/mo", "/s", "/sy", "/"}
	b.ReportAllocs()
	i := 0
	for b.Loop() {
		l.SetInput(inputs[i%len(inputs)])
		l.View(80, 11)
		i++
	}
}
