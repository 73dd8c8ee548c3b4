package api

import (
	"context"
	"crypto/tls"
	"crypto/x509"
	"errors"
	"fmt"
	"net/http"
	"net/http/httptest"
	"syscall"
	"testing"
	"time"
)

// lowWater reads the receive low-water mark of the stream's socket.
func lowWater(t *testing.T, s *Stream) int {
	t.Helper()
	sc, ok := s.conn().(syscall.Conn)
	if !ok {
		t.Fatalf("the stream's connection %T is not a socket", s.conn())
	}
	rc, err := sc.SyscallConn()
	if err != nil {
		t.Fatal(err)
	}
	var v int
	var gerr error
	if err := rc.Control(func(fd uintptr) {
		v, gerr = syscall.GetsockoptInt(int(fd), syscall.SOL_SOCKET, syscall.SO_RCVLOWAT)
	}); err != nil {
		t.Fatal(err)
	}
	if gerr != nil {
		t.Fatal(gerr)
	}
	return v
}

// While a reader pauses, the socket's low-water mark keeps small packets
// from waking the process; the mark is back to 1 when Pause returns (by
// its time or by the caller's cancel), and what arrived meanwhile is read
// at once, although it is far below the mark.
//
// Over TLS with HTTP/2 (every https gateway that offers it) the mark is
// set on the TCP socket below TLS, which many streams may share.
func TestPauseRaisesTheLowWaterMarkOnlyWhilePaused(t *testing.T) {
	t.Run("http", func(t *testing.T) { pauseCase(t, false) })
	t.Run("https-h2", func(t *testing.T) { pauseCase(t, true) })
}

func pauseCase(t *testing.T, h2 bool) {
	sent := make(chan struct{})
	release := make(chan struct{})
	srv := httptest.NewUnstartedServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/event-stream")
		fmt.Fprint(w, "data: {\"choices\":[{\"index\":0,\"delta\":{\"content\":\"first \"}}]}\n\n")
		w.(http.Flusher).Flush()
		<-release
		fmt.Fprint(w, "data: {\"choices\":[{\"index\":0,\"delta\":{\"content\":\"during the pause\"}}]}\n\n")
		w.(http.Flusher).Flush()
		close(sent)
		<-r.Context().Done()
	}))
	if h2 {
		srv.EnableHTTP2 = true
		srv.StartTLS()
	} else {
		srv.Start()
	}
	defer srv.Close()
	c, err := NewClient(ClientConfig{BaseURL: srv.URL, APIKey: "k"})
	if err != nil {
		t.Fatal(err)
	}
	if h2 {
		pool := x509.NewCertPool()
		pool.AddCert(srv.Certificate())
		c.transport.TLSClientConfig = &tls.Config{RootCAs: pool}
	}
	s, err := c.ChatStream(context.Background(), ChatRequest{Model: "m", Messages: []Message{TextMessage(RoleUser, "hi")}})
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	if ev, err := s.Recv(); err != nil || ev.Text != "first " {
		t.Fatalf("first event: %q %v", ev.Text, err)
	}
	if want := map[bool]int{false: 1, true: 2}[h2]; s.resp.ProtoMajor != want {
		t.Fatalf("the reply came over HTTP/%d, want HTTP/%d", s.resp.ProtoMajor, want)
	}
	if got := lowWater(t, s); got != 1 {
		t.Fatalf("low-water mark before any pause = %d, want 1", got)
	}

	// A pause ended by its time, with an event arriving during it.
	done := make(chan error, 1)
	go func() { done <- s.Pause(context.Background(), 300*time.Millisecond) }()
	deadline := time.Now().Add(5 * time.Second)
	for lowWater(t, s) != pauseLowWater {
		if time.Now().After(deadline) {
			t.Fatalf("the low-water mark never rose to %d during the pause", pauseLowWater)
		}
		time.Sleep(time.Millisecond)
	}
	close(release)
	<-sent
	if err := <-done; err != nil {
		t.Fatalf("Pause = %v", err)
	}
	if got := lowWater(t, s); got != 1 {
		t.Fatalf("low-water mark after the pause = %d, want 1", got)
	}
	got := make(chan StreamEvent, 1)
	go func() {
		ev, _ := s.Recv()
		got <- ev
	}()
	select {
	case ev := <-got:
		if ev.Text != "during the pause" {
			t.Fatalf("after the pause: %q", ev.Text)
		}
	case <-time.After(5 * time.Second):
		t.Fatal("the event that arrived during the pause was not read after it: the mark still holds it back")
	}

	// A pause ended by the caller.
	ctx, cancel := context.WithCancel(context.Background())
	go func() { done <- s.Pause(ctx, time.Minute) }()
	for lowWater(t, s) != pauseLowWater {
		time.Sleep(time.Millisecond)
	}
	cancel()
	if err := <-done; !errors.Is(err, context.Canceled) {
		t.Fatalf("a cancelled pause = %v, want context.Canceled", err)
	}
	if got := lowWater(t, s); got != 1 {
		t.Fatalf("low-water mark after a cancelled pause = %d, want 1", got)
	}
}
