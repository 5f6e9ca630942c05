//go:build unix

package sqlstore

import (
	"errors"
	"fmt"
	"os"
	"syscall"
)

// fileLock is a lock on the file beside a SQLite database, PATH.lock.
// Every store and backup holds it shared for as long as it has the
// database open; a restore takes it exclusively, so it can tell that no
// process has the database open and none opens it while the file is
// replaced, and so does a store that makes a new database for a load
// (Options.Load), which no other process may read until it is closed.
type fileLock struct{ f *os.File }

// lockSQLite takes the lock of the database at path, without waiting.
// A file system that does not lock files is taken as one no other
// process shares.
func lockSQLite(path string, exclusive bool) (*fileLock, error) {
	f, err := os.OpenFile(path+".lock", os.O_RDWR|os.O_CREATE, 0o600)
	if err != nil {
		return nil, err
	}
	how := syscall.LOCK_SH
	if exclusive {
		how = syscall.LOCK_EX
	}
	err = syscall.Flock(int(f.Fd()), how|syscall.LOCK_NB)
	switch {
	case err == nil:
		return &fileLock{f: f}, nil
	case errors.Is(err, syscall.EWOULDBLOCK):
		f.Close()
		if exclusive {
			return nil, fmt.Errorf("the database %s is in use by another process (a running server?): stop it first", path)
		}
		return nil, fmt.Errorf("the database %s is being restored or loaded by another process: try again once it is done", path)
	case errors.Is(err, syscall.ENOTSUP), errors.Is(err, syscall.ENOSYS), errors.Is(err, syscall.EINVAL):
		return &fileLock{f: f}, nil
	}
	f.Close()
	return nil, fmt.Errorf("locking %s.lock: %w", path, err)
}

// release lets the lock go; a nil lock is no lock.
func (l *fileLock) release() {
	if l != nil {
		l.f.Close()
	}
}
