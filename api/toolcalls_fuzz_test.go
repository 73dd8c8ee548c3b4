package api

import (
	"strings"
	"testing"
)

// FuzzToolCallAssembler cuts two calls' arguments (and names) at the
// places the fuzzer picks, interleaves their pieces as it picks, and
// checks the assembler gives both calls back whole, in index order.
func FuzzToolCallAssembler(f *testing.F) {
	f.Add(`{"a": 2, "b": 3}`, `{"path": "/tmp/é"}`, []byte{1, 2, 3, 0xff, 7})
	f.Add("", "{}", []byte{})
	f.Add(`{"q":"`+strings.Repeat("x", 100)+`"}`, `[1,2]`, []byte{0, 0, 0, 0x80, 0x81})
	f.Fuzz(func(t *testing.T, a, b string, cuts []byte) {
		split := func(index int, id, name, args string, cuts []byte) []ToolCallDelta {
			first := ToolCallDelta{Index: index, ID: id, Type: "function"}
			first.Function.Name = name
			out := []ToolCallDelta{first}
			for len(args) > 0 {
				n := 1
				if len(cuts) > 0 {
					n = int(cuts[0]&0x0f) + 1
					cuts = cuts[1:]
				}
				n = min(n, len(args))
				d := ToolCallDelta{Index: index}
				d.Function.Arguments = args[:n]
				out = append(out, d)
				args = args[n:]
			}
			return out
		}
		// Index 1 is named first on purpose: the calls come back by index.
		pa, pb := split(1, "call_a", "alpha", a, cuts), split(0, "call_b", "beta", b, reverse(cuts))
		var asm ToolCallAssembler
		for i := 0; len(pa) > 0 || len(pb) > 0; i++ {
			takeA := len(pb) == 0 || (len(pa) > 0 && (len(cuts) == 0 || cuts[i%len(cuts)]&0x80 == 0))
			var d ToolCallDelta
			if takeA {
				d, pa = pa[0], pa[1:]
			} else {
				d, pb = pb[0], pb[1:]
			}
			if err := asm.Add(&ToolCallDeltas{Calls: []ToolCallDelta{d}}); err != nil {
				if len(a)+len(b) > MaxToolCallBytes-32 {
					return
				}
				t.Fatal(err)
			}
		}
		calls := asm.Calls()
		if len(calls) != 2 {
			t.Fatalf("%d calls", len(calls))
		}
		if calls[0].ID != "call_b" || calls[0].Function.Name != "beta" || calls[0].Function.Arguments != b {
			t.Fatalf("index 0: %+v, want beta %q", calls[0], b)
		}
		if calls[1].ID != "call_a" || calls[1].Function.Name != "alpha" || calls[1].Function.Arguments != a {
			t.Fatalf("index 1: %+v, want alpha %q", calls[1], a)
		}
	})
}

func reverse(b []byte) []byte {
	out := make([]byte, len(b))
	for i, c := range b {
		out[len(b)-1-i] = c
	}
	return out
}

func TestToolCallAssemblerBounds(t *testing.T) {
	var asm ToolCallAssembler
	for i := range MaxToolCallsPerReply {
		if err := asm.Add(&ToolCallDeltas{Calls: []ToolCallDelta{{Index: i, ID: "x"}}}); err != nil {
			t.Fatal(err)
		}
	}
	err := asm.Add(&ToolCallDeltas{Calls: []ToolCallDelta{{Index: 999}}})
	if err == nil || !strings.Contains(err.Error(), "more than 64 tool calls") {
		t.Fatalf("call 65: %v", err)
	}
	var big ToolCallAssembler
	d := ToolCallDelta{}
	d.Function.Arguments = strings.Repeat("x", MaxToolCallBytes+1)
	if err := big.Add(&ToolCallDeltas{Calls: []ToolCallDelta{d}}); err == nil || !strings.Contains(err.Error(), "1.0 MiB") && !strings.Contains(err.Error(), "MB") {
		t.Fatalf("a call over the byte bound: %v", err)
	}
	var unnamed ToolCallAssembler
	_ = unnamed.Add(&ToolCallDeltas{Calls: []ToolCallDelta{{Index: 3}}})
	if c := unnamed.Calls(); c[0].ID != "call_3" || c[0].Type != "function" {
		t.Fatalf("a call without an id: %+v", c[0])
	}
}
