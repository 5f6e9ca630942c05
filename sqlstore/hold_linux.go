package sqlstore

import (
	"crypto/tls"
	"net"
	"syscall"
)

// holdWrites makes the kernel keep what is written to conn from now on
// until release is called (TCP_CORK), or until the process ends: the
// socket is then closed, and closing sends what was held. Writing a
// request this way wakes no one, so nothing can run between it and the
// next step of the caller; if the process is killed in between, the
// request still goes. On a connection that is not TCP it holds nothing.
func holdWrites(conn net.Conn) (release func()) {
	if c, ok := conn.(*tls.Conn); ok {
		conn = c.NetConn()
	}
	tcp, ok := conn.(*net.TCPConn)
	if !ok {
		return func() {}
	}
	raw, err := tcp.SyscallConn()
	if err != nil {
		return func() {}
	}
	cork := func(on int) error {
		var serr error
		if err := raw.Control(func(fd uintptr) {
			serr = syscall.SetsockoptInt(int(fd), syscall.IPPROTO_TCP, syscall.TCP_CORK, on)
		}); err != nil {
			return err
		}
		return serr
	}
	if cork(1) != nil {
		return func() {}
	}
	// Whatever is still held when uncorking fails goes within 200 ms.
	return func() { cork(0) }
}
