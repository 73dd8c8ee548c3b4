package api

import (
	"context"
	"crypto/tls"
	"net"
	"time"
)

// pauseLowWater is the socket's receive low-water mark while a reader
// pauses. Below it, arriving bytes wake nobody: a gateway that sends a
// token a packet (170 a second in the 20 KB test) would otherwise wake
// the Go scheduler for each packet although no goroutine waits to read
// it, and each wake-up costs more CPU than decoding the event. 16 KiB is
// more than a pause of a frame gathers from any token stream, and small
// enough that Linux does not grow the socket's buffer or clamp its window
// to honour it (tcp_set_rcvlowat does when the mark needs more room than
// the buffer has), so the connection is left as it was found.
const pauseLowWater = 16 << 10

// Pause waits d for more of the stream to arrive, or until ctx ends (its
// error is returned). Meanwhile the connection's receive low-water mark
// is raised, so bytes that arrive during the pause do not wake the
// process; it is lowered again before Pause returns, and lowering it
// signals whatever is already buffered, so nothing waits longer than d.
// On platforms without the socket option, or a connection that is not a
// socket, Pause only waits.
func (s *Stream) Pause(ctx context.Context, d time.Duration) error {
	conn := s.conn()
	setLowWater(conn, pauseLowWater)
	defer setLowWater(conn, 1)
	if s.pause == nil {
		s.pause = time.NewTimer(d)
	} else {
		s.pause.Reset(d)
	}
	select {
	case <-s.pause.C:
		return nil
	case <-ctx.Done():
		s.pause.Stop()
		return ctx.Err()
	}
}

// conn is the network connection the current attempt's reply arrives on,
// below TLS; nil when unknown.
func (s *Stream) conn() net.Conn {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.resp == nil {
		return nil
	}
	c := s.resp.conn
	if t, ok := c.(*tls.Conn); ok {
		c = t.NetConn()
	}
	return c
}
