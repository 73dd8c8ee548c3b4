//go:build !linux

package api

import "net"

// setLowWater does nothing here: the pause between reads only waits. (Only
// Linux is known to skip the wake-ups below the mark for epoll.)
func setLowWater(net.Conn, int) {}
