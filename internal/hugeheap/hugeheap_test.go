package hugeheap

import "testing"

func TestEnabledReadsTheLastDisablethp(t *testing.T) {
	for _, c := range []struct {
		godebug string
		want    bool
	}{
		{"", true},
		{"disablethp=0", true},
		{"disablethp=1", false},
		{"gctrace=1, disablethp=1", false},
		{"disablethp=1,disablethp=0", true},
		{"disablethp=0,madvdontneed=1,disablethp=1", false},
		{"xdisablethp=1", true},
	} {
		if got := enabled(c.godebug); got != c.want {
			t.Errorf("enabled(%q) = %v, want %v", c.godebug, got, c.want)
		}
	}
}
