//go:build linux

package hugeheap

import (
	"bufio"
	"os"
	"os/exec"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"testing"
	"unsafe"
)

// vmFlags returns the VmFlags of the mapping holding addr, from
// /proc/self/smaps ("hg" is MADV_HUGEPAGE).
func vmFlags(t *testing.T, addr uintptr) []string {
	t.Helper()
	f, err := os.Open("/proc/self/smaps")
	if err != nil {
		t.Skipf("no /proc/self/smaps to read the advice from: %v", err)
	}
	defer f.Close()
	in := false
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		line := sc.Text()
		if start, end, ok := mappingRange(line); ok {
			in = start <= addr && addr < end
			continue
		}
		if flags, ok := strings.CutPrefix(line, "VmFlags:"); ok && in {
			return strings.Fields(flags)
		}
	}
	if err := sc.Err(); err != nil {
		t.Fatal(err)
	}
	t.Fatalf("no mapping holds %#x in /proc/self/smaps", addr)
	return nil
}

// mappingRange reads a mapping's first line, "start-end perms ...".
func mappingRange(line string) (start, end uintptr, ok bool) {
	first, _, _ := strings.Cut(line, " ")
	a, b, found := strings.Cut(first, "-")
	if !found {
		return 0, 0, false
	}
	s, err1 := strconv.ParseUint(a, 16, 64)
	e, err2 := strconv.ParseUint(b, 16, 64)
	if err1 != nil || err2 != nil {
		return 0, 0, false
	}
	return uintptr(s), uintptr(e), true
}

func skipWithoutAdvice(t *testing.T) {
	if !advisable() {
		t.Skip("GODEBUG turns huge pages off, or this is not a 64-bit system")
	}
}

// TestInitAdvisesTheFirstHeap: the runtime allocated os.Args's array before
// any package's init, so it lies in the heap's first chunk.
func TestInitAdvisesTheFirstHeap(t *testing.T) {
	skipWithoutAdvice(t)
	first := uintptr(unsafe.Pointer(unsafe.SliceData(os.Args)))
	if flags := vmFlags(t, first); !slices.Contains(flags, "hg") {
		t.Fatalf("the heap's first chunk is not advised after init: VmFlags %v", flags)
	}
}

// TestAdviseReachesChunksMappedLater: the runtime maps each new chunk of
// heap with an mmap of its own, which carries no advice; Advise gives it.
func TestAdviseReachesChunksMappedLater(t *testing.T) {
	skipWithoutAdvice(t)
	// More than the chunks mapped so far hold: its end lies in a new one.
	grown := make([]byte, 24<<20)
	at := uintptr(unsafe.Pointer(&grown[len(grown)-1]))
	if flags := vmFlags(t, at); slices.Contains(flags, "hg") {
		t.Fatalf("a chunk mapped after init carries the advice already (VmFlags %v): the test cannot tell Advise's work", flags)
	}
	if at&^(arenaBytes-1) != heapAddress(64)&^(arenaBytes-1) {
		t.Skip("the heap spans two arenas in this run, and Advise advises the one it allocates from")
	}
	Advise()
	if flags := vmFlags(t, at); !slices.Contains(flags, "hg") {
		t.Fatalf("a chunk mapped after init is not advised after Advise: VmFlags %v", flags)
	}
	runtime.KeepAlive(grown)
}

// TestDisablethpLeavesTheHeapAlone runs this test binary again with
// GODEBUG=disablethp=1, where neither init nor Advise may advise anything.
func TestDisablethpLeavesTheHeapAlone(t *testing.T) {
	if os.Getenv("HUGEHEAP_CHILD") == "1" {
		Advise()
		first := uintptr(unsafe.Pointer(unsafe.SliceData(os.Args)))
		if flags := vmFlags(t, first); slices.Contains(flags, "hg") {
			t.Fatalf("with GODEBUG=disablethp=1 the heap is advised: VmFlags %v", flags)
		}
		return
	}
	cmd := exec.Command(os.Args[0], "-test.run=^TestDisablethpLeavesTheHeapAlone$", "-test.v")
	cmd.Env = append(os.Environ(), "HUGEHEAP_CHILD=1", "GODEBUG=disablethp=1")
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("the child with GODEBUG=disablethp=1: %v\n%s", err, out)
	}
	if !strings.Contains(string(out), "--- PASS: TestDisablethpLeavesTheHeapAlone") {
		t.Fatalf("the child did not run the check:\n%s", out)
	}
}
