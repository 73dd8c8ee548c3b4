package hugeheap

import "testing"

// TestEnabledReadsGODEBUGAsTheRuntimeDoes: the runtime splits at commas
// without trimming, keeps the last integer value and ignores one it cannot
// read (runtime.parsegodebug).
func TestEnabledReadsGODEBUGAsTheRuntimeDoes(t *testing.T) {
	for _, c := range []struct {
		godebug string
		want    bool
	}{
		{"", true},
		{"disablethp=0", true},
		{"disablethp=1", false},
		{"disablethp=2", false},
		{"gctrace=1,disablethp=1", false},
		{"disablethp=1,disablethp=0", true},
		{"disablethp=0,madvdontneed=1,disablethp=1", false},
		{"disablethp=1,disablethp=x", false},
		{"disablethp=", true},
		{" disablethp=1", true},
		{"xdisablethp=1", true},
	} {
		if got := enabled(c.godebug); got != c.want {
			t.Errorf("enabled(%q) = %v, want %v", c.godebug, got, c.want)
		}
	}
}
