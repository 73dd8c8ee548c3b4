package session

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"path/filepath"
	"strings"
	"time"

	"parley/conversation"
)

// ExportSnapshotFile writes a conversation held in memory (a chat that
// keeps no history: the demo, --no-save) to path, like ExportFile: its
// active path (snap.Leaf), or with opts.AllBranches its every branch; its
// images, whose bytes the messages carry, copied into a folder next to it;
// the same rules for an existing file, links and permissions. id and
// created name and date it.
func ExportSnapshotFile(snap conversation.Snapshot, id string, created time.Time, path string, opts ExportOptions) error {
	if err := checkTarget(path, opts.Force); err != nil {
		return err
	}
	e := exported{Session: Session{
		Meta: Meta{ID: id, Title: snap.Title, Titled: snap.Titled, SystemPrompt: snap.SystemPrompt, Role: snap.Role, Params: snap.Params,
			Created: created, Updated: created, Messages: len(snap.Messages)},
		Snapshot: snap,
	}, all: opts.AllBranches}
	sink := &memSink{data: map[string]memImage{}, names: map[string]string{}, force: opts.Force}
	base := strings.TrimSuffix(filepath.Base(path), filepath.Ext(path)) + "-images"
	sink.dir, sink.link = filepath.Join(filepath.Dir(path), base), base
	e.hashes = make([][]string, len(snap.Messages))
	for i, m := range snap.Messages {
		for _, a := range m.Attachments {
			e.hashes[i] = append(e.hashes[i], a.SHA256)
			if len(a.Data) > 0 && validHash(a.SHA256) {
				sink.data[a.SHA256] = memImage{data: a.Data, mime: a.MIME}
			}
		}
		if m.Created.Before(e.Created) || e.Created.IsZero() {
			e.Created = m.Created
		}
		// Updated is the last change, as a stored session's is: the
		// newest message.
		if m.Created.After(e.Updated) {
			e.Updated = m.Created
		}
	}
	return streamExport(path, opts.Force, func(w io.Writer) error {
		return writeFormat(w, e, sink, opts)
	})
}

// memImage is an image's bytes held in memory.
type memImage struct {
	data []byte
	mime string
}

// memSink copies images held in memory into dir, once each.
type memSink struct {
	data      map[string]memImage
	dir, link string
	names     map[string]string
	force     bool
	made      bool
}

func (c *memSink) ref(hash, name, mime string) (string, error) {
	if n, ok := c.names[hash]; ok {
		return n, nil
	}
	img, ok := c.data[hash]
	if !ok {
		c.names[hash] = ""
		return "", nil
	}
	if !c.made {
		if err := imagesFolder(c.dir); err != nil {
			return "", fmt.Errorf("make the images folder: %w", err)
		}
		c.made = true
	}
	file := exportName(name, hash, mime)
	if err := writeImage(filepath.Join(c.dir, file), img.data, c.force); err != nil {
		if errors.Is(err, fs.ErrExist) {
			return "", err
		}
		return "", fmt.Errorf("copy an image: %w", err)
	}
	ref := c.link + "/" + file
	c.names[hash] = ref
	return ref, nil
}
