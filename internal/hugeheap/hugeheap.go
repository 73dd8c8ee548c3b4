// Package hugeheap asks Linux to back the Go heap with transparent huge
// pages (2 MiB) while parley starts, so a start pays one page fault per
// 2 MiB of fresh heap instead of one per 4 KiB, and gives the heap back to
// the kernel's default once the start is over.
//
// Why it matters: a start of the chat touches about 8 MB of fresh heap, and
// on virtual machines the first touch of a page costs 10–20 µs (the guest's
// fault and the host's), so page faults were a third of a start's time on
// the machine parley is measured on. The Go runtime stopped asking for huge
// pages for its heap in Go 1.21, and under the usual kernel setting
// (transparent_hugepage "madvise") the heap gets none unless asked.
//
// The runtime maps its heap in 4 MiB chunks, each with an mmap of its own
// that carries no advice, so Advise is called where a start has grown the
// heap (this package's init, main, the chat before and after its model is
// made). Done ends it a second into the chat: advised memory stays
// eligible for huge pages, and the kernel's khugepaged would otherwise
// make whole 2 MiB again out of what the runtime gives back, for as long as
// the chat runs. After Done the runtime returns memory as without this
// package; huge pages already made are split when it does.
//
// GODEBUG=disablethp=1, the runtime's own switch for huge pages, turns
// this off too, and so does the kernel's setting "never" (which
// MADV_COLLAPSE would not ask). Elsewhere than 64-bit Linux it does
// nothing.
package hugeheap

import "strconv"

// enabled reports whether GODEBUG (the variable's value) leaves huge pages
// on, read as the runtime reads it: settings split at commas, the last
// disablethp with an integer value wins, and any value but 0 turns them
// off. It splits by hand: importing package strings would delay this
// package's init by some 75 packages (see hugeheap_linux.go).
func enabled(godebug string) bool {
	const key = "disablethp="
	on := true
	for godebug != "" {
		setting := godebug
		godebug = ""
		for i := 0; i < len(setting); i++ {
			if setting[i] == ',' {
				setting, godebug = setting[:i], setting[i+1:]
				break
			}
		}
		if len(setting) < len(key) || setting[:len(key)] != key {
			continue
		}
		if n, err := strconv.ParseInt(setting[len(key):], 10, 32); err == nil {
			on = n == 0
		}
	}
	return on
}
