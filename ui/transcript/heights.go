package transcript

import "math/bits"

// heights is a Fenwick tree over the line counts of the items, so that the
// line where an item starts and the item holding a given line are found in
// O(log n), and changing one item's height (the streaming reply growing, an
// estimate replaced by a real rendering) costs O(log n) too.
type heights struct {
	t []int // 1-based; t[0] unused
	h []int // plain heights, 0-based, for Get and rebuilds
}

// reset rebuilds the tree from hs in O(n).
func (f *heights) reset(hs []int) {
	f.h = append(f.h[:0], hs...)
	n := len(hs)
	if cap(f.t) < n+1 {
		f.t = make([]int, n+1)
	} else {
		f.t = f.t[:n+1]
		clear(f.t)
	}
	for i := 1; i <= n; i++ {
		f.t[i] += hs[i-1]
		if j := i + i&-i; j <= n {
			f.t[j] += f.t[i]
		}
	}
}

// get returns the height of item i.
func (f *heights) get(i int) int { return f.h[i] }

// set changes the height of item i.
func (f *heights) set(i, v int) {
	d := v - f.h[i]
	if d == 0 {
		return
	}
	f.h[i] = v
	for j := i + 1; j < len(f.t); j += j & -j {
		f.t[j] += d
	}
}

// push appends an item of height v.
func (f *heights) push(v int) {
	if len(f.t) == 0 {
		f.t = append(f.t, 0) // slot 0 is unused
	}
	f.h = append(f.h, v)
	n := len(f.h)
	// t[n] covers (n-lowbit(n), n]: v plus the items before it in that range.
	f.t = append(f.t, v+f.prefix(n-1)-f.prefix(n-n&-n))
}

// prefix returns the total height of items [0, i).
func (f *heights) prefix(i int) int {
	s := 0
	for ; i > 0; i -= i & -i {
		s += f.t[i]
	}
	return s
}

// total returns the height of all items.
func (f *heights) total() int { return f.prefix(len(f.h)) }

// find returns the item holding line y and y's offset inside it. For y at or
// past the end it returns (len, y-total).
func (f *heights) find(y int) (i, off int) {
	n := len(f.h)
	if n == 0 {
		return 0, y
	}
	pos := 0
	for step := 1 << (bits.Len(uint(n)) - 1); step > 0; step >>= 1 {
		if next := pos + step; next <= n && f.t[next] <= y {
			pos = next
			y -= f.t[next]
		}
	}
	return pos, y
}
