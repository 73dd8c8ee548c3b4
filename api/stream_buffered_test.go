package api

import (
	"context"
	"fmt"
	"net/http"
	"net/http/httptest"
	"testing"
)

// Buffered tells a reader whether the next event is already read: true
// between events of one write, false once the next would come from the
// network (here: the handler waits for the test before it ends the reply).
func TestStreamBufferedFollowsTheReadBuffer(t *testing.T) {
	release := make(chan struct{})
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/event-stream")
		for i := range 3 {
			fmt.Fprintf(w, "data: {\"choices\":[{\"index\":0,\"delta\":{\"content\":\"part %d \"}}]}\n\n", i)
		}
		w.(http.Flusher).Flush()
		<-release
		fmt.Fprint(w, "data: {\"choices\":[{\"index\":0,\"delta\":{},\"finish_reason\":\"stop\"}]}\n\ndata: [DONE]\n\n")
	}))
	defer srv.Close()
	defer close(release)
	c, err := NewClient(ClientConfig{BaseURL: srv.URL, APIKey: "k"})
	if err != nil {
		t.Fatal(err)
	}
	s, err := c.ChatStream(context.Background(), ChatRequest{Model: "m", Messages: []Message{TextMessage(RoleUser, "hi")}})
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	if s.Buffered() {
		t.Fatal("buffered before anything was read")
	}
	for i := range 3 {
		ev, err := s.Recv()
		if err != nil || ev.Text != fmt.Sprintf("part %d ", i) {
			t.Fatalf("event %d: %q %v", i, ev.Text, err)
		}
		// The three events came in one write: the first two leave the
		// next one in the buffer; after the third the buffer is empty.
		if got, want := s.Buffered(), i < 2; got != want {
			t.Fatalf("after event %d: Buffered() = %v, want %v", i, got, want)
		}
	}
}
