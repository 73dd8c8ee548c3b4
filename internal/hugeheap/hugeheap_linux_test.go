//go:build linux

package hugeheap

import (
	"bufio"
	"os"
	"os/exec"
	"slices"
	"strconv"
	"strings"
	"syscall"
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
	if !advisable() || thpMode() == "never" {
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

// TestAdviseMarksTheHeapArena: with the heap's advice taken away (as a
// chunk the runtime maps after an Advise has none), Advise gives it back.
func TestAdviseMarksTheHeapArena(t *testing.T) {
	skipWithoutAdvice(t)
	at := heapAddress(64)
	if err := advise(at, syscall.MADV_NOHUGEPAGE); err != nil {
		t.Skipf("this kernel takes no advice on huge pages: %v", err)
	}
	defer Advise() // as init left it, for the tests after this one
	if flags := vmFlags(t, at); slices.Contains(flags, "hg") {
		t.Fatalf("the heap is advised after MADV_NOHUGEPAGE: VmFlags %v", flags)
	}
	Advise()
	if flags := vmFlags(t, at); !slices.Contains(flags, "hg") {
		t.Fatalf("the heap is not advised after Advise: VmFlags %v", flags)
	}
}

// TestDoneEndsTheAdvice: after Done the heap is not eligible for huge
// pages, so khugepaged makes none of what the runtime gives back.
func TestDoneEndsTheAdvice(t *testing.T) {
	skipWithoutAdvice(t)
	if thpMode() != "madvise" {
		t.Skip(`transparent huge pages are not set to "madvise" here, where Done changes nothing`)
	}
	defer Advise()
	Advise()
	Done()
	at := heapAddress(64)
	if flags := vmFlags(t, at); slices.Contains(flags, "hg") || !slices.Contains(flags, "nh") {
		t.Fatalf("the heap is still eligible for huge pages after Done: VmFlags %v", flags)
	}
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

func TestThpModeReadsTheSelectedWord(t *testing.T) {
	b, err := os.ReadFile("/sys/kernel/mm/transparent_hugepage/enabled")
	if err != nil {
		t.Skipf("no transparent huge pages setting to read: %v", err)
	}
	mode := thpMode()
	if mode == "" || !strings.Contains(string(b), "["+mode+"]") {
		t.Fatalf("thpMode() = %q from %q", mode, b)
	}
}
