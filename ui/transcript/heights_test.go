package transcript

import (
	"math/rand/v2"
	"testing"
)

// TestHeightsAgainstPlainSums checks the Fenwick tree against plain sums
// through random pushes, sets and resets.
func TestHeightsAgainstPlainSums(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	var f heights
	var plain []int
	check := func(step int) {
		t.Helper()
		if f.len() != len(plain) {
			t.Fatalf("step %d: len %d, want %d", step, f.len(), len(plain))
		}
		sum := 0
		for i, h := range plain {
			if got := f.prefix(i); got != sum {
				t.Fatalf("step %d: prefix(%d) = %d, want %d", step, i, got, sum)
			}
			for off := 0; off < h; off++ {
				if gi, goff := f.find(sum + off); gi != i || goff != off {
					t.Fatalf("step %d: find(%d) = (%d,%d), want (%d,%d)", step, sum+off, gi, goff, i, off)
				}
			}
			sum += h
		}
		if f.total() != sum {
			t.Fatalf("step %d: total %d, want %d", step, f.total(), sum)
		}
		if gi, goff := f.find(sum + 3); gi != len(plain) || goff != 3 {
			t.Fatalf("step %d: find past the end = (%d,%d), want (%d,3)", step, gi, goff, len(plain))
		}
	}
	check(-1)
	for step := range 400 {
		switch r := rng.IntN(10); {
		case r < 5 || len(plain) == 0:
			h := 1 + rng.IntN(6)
			f.push(h)
			plain = append(plain, h)
		case r < 9:
			i := rng.IntN(len(plain))
			h := 1 + rng.IntN(9)
			f.set(i, h)
			plain[i] = h
		default:
			plain = plain[:rng.IntN(len(plain)+1)]
			f.reset(plain)
		}
		check(step)
	}
}

// len is the number of items.
func (f *heights) len() int { return len(f.h) }
