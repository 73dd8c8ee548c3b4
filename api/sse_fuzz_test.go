package api

import (
	"testing"
)

// FuzzSSEReader feeds arbitrary bytes, cut at two arbitrary offsets, through
// a reader with an arbitrary (small) buffer. It must not panic, must finish
// within a bounded number of calls, must agree with the whole-input reference
// parser, and must keep its memory to what the input needs.
func FuzzSSEReader(f *testing.F) {
	for _, tc := range sseCases {
		f.Add([]byte(tc.in), uint16(3), uint16(9), uint8(0))
	}
	f.Add([]byte("\xef\xbb\xbfdata: {\"choices\":[{\"delta\":{\"content\":\"h\xc3\xa9\"}}]}\r\n\r\ndata: [DONE]\r\n\r\n"), uint16(1), uint16(40), uint8(8))
	f.Fuzz(func(t *testing.T, in []byte, cut1, cut2 uint16, size uint8) {
		cuts := []int{int(cut1), int(cut1) + int(cut2)}
		bufSize := sseMinBuf + int(size)
		if size == 0 {
			bufSize = sseBufSize
		}
		r := newSSEReaderSize(&splitReader{in: in, cuts: cuts}, bufSize)
		var got []gotEvent
		// Every dispatched event consumes at least one line ending or the
		// end of input, so more calls than bytes means a loop.
		for calls := 0; ; calls++ {
			if calls > len(in)+2 {
				t.Fatalf("no end after %d calls for %d bytes of input", calls, len(in))
			}
			ev, err := r.next()
			if err != nil {
				break
			}
			got = append(got, gotEvent{ev.Type, ev.ID, string(ev.Data), ev.Incomplete})
			if c := cap(r.data); c > 2*len(in)+4<<10 {
				t.Fatalf("data buffer capacity %d for %d bytes of input", c, len(in))
			}
			if c := cap(r.eventType); c > 2*sseMaxField {
				t.Fatalf("event type buffer capacity %d exceeds its cap", c)
			}
		}
		if len(r.buf) != bufSize {
			t.Fatalf("read buffer grew from %d to %d", bufSize, len(r.buf))
		}
		if want := refParse(in); !sameEvents(got, want) {
			t.Fatalf("input %q cut at %v, buffer %d:\n got %v\nwant %v", in, cuts, bufSize, got, want)
		}
	})
}
