//go:build linux

package hugeheap

import (
	"os"
	"strconv"
	"unsafe"

	"golang.org/x/sys/unix"
)

// arenaBytes is the size and alignment of the runtime's heap arenas on
// 64-bit Linux (runtime.heapArenaBytes). An arena is wholly the runtime's
// reservation, so advice over one touches no other mapping.
const arenaBytes = 64 << 20

// hugePageBytes is a huge page on x86-64 and on arm64 with 4 KiB pages.
// Where the kernel's huge page is larger, collapsing this much does nothing.
const hugePageBytes = 2 << 20

// init advises the heap as early as a package of parley's can, and
// collapses the 2 MiB the runtime has already begun to use into one huge
// page: the kernel gives a huge page only to a region none of whose pages
// is mapped yet, and the runtime's own start has mapped some of the first.
func init() {
	if !advisable() {
		return
	}
	at := heapAddress(64)
	advise(at)
	// Errors are left alone: on kernels before 6.1, or without a free huge
	// page, the heap keeps its small pages, as without this package.
	_, _, _ = unix.Syscall(unix.SYS_MADVISE, at&^(hugePageBytes-1), hugePageBytes, unix.MADV_COLLAPSE)
}

// Advise marks the heap arena in use MADV_HUGEPAGE, with every chunk the
// runtime has mapped in it so far. Regions of it not touched yet get huge
// pages at their first touch. It costs one system call.
func Advise() {
	if advisable() {
		advise(heapAddress(64))
	}
}

func advisable() bool {
	return strconv.IntSize == 64 && enabled(os.Getenv("GODEBUG"))
}

func advise(at uintptr) {
	// ENOMEM for the arena's parts not mapped yet; the mapped ones take
	// the advice all the same.
	_, _, _ = unix.Syscall(unix.SYS_MADVISE, at&^(arenaBytes-1), arenaBytes, unix.MADV_HUGEPAGE)
}

// heapAddress allocates size bytes on the heap, in the arena the runtime is
// allocating from, and returns their address.
func heapAddress(size int) uintptr {
	return uintptr(unsafe.Pointer(onTheHeap(size)))
}

// onTheHeap allocates size bytes the compiler must put on the heap: they
// outlive the call.
//
//go:noinline
func onTheHeap(size int) *byte {
	return unsafe.SliceData(make([]byte, size))
}
