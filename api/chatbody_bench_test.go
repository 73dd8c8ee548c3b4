package api

import (
	"io"
	"strconv"
	"strings"
	"testing"
)

// benchConversation is a request carrying n messages shaped like a long
// chat (questions, and replies of a few paragraphs of Markdown), about
// 570 bytes a message.
func benchConversation(n int) ChatRequest {
	block := "Streaming Markdown means rendering text that is still arriving: a *fence* may open " +
		"and not close yet, a table may have its header and no rows. The renderer keeps what is finished."
	r := ChatRequest{Model: "gpt-4o", Stream: true, StreamOptions: &StreamOptions{IncludeUsage: true}}
	for i := range n {
		if i%2 == 0 {
			r.Messages = append(r.Messages, TextMessage(RoleUser, "Question "+strconv.Itoa(i)+": how does <this> work?"))
			continue
		}
		r.Messages = append(r.Messages, TextMessage(RoleAssistant, strings.Repeat(block+"\n\n", 2+i%4)+"```go\nx := \"y\"\n```"))
	}
	return r
}

// BenchmarkChatBody10k encodes the body of a 10,000-message request: as
// the client sends it (counted, then read by the transport in 32 KB
// reads), and as json.Marshal did before.
func BenchmarkChatBody10k(b *testing.B) {
	r := benchConversation(10_000)
	b.Run("streamed", func(b *testing.B) {
		b.ReportAllocs()
		buf := make([]byte, 32<<10)
		for b.Loop() {
			head, tail, err := chatEnvelope(r)
			if err != nil {
				b.Fatal(err)
			}
			size := chatBodySize(head, tail, r.Messages)
			n, err := io.CopyBuffer(io.Discard, struct{ io.Reader }{newChatBody(head, tail, r.Messages)}, buf)
			if err != nil || n != size {
				b.Fatalf("%d bytes of %d: %v", n, size, err)
			}
			b.SetBytes(n)
		}
	})
	b.Run("marshalled", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			b.SetBytes(int64(len(marshalledBefore(b, r))))
		}
	})
}
