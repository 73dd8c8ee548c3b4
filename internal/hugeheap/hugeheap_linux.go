//go:build linux

package hugeheap

import (
	"bytes"
	"os"
	"strconv"
	"syscall"
	"unsafe"
)

// This package imports no module and none of the standard packages that
// are initialised late (strings among them), so that its init runs among
// the first (about the 23rd of 390 packages): with golang.org/x/sys/unix,
// parley's internal/safefile or package strings it ran about the 100th,
// after most of the start's allocations (GODEBUG=inittrace=1).

// madvCollapse is MADV_COLLAPSE (Linux 6.1), which package syscall does not
// name; its value is the same on every architecture Go runs Linux on, as
// MADV_HUGEPAGE's and MADV_NOHUGEPAGE's are.
const madvCollapse = 25

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
	_ = advise(at, syscall.MADV_HUGEPAGE)
	// Errors are left alone: on kernels before 6.1, or without a free huge
	// page, the heap keeps its small pages, as without this package.
	_, _, _ = syscall.Syscall(syscall.SYS_MADVISE, at&^(hugePageBytes-1), hugePageBytes, madvCollapse)
}

// Advise marks the heap's arenas MADV_HUGEPAGE, with every chunk the
// runtime has mapped in them so far: the arena small objects come from and
// the one the heap grows into, when that is another. Regions of them not
// touched yet get huge pages at their first touch. It costs two system
// calls at most.
func Advise() {
	if advisable() {
		forArenas(syscall.MADV_HUGEPAGE)
	}
}

// Done gives the heap back to the kernel's default: no more huge pages,
// and none made later by khugepaged out of memory the runtime returns. It
// changes nothing unless the system setting is "madvise", the one under
// which the advice made a difference; under "always" huge pages are the
// default, and taking them away would be a change of this package's own.
func Done() {
	if advisable() && thpMode() == "madvise" {
		forArenas(syscall.MADV_NOHUGEPAGE)
	}
}

func advisable() bool {
	return strconv.IntSize == 64 && enabled(os.Getenv("GODEBUG"))
}

// thpMode is the kernel's setting for transparent huge pages, the word
// selected in brackets ("always", "madvise" or "never"), or "" when it
// cannot be read. The file is one line of a few words: one read of at most
// thpLineBytes takes all of it.
func thpMode() string {
	f, err := os.Open("/sys/kernel/mm/transparent_hugepage/enabled")
	if err != nil {
		return ""
	}
	defer f.Close()
	var line [thpLineBytes]byte
	n, _ := f.Read(line[:])
	_, rest, ok := bytes.Cut(line[:n], []byte("["))
	mode, _, ok2 := bytes.Cut(rest, []byte("]"))
	if !ok || !ok2 {
		return ""
	}
	return string(mode)
}

// thpLineBytes bounds the read of the setting ("always [madvise] never\n"
// is 24 bytes).
const thpLineBytes = 256

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
	if _, _, errno := syscall.Syscall(syscall.SYS_MADVISE, arenaOf(at), arenaBytes, uintptr(advice)); errno != 0 {
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
