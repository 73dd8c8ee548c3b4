package session

import (
	"context"
	"crypto/sha256"
	"database/sql"
	"encoding/hex"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"

	"parley/internal/bytesize"
	"parley/internal/safefile"
)

// maxBlobBytes bounds what is read back from the blobs folder: parley
// stores attachments of at most a few tens of MB, so anything larger was
// not written by it.
const maxBlobBytes = 256 << 20

// HashBytes returns the SHA-256 of data as lower-case hex, the name of its
// blob.
func HashBytes(data []byte) string {
	sum := sha256.Sum256(data)
	return hex.EncodeToString(sum[:])
}

// blobFolder is the folder of blobs beside the database: the bytes of
// images and text files, each stored once under its hash, written whole
// or not at all and read back under a size budget. Which blobs are still
// referred to is the database's to say (Store.collect).
type blobFolder struct {
	dir string
}

// BlobPath returns where the bytes with the given hash are kept.
func (s *Store) BlobPath(hash string) string { return s.folder.path(hash) }

// path returns where the bytes with the given hash are kept.
func (d blobFolder) path(hash string) string {
	if len(hash) < 2 {
		return filepath.Join(d.dir, hash)
	}
	return filepath.Join(d.dir, hash[:2], hash)
}

// validHash reports whether h looks like a hex SHA-256, so a damaged row
// can never make a path outside the blobs folder.
func validHash(h string) bool {
	return len(h) == 64 && strings.Trim(h, "0123456789abcdef") == ""
}

// putBlob stores data under its hash unless it is there already. It is
// written to a temporary file and renamed, so a crash never leaves a
// half-written blob under a real name.
func (d blobFolder) putBlob(hash string, data []byte) error {
	path := d.path(hash)
	if fi, err := os.Stat(path); err == nil && fi.Size() == int64(len(data)) {
		return nil
	}
	dir := filepath.Dir(path)
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return err
	}
	f, err := os.CreateTemp(dir, ".tmp-*")
	if err != nil {
		return err
	}
	_, err = f.Write(data)
	if err == nil {
		err = f.Sync()
	}
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err == nil {
		err = os.Rename(f.Name(), path)
	}
	if err != nil {
		os.Remove(f.Name())
		return fmt.Errorf("store image %s: %w", hash[:12], err)
	}
	return nil
}

// readBlob returns the bytes of a blob; a missing blob is reported with
// fs.ErrNotExist.
func (d blobFolder) readBlob(hash string) ([]byte, error) {
	if !validHash(hash) {
		return nil, fmt.Errorf("image hash %q: %w", hash, fs.ErrNotExist)
	}
	data, err := safefile.Read(d.path(hash), maxBlobBytes)
	var tooLarge *safefile.TooLargeError
	if errors.As(err, &tooLarge) {
		return nil, fmt.Errorf("image %s is larger than %s", hash[:12], bytesize.Format(maxBlobBytes))
	}
	return data, err
}

// blobs holds the bytes a write is about to refer to, by hash.
type blobs map[string][]byte

// put writes every blob before the rows that refer to them are committed.
func (d blobFolder) put(b blobs) error {
	for h, data := range b {
		if err := d.putBlob(h, data); err != nil {
			return err
		}
	}
	return nil
}

// ensure writes again any blob that a concurrent garbage collection removed
// between put and the commit of the rows referring to it: collection runs
// under the write lock, so once those rows are committed no collection can
// remove the blob again.
func (d blobFolder) ensure(b blobs) error {
	for h, data := range b {
		if _, err := os.Stat(d.path(h)); errors.Is(err, fs.ErrNotExist) {
			if err := d.putBlob(h, data); err != nil {
				return err
			}
		}
	}
	return nil
}

// collect removes the blobs among candidates that no row refers to any
// more. It holds the write lock (an immediate transaction) while it checks
// and removes, so no other writer can commit a new reference in between.
func (s *Store) collect(ctx context.Context, candidates []string) error {
	if len(candidates) == 0 {
		return nil
	}
	return s.write(ctx, "remove unused images", func(tx *sql.Tx) error {
		for _, h := range candidates {
			if !validHash(h) {
				continue
			}
			var used bool
			// A tool result's image is named in its reply's tools JSON.
			err := tx.QueryRowContext(ctx, `SELECT EXISTS (SELECT 1 FROM parts WHERE sha256 = ?1)
				OR EXISTS (SELECT 1 FROM generated_images WHERE sha256 = ?1)
				OR EXISTS (SELECT 1 FROM messages WHERE tools <> '' AND instr(tools, ?1) > 0)`, h).Scan(&used)
			if err != nil {
				return err
			}
			if used {
				continue
			}
			if err := os.Remove(s.folder.path(h)); err != nil && !errors.Is(err, fs.ErrNotExist) {
				return err
			}
		}
		return nil
	})
}
