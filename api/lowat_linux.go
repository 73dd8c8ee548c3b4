package api

import (
	"net"
	"syscall"
)

// setLowWater sets the receive low-water mark (SO_RCVLOWAT) of c's socket:
// epoll reports the socket readable only once n bytes are buffered, while a
// read still returns whatever is there. Errors are ignored: the mark only
// saves wake-ups, and a connection that refuses it works as before.
func setLowWater(c net.Conn, n int) {
	sc, ok := c.(syscall.Conn)
	if !ok {
		return
	}
	rc, err := sc.SyscallConn()
	if err != nil {
		return
	}
	_ = rc.Control(func(fd uintptr) {
		_ = syscall.SetsockoptInt(int(fd), syscall.SOL_SOCKET, syscall.SO_RCVLOWAT, n)
	})
}
