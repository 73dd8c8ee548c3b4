package session

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"io/fs"
	"net/url"
	"os"
	"path/filepath"
	"strings"
)

// smallPagesMax is the largest database rewritten to pageSize pages when
// it is opened. The rewrite (VACUUM) holds the write lock while it copies
// the whole file, and another process starting meanwhile waits for it
// (busyTimeout, 5 s); 32 MiB took 0.6–0.9 s on the slow machine of
// BENCHMARKS.md ("Old databases get small pages").
const smallPagesMax = 32 << 20

// toSmallPages rewrites a database an earlier parley made with SQLite's
// default 4 KB pages to pageSize pages, once, when this process is the
// only one that has it open: each save of a streaming reply writes the
// pages it touches, and with 4 KB pages a reasoning streamed at 1 KB/s
// cost `parley ask` 4.4 times its bytes on disk (1 KB pages: 2.8). The
// page size of a WAL database cannot change in place: the file leaves
// WAL (which only the one connection to it may do), takes the new size
// with VACUUM, and goes back to WAL. Anything in the way (another
// process, a file too large, a full disk, a damaged page) leaves the
// database as it was, to be tried again at the next start; it reports
// whether the file has pageSize pages now. A file over maxSize bytes (with
// its WAL) is left as it is, and so is one in a folder that cannot be
// written.
func (s *Store) toSmallPages(ctx context.Context, maxSize int64) (bool, error) {
	// Read from the file's header, so that a start finds a database
	// rewritten already without opening another connection.
	h, err := readHeader(s.path)
	if err != nil || h.pageSize() == pageSize {
		return err == nil, err
	}
	// SQLite leaves WAL by deleting the -wal file: in a folder the user
	// cannot write, the file stays, the database stays in WAL whatever
	// the pragma answers, and VACUUM with a new page size damages it.
	if !writable(filepath.Dir(s.path)) {
		return false, nil
	}
	// The WAL's pages go into the file when it leaves WAL: they are part
	// of what VACUUM copies.
	size := int64(0)
	for _, p := range []string{s.path, s.path + "-wal"} {
		st, err := os.Stat(p)
		switch {
		case err == nil:
			size += st.Size()
		case !errors.Is(err, fs.ErrNotExist):
			return false, err
		}
	}
	if size > maxSize {
		return false, nil
	}
	db, err := sql.Open("sqlite", dsnSmallPages(s.path))
	if err != nil {
		return false, err
	}
	defer db.Close()
	conn, err := db.Conn(ctx)
	if err != nil {
		return false, err
	}
	defer conn.Close()
	var mode string
	if err := conn.QueryRowContext(ctx, "PRAGMA journal_mode = DELETE").Scan(&mode); err != nil {
		return false, fmt.Errorf("leave WAL: %w", err)
	}
	// Whatever happens below, the file goes back to WAL before anyone
	// else writes it in the rollback journal's mode.
	defer conn.ExecContext(context.WithoutCancel(ctx), "PRAGMA journal_mode = WAL")
	if !strings.EqualFold(mode, "delete") {
		return false, nil // another connection has it open
	}
	if left, err := leftWAL(s.path); err != nil || !left {
		return false, err
	}
	if _, err := conn.ExecContext(ctx, fmt.Sprintf("PRAGMA page_size = %d", pageSize)); err != nil {
		return false, err
	}
	if _, err := conn.ExecContext(ctx, "VACUUM"); err != nil {
		return false, fmt.Errorf("rewrite with %d-byte pages: %w", pageSize, err)
	}
	var page int
	if err := conn.QueryRowContext(ctx, "PRAGMA page_size").Scan(&page); err != nil {
		return false, err
	}
	return page == pageSize, nil
}

// header is the start of a database file's header.
type header [20]byte

// readHeader reads the header of the database at path.
func readHeader(path string) (header, error) {
	var h header
	f, err := os.Open(path)
	if err != nil {
		return h, err
	}
	defer f.Close()
	_, err = f.ReadAt(h[:], 0)
	return h, err
}

// pageSize is the file's page size (bytes 16 and 17, big-endian; 1 means
// 65536).
func (h header) pageSize() int {
	size := int(h[16])<<8 | int(h[17])
	if size == 1 {
		size = 65536
	}
	return size
}

// leftWAL reports whether the database at path has truly left WAL: no
// -wal file beside it, and its header (bytes 18 and 19, the file format's
// write and read versions) saying the rollback journal (1), not WAL (2).
func leftWAL(path string) (bool, error) {
	if _, err := os.Lstat(path + "-wal"); !errors.Is(err, fs.ErrNotExist) {
		return false, err
	}
	h, err := readHeader(path)
	return err == nil && h[18] == 1 && h[19] == 1, err
}

// dsnSmallPages is the connection of toSmallPages: no journal mode of its
// own (it changes it), a short wait for a lock (a database another
// process is writing is left for another start), and SQLite's temporary
// files on disk, where VACUUM builds its copy (in memory it would cost
// the file's size).
func dsnSmallPages(path string) string {
	u := url.URL{Scheme: "file", Path: path}
	q := url.Values{}
	q.Set("_busy_timeout", "200")
	q.Set("_synchronous", "FULL")
	u.RawQuery = q.Encode()
	return u.String()
}
