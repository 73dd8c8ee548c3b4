// Package hugeheap asks Linux to back the Go heap with transparent huge
// pages (2 MiB) while parley starts, so a start pays one page fault per
// 2 MiB of fresh heap instead of one per 4 KiB.
//
// Why it matters: a start of the chat touches about 8 MB of fresh heap, and
// on virtual machines the first touch of a page costs 10–20 µs (the guest's
// fault and the host's), so page faults were a third of a start's time on
// the machine parley is measured on. The Go runtime has not asked for huge
// pages for its heap since Go 1.21.1, and under the usual kernel setting
// (transparent_hugepage "madvise") the heap gets none unless asked.
//
// The runtime maps its heap in 4 MiB chunks, each with an mmap of its own
// that drops the advice, so Advise is called where a start has grown the
// heap (this package's init, main, the chat before and after its model is
// made). Chunks mapped later keep the kernel's default, which bounds what
// huge pages add to the resident size to what is advised during the start
// (about 1 MB more for the chat, measured).
//
// GODEBUG=disablethp=1, the runtime's own switch for huge pages, turns
// this off too. Elsewhere than 64-bit Linux it does nothing.
package hugeheap

import "strings"

// enabled reports whether GODEBUG (the variable's value) leaves huge pages
// on: the runtime reads the last disablethp setting, and so does this.
func enabled(godebug string) bool {
	on := true
	for setting := range strings.SplitSeq(godebug, ",") {
		if value, ok := strings.CutPrefix(strings.TrimSpace(setting), "disablethp="); ok {
			on = value != "1"
		}
	}
	return on
}
