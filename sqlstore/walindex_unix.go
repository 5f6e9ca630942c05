//go:build unix

package sqlstore

import (
	"fmt"
	"os"
	"sync/atomic"
	"syscall"
	"unsafe"
)

// walIndex is a read-only map of the header of a SQLite database's
// write-ahead log index, the file PATH-shm that every process using the
// database maps and that SQLite's unix VFS lays out as its documentation
// of the WAL format describes: the header's two copies of 48 bytes come
// first. Every commit, by any connection of any process, rewrites the
// header once its log frames are written (and synced), before the commit
// returns: its change counter, its last frame and its checksums move on,
// and a log started again takes new salts. So while the header reads the
// same, no commit has been made, and a read answered since it last moved
// would be answered the same again.
//
// SQLite writes the second copy, then the first. A header read while it
// is being written has copies that differ; it is then taken as unknown.
//
// The file stays the one mapped only while a connection of this process
// has the database open: SQLite truncates or deletes the index only when
// no process has it open. So a store holds a connection of its own for as
// long as it holds the map (openSQLite).
type walIndex struct {
	mem []byte
}

// walHeaderWords is the length of one copy of the header, in 32-bit words.
const walHeaderWords = 12

// walState is one copy of the WAL index's header, compared whole.
type walState [walHeaderWords]uint32

// openWALIndex maps the header of the WAL index at path. It returns nil
// and no error when there is none to map (a database not in WAL mode).
func openWALIndex(path string) (*walIndex, error) {
	f, err := os.Open(path)
	if os.IsNotExist(err) {
		return nil, nil
	}
	if err != nil {
		return nil, err
	}
	defer f.Close()
	fi, err := f.Stat()
	if err != nil {
		return nil, err
	}
	const size = 2 * walHeaderWords * 4
	if fi.Size() < size {
		return nil, nil
	}
	mem, err := syscall.Mmap(int(f.Fd()), 0, size, syscall.PROT_READ, syscall.MAP_SHARED)
	if err != nil {
		return nil, fmt.Errorf("map %s: %w", path, err)
	}
	return &walIndex{mem: mem}, nil
}

// state returns the header, or false while it is being written or before
// SQLite has written it. A nil index has no state.
func (w *walIndex) state() (walState, bool) {
	var first, second walState
	if w == nil {
		return first, false
	}
	for i := range first {
		first[i] = atomic.LoadUint32((*uint32)(unsafe.Pointer(&w.mem[4*i])))
	}
	for i := range second {
		second[i] = atomic.LoadUint32((*uint32)(unsafe.Pointer(&w.mem[4*(walHeaderWords+i)])))
	}
	return first, first == second && first != walState{}
}

// close unmaps the header; the index must not be read afterwards.
func (w *walIndex) close() error {
	if w == nil {
		return nil
	}
	return syscall.Munmap(w.mem)
}
