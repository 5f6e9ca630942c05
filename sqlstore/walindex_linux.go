//go:build linux

package sqlstore

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"strconv"
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
// The index is mapped through the descriptor SQLite itself holds open on
// it; no descriptor of the file is ever opened or closed here. SQLite
// locks the index with POSIX locks, which belong to the process: closing
// any descriptor of the file would drop all of them, and another process
// would then take itself for the database's only user and build the
// index anew under this one's feet. SQLite keeps its descriptor, and
// truncates or deletes the index only when no process has the database
// open, for as long as a connection of this process has it open; so a
// store holds a connection of its own for as long as it holds the map
// (walWatch).
type walIndex struct {
	mem []byte
}

// walIndexMapped says whether this system maps the WAL index at all.
const walIndexMapped = true

// walHeaderWords is the length of one copy of the header, in 32-bit words.
const walHeaderWords = 12

// walState is one copy of the WAL index's header, compared whole.
type walState [walHeaderWords]uint32

// commits is the header's change counter: every commit that writes to
// the log adds one to it (one that wrote no page leaves the header as
// it was); a checkpoint, or a log started again, changes other words.
// Only a WAL index built anew, which takes the write lock, sets it
// otherwise.
func (s walState) commits() uint32 { return s[2] }

// openWALIndex maps the header of the WAL index at path, which a SQLite
// connection of this process must have open. It returns nil and no error
// when there is none to map: no such file, no descriptor of it among the
// process's (/proc/self/fd), or one shorter than the header.
func openWALIndex(path string) (*walIndex, error) {
	want, err := os.Stat(path)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, err
	}
	id, ok := want.Sys().(*syscall.Stat_t)
	if !ok {
		return nil, nil
	}
	fds, err := os.ReadDir("/proc/self/fd")
	if err != nil {
		return nil, nil
	}
	const size = 2 * walHeaderWords * 4
	for _, e := range fds {
		fd, err := strconv.Atoi(e.Name())
		if err != nil {
			continue
		}
		var st syscall.Stat_t
		if syscall.Fstat(fd, &st) != nil || st.Dev != id.Dev || st.Ino != id.Ino {
			continue
		}
		if st.Size < size {
			return nil, nil
		}
		mem, err := syscall.Mmap(fd, 0, size, syscall.PROT_READ, syscall.MAP_SHARED)
		if err != nil {
			return nil, fmt.Errorf("map %s: %w", path, err)
		}
		// SQLite holds its descriptor for as long as the index is open;
		// one that names another file now was not SQLite's.
		if syscall.Fstat(fd, &st) != nil || st.Dev != id.Dev || st.Ino != id.Ino {
			syscall.Munmap(mem)
			return nil, fmt.Errorf("map %s: descriptor %d changed files while mapped", path, fd)
		}
		return &walIndex{mem: mem}, nil
	}
	return nil, nil
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
