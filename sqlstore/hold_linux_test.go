package sqlstore

import (
	"io"
	"net"
	"syscall"
	"testing"
	"time"
	"unsafe"
)

// unsent is how many bytes written to conn the kernel has not sent yet
// (SIOCOUTQNSD).
func unsent(t *testing.T, conn *net.TCPConn) int {
	t.Helper()
	raw, err := conn.SyscallConn()
	if err != nil {
		t.Fatal(err)
	}
	var n int32
	var errno syscall.Errno
	raw.Control(func(fd uintptr) {
		_, _, errno = syscall.Syscall(syscall.SYS_IOCTL, fd, 0x894B, uintptr(unsafe.Pointer(&n)))
	})
	if errno != 0 {
		t.Fatal(errno)
	}
	return int(n)
}

// A held write stays in the kernel until it is released, or until the
// socket closes, as when the process is killed: then it is sent, before
// the end of the stream.
func TestHeldWritesLeaveOnReleaseOrClose(t *testing.T) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer ln.Close()
	pair := func() (*net.TCPConn, net.Conn) {
		c, err := net.Dial("tcp", ln.Addr().String())
		if err != nil {
			t.Fatal(err)
		}
		s, err := ln.Accept()
		if err != nil {
			t.Fatal(err)
		}
		s.SetReadDeadline(time.Now().Add(10 * time.Second))
		return c.(*net.TCPConn), s
	}

	c, s := pair()
	release := holdWrites(c)
	if _, err := c.Write([]byte("COMMIT")); err != nil {
		t.Fatal(err)
	}
	if n := unsent(t, c); n != len("COMMIT") {
		t.Fatalf("%d bytes held after the write, want %d", n, len("COMMIT"))
	}
	release()
	got := make([]byte, len("COMMIT"))
	if _, err := io.ReadFull(s, got); err != nil || string(got) != "COMMIT" {
		t.Fatalf("after release the peer read %q, %v", got, err)
	}
	c.Close()
	s.Close()

	c, s = pair()
	defer s.Close()
	holdWrites(c)
	if _, err := c.Write([]byte("COMMIT")); err != nil {
		t.Fatal(err)
	}
	if n := unsent(t, c); n != len("COMMIT") {
		t.Fatalf("%d bytes held after the write, want %d", n, len("COMMIT"))
	}
	c.Close()
	all, err := io.ReadAll(s)
	if err != nil || string(all) != "COMMIT" {
		t.Errorf("after the close the peer read %q, %v; want the held write, then the end", all, err)
	}
}
