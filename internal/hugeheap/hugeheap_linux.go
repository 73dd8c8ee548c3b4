//go:build linux

package hugeheap

import (
	"bytes"
	"os"
	"strconv"
	"unsafe"

	"golang.org/x/sys/unix"
)

// arenaBytes is the size and alignment of the runtime's heap arenas on
// 64-bit Linux (runtime.heapArenaBytes). An arena is wholly the runtime's:
// what it has not mapped for the heap yet is its PROT_NONE reservation,
// so advice over an arena touches no other mapping.
const arenaBytes = 64 << 20

// hugePageBytes is a huge page on x86-64 and on arm64 with 4 KiB pages.
// Where the kernel's huge page is larger, collapsing this much does nothing.
const hugePageBytes = 2 << 20

// frontierBytes is an allocation the runtime makes from free pages of its
// own, not from a span of small objects: at start, with nothing freed yet,
// it lands where the heap grows, which may be the next arena. Fresh
// memory is not cleared for it, so it touches no page.
const frontierBytes = 33 << 10

// init advises the heap as early as a package of parley's can, and
// collapses the 2 MiB the runtime is allocating from into one huge page:
// the kernel gives a huge page only to a region none of whose pages is
// mapped yet, and the runtime's own start has mapped some of that one.
func init() {
	// MADV_COLLAPSE does not ask the system setting: under "never", the
	// administrator's word, nothing is collapsed or advised.
	if !advisable() || thpMode() == "never" {
		return
	}
	at := heapAddress(64)
	_ = advise(at, unix.MADV_HUGEPAGE)
	// Errors are left alone: on kernels before 6.1, or without a free huge
	// page, the heap keeps its small pages, as without this package.
	_, _, _ = unix.Syscall(unix.SYS_MADVISE, at&^(hugePageBytes-1), hugePageBytes, unix.MADV_COLLAPSE)
}

// Advise marks the heap's arenas MADV_HUGEPAGE, with every chunk the
// runtime has mapped in them so far: the arena small objects come from and
// the one the heap grows into, when that is another. Regions of them not
// touched yet get huge pages at their first touch. It costs two system
// calls at most.
func Advise() {
	if advisable() {
		forArenas(unix.MADV_HUGEPAGE)
	}
}

// Done gives the heap back to the kernel's default: no more huge pages,
// and none made later by khugepaged out of memory the runtime returns. It
// changes nothing unless the system setting is "madvise", the one under
// which the advice made a difference; under "always" huge pages are the
// default, and taking them away would be a change of this package's own.
func Done() {
	if advisable() && thpMode() == "madvise" {
		forArenas(unix.MADV_NOHUGEPAGE)
	}
}

func advisable() bool {
	return strconv.IntSize == 64 && enabled(os.Getenv("GODEBUG"))
}

// thpMode is the kernel's setting for transparent huge pages, the word
// selected in brackets ("always", "madvise" or "never"), or "" when it
// cannot be read.
func thpMode() string {
	b, err := os.ReadFile("/sys/kernel/mm/transparent_hugepage/enabled")
	if err != nil {
		return ""
	}
	_, rest, ok := bytes.Cut(b, []byte("["))
	mode, _, ok2 := bytes.Cut(rest, []byte("]"))
	if !ok || !ok2 {
		return ""
	}
	return string(mode)
}

func forArenas(advice int) {
	small, frontier := heapAddress(64), heapAddress(frontierBytes)
	_ = advise(small, advice)
	if arenaOf(frontier) != arenaOf(small) {
		_ = advise(frontier, advice)
	}
}

func arenaOf(at uintptr) uintptr { return at &^ (arenaBytes - 1) }

// advise gives advice to the whole arena holding at.
func advise(at uintptr, advice int) error {
	if _, _, errno := unix.Syscall(unix.SYS_MADVISE, arenaOf(at), arenaBytes, uintptr(advice)); errno != 0 {
		return errno
	}
	return nil
}

// heapAddress allocates size bytes on the heap and returns their address.
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
