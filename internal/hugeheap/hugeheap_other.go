//go:build !linux

package hugeheap

// Advise does nothing where the heap's pages cannot be advised the Linux way.
func Advise() {}

// Done does nothing either.
func Done() {}
