package testfix

import (
	"bufio"
	"net"
	"net/mail"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// SMTPServer runs aiosmtpd, a real SMTP server, on loopback, keeping
// what it receives in a Maildir; it skips the test where aiosmtpd is
// not installed (Debian's python3-aiosmtpd).
func SMTPServer(t *testing.T) (addr, maildir string) {
	t.Helper()
	if exec.Command("/usr/bin/python3", "-c", "import aiosmtpd").Run() != nil {
		if os.Getenv("CI") == "true" {
			t.Fatal("CI=true but aiosmtpd is not installed: install Debian's python3-aiosmtpd")
		}
		t.Skip("aiosmtpd is not installed (apt-get install python3-aiosmtpd): skipping the SMTP test")
	}
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	addr = ln.Addr().String()
	ln.Close()
	maildir = filepath.Join(t.TempDir(), "mail")
	cmd := exec.Command("/usr/bin/python3", "-m", "aiosmtpd", "-n", "-l", addr, "-c", "aiosmtpd.handlers.Mailbox", maildir)
	cmd.Stderr = os.Stderr
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { cmd.Process.Kill(); cmd.Wait() })
	for range 100 {
		if c, err := net.Dial("tcp", addr); err == nil {
			line, _ := bufio.NewReader(c).ReadString('\n')
			c.Close()
			if strings.HasPrefix(line, "220") {
				return addr, maildir
			}
		}
		time.Sleep(50 * time.Millisecond)
	}
	t.Fatal("aiosmtpd did not start")
	return
}

// Received reads every message in the Maildir.
func Received(t *testing.T, maildir string) []*mail.Message {
	t.Helper()
	files, _ := filepath.Glob(filepath.Join(maildir, "new", "*"))
	var out []*mail.Message
	for _, f := range files {
		b, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		m, err := mail.ReadMessage(strings.NewReader(string(b)))
		if err != nil {
			t.Fatal(err)
		}
		out = append(out, m)
	}
	return out
}
