package api

import (
	"bytes"
	"context"
	"encoding/json"
	"io"
	"net/http"
	"strings"
	"testing"
	"time"
)

// benchStream is a 1 MiB reply sent as 4-character deltas in OpenAI's chunk
// shape, once as the list of chunk JSON texts and once as the SSE body that
// carries exactly those texts.
type benchStream struct {
	chunks [][]byte
	body   []byte
	text   int // bytes of reply text
}

func makeBenchStream(tb testing.TB) *benchStream {
	tb.Helper()
	const size = 1 << 20
	// Prose with line breaks, quotes and some non-ASCII, so that escapes
	// and multi-byte characters appear as they do in real replies.
	words := []string{"The", "quick", "brown", "fox", "jumps", "over", "the", "lazy", "dog;", "naïve", "café", "\"quoted\"", "résumé", "42", "—", "end.\n\n", "code:", "`x := 1`", "\ttab"}
	var prose strings.Builder
	for i := 0; prose.Len() < size; i++ {
		prose.WriteString(words[i%len(words)])
		prose.WriteByte(' ')
	}
	text := []rune(prose.String()[:size])
	bs := &benchStream{}
	var body bytes.Buffer
	add := func(v any) {
		b, err := json.Marshal(v)
		if err != nil {
			tb.Fatal(err)
		}
		bs.chunks = append(bs.chunks, b)
		body.WriteString("data: ")
		body.Write(b)
		body.WriteString("\n\n")
	}
	type delta struct {
		Role    string  `json:"role,omitempty"`
		Content *string `json:"content,omitempty"`
	}
	type choice struct {
		Index        int     `json:"index"`
		Delta        delta   `json:"delta"`
		Logprobs     *int    `json:"logprobs"`
		FinishReason *string `json:"finish_reason"`
	}
	type chunk struct {
		ID                string   `json:"id"`
		Object            string   `json:"object"`
		Created           int64    `json:"created"`
		Model             string   `json:"model"`
		SystemFingerprint string   `json:"system_fingerprint"`
		Choices           []choice `json:"choices"`
	}
	mk := func(d delta, finish *string) chunk {
		return chunk{ID: "chatcmpl-AbCdEfGhIjKlMnOpQrStUvWxYz012", Object: "chat.completion.chunk", Created: 1735689600,
			Model: "gpt-4o-2024-08-06", SystemFingerprint: "fp_0123456789", Choices: []choice{{Delta: d, FinishReason: finish}}}
	}
	empty := ""
	add(mk(delta{Role: "assistant", Content: &empty}, nil))
	for i := 0; i < len(text); i += 4 {
		s := string(text[i:min(i+4, len(text))])
		bs.text += len(s)
		add(mk(delta{Content: &s}, nil))
	}
	stop := "stop"
	add(mk(delta{}, &stop))
	body.WriteString("data: [DONE]\n\n")
	bs.body = body.Bytes()
	return bs
}

// BenchmarkStreamDecode compares, on the same chunk bytes and into the same
// result type (ChatChunk), encoding/json alone with parley's SSE reader plus
// chunk decoding, and with the whole Stream.Recv path (no network).
func BenchmarkStreamDecode(b *testing.B) {
	bs := makeBenchStream(b)
	b.Run("encoding_json", func(b *testing.B) {
		b.SetBytes(int64(bs.text))
		b.ReportAllocs()
		defer reportCPU(b, cpuTime())
		for b.Loop() {
			n := 0
			for _, ch := range bs.chunks {
				var c ChatChunk
				if err := json.Unmarshal(ch, &c); err != nil {
					b.Fatal(err)
				}
				if len(c.Choices) > 0 && c.Choices[0].Delta != nil {
					n += len(c.Choices[0].Delta.Content)
				}
			}
			if n != bs.text {
				b.Fatalf("decoded %d bytes of text, want %d", n, bs.text)
			}
		}
	})
	b.Run("sse_and_chunks", func(b *testing.B) {
		b.SetBytes(int64(bs.text))
		b.ReportAllocs()
		defer reportCPU(b, cpuTime())
		for b.Loop() {
			if n := decodeSSEChunks(b, bs.body); n != bs.text {
				b.Fatalf("decoded %d bytes of text, want %d", n, bs.text)
			}
		}
	})
	// stream_recv has no key; stream_recv_masked has one, so every delta
	// also passes the reply mask that hides an echoed key.
	for name, key := range map[string]string{"stream_recv": "", "stream_recv_masked": "sk-proj-Abc123Def456Ghi789Jkl012Mno345Pqr678Stu901Vwx234Yz_wxyz"} {
		b.Run(name, func(b *testing.B) {
			b.SetBytes(int64(bs.text))
			b.ReportAllocs()
			defer reportCPU(b, cpuTime())
			c, err := NewClient(ClientConfig{APIKey: key})
			if err != nil {
				b.Fatal(err)
			}
			for b.Loop() {
				if n := recvAll(b, c, bs.body); n != bs.text {
					b.Fatalf("received %d bytes of text, want %d", n, bs.text)
				}
			}
		})
	}
}

// reportCPU adds the process CPU time per operation since start, steadier
// than wall time when other work shares the machine.
func reportCPU(b *testing.B, start time.Duration) {
	if cpu := cpuTime() - start; cpu > 0 && b.N > 0 {
		b.ReportMetric(float64(cpu.Microseconds())/1000/float64(b.N), "cpu-ms/op")
	}
}

// decodeSSEChunks runs the SSE reader and the chunk decoder over body and
// returns the bytes of text found.
func decodeSSEChunks(tb testing.TB, body []byte) int {
	r := newSSEReader(bytes.NewReader(body))
	var dec chunkDecoder
	n := 0
	for {
		ev, err := r.next()
		if err == io.EOF {
			return n
		}
		if err != nil {
			tb.Fatal(err)
		}
		if string(ev.Data) == "[DONE]" {
			continue
		}
		c, isErr, err := dec.decode(ev.Data)
		if err != nil || isErr {
			tb.Fatalf("decode: %v %v", err, isErr)
		}
		if len(c.Choices) > 0 && c.Choices[0].Delta != nil {
			n += len(c.Choices[0].Delta.Content)
		}
	}
}

// recvAll reads body through a Stream as ChatStream builds it, without the
// HTTP round trip.
func recvAll(tb testing.TB, c *Client, body []byte) int {
	ctx, cancel := context.WithCancelCause(context.Background())
	s := &Stream{c: c, ctx: ctx, cancel: cancel, caller: context.Background(), req: &apiRequest{}, mask: newReplyMask(c.key)}
	s.attach(&response{
		Response: &http.Response{Body: io.NopCloser(bytes.NewReader(body)), Header: http.Header{"Content-Type": {"text/event-stream"}}},
		ctx:      ctx, cancel: cancel, attempts: 1, start: time.Now(),
	})
	n := 0
	for {
		ev, err := s.Recv()
		if err == io.EOF {
			return n
		}
		if err != nil {
			tb.Fatal(err)
		}
		n += len(ev.Text)
	}
}
