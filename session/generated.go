package session

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"io/fs"
	"time"
)

// GeneratedImage is an image a model made, with what it was made from.
type GeneratedImage struct {
	ID int64
	// SessionID is the session it belongs to ("" for one made by
	// `parley image` outside any session).
	SessionID string
	Prompt    string
	Model     string
	Size      string
	// Path is the file it was saved to.
	Path string
	// SHA256 names its bytes, kept in the blobs folder as well, so the
	// history keeps the image when the file is moved or deleted.
	SHA256        string
	MIME          string
	Width, Height int
	Bytes         int
	Created       time.Time
	// Data is the image's bytes: given to AddGeneratedImage; read back by
	// GeneratedImages (nil when its blob is missing).
	Data []byte
}

// AddGeneratedImage records a generated image and stores its bytes, and
// returns its id.
func (s *Store) AddGeneratedImage(ctx context.Context, img GeneratedImage) (int64, error) {
	if err := s.Opened(ctx); err != nil {
		return 0, err
	}
	const op = "record a generated image"
	if len(img.Data) == 0 {
		return 0, &Error{Kind: KindIO, Path: s.path, Op: op, Err: errors.New("the image has no bytes")}
	}
	hash := HashBytes(img.Data)
	b := blobs{hash: img.Data}
	if err := s.folder.put(b); err != nil {
		return 0, classify(s.path, op, err)
	}
	created := img.Created
	if created.IsZero() {
		created = s.now()
	}
	var id int64
	err := s.write(ctx, op, func(tx *sql.Tx) error {
		var session any
		if err := refuseDeleted(ctx, tx, img.SessionID); errors.Is(err, ErrSessionDeleted) {
			// The image stays in the gallery, outside any session.
			img.SessionID = ""
		} else if err != nil {
			return err
		}
		if img.SessionID != "" {
			session = img.SessionID
			// An image made before the session's first message makes the
			// session.
			if _, err := tx.ExecContext(ctx, `INSERT INTO sessions (id, created, updated) VALUES (?1, ?2, ?2)
				ON CONFLICT (id) DO UPDATE SET updated = max(updated, excluded.updated)`, img.SessionID, millis(created)); err != nil {
				return err
			}
		}
		return tx.QueryRowContext(ctx, `INSERT INTO generated_images (session_id, prompt, model, size, path, sha256, mime, width, height, bytes, created)
			VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?) RETURNING id`,
			session, img.Prompt, img.Model, img.Size, img.Path, hash, img.MIME, img.Width, img.Height, len(img.Data), millis(created)).Scan(&id)
	})
	if err != nil {
		return 0, err
	}
	return id, classify(s.path, op, s.folder.ensure(b))
}

// GeneratedImages returns the images generated in a session ("" for those
// made outside any session), oldest first, with their bytes.
func (s *Store) GeneratedImages(ctx context.Context, sessionID string) ([]GeneratedImage, error) {
	if err := s.Opened(ctx); err != nil {
		return nil, err
	}
	return s.generatedImages(ctx, sessionID, true)
}

func (s *Store) generatedImages(ctx context.Context, sessionID string, withData bool) ([]GeneratedImage, error) {
	const op = "read generated images"
	rows, err := s.db.QueryContext(ctx, `SELECT id, coalesce(session_id, ''), prompt, model, size, path, sha256, mime, width, height, bytes, created
		FROM generated_images WHERE coalesce(session_id, '') = ? ORDER BY id`, sessionID)
	if err != nil {
		return nil, classify(s.path, op, err)
	}
	defer rows.Close()
	var out []GeneratedImage
	for rows.Next() {
		var g GeneratedImage
		var created int64
		if err := rows.Scan(&g.ID, &g.SessionID, &g.Prompt, &g.Model, &g.Size, &g.Path, &g.SHA256, &g.MIME,
			&g.Width, &g.Height, &g.Bytes, &created); err != nil {
			return nil, classify(s.path, op, err)
		}
		g.Created = fromMillis(created)
		out = append(out, g)
	}
	if err := rows.Err(); err != nil {
		return nil, classify(s.path, op, err)
	}
	for i := range out {
		if !withData {
			break
		}
		data, err := s.folder.readBlob(out[i].SHA256)
		if err != nil && !errors.Is(err, fs.ErrNotExist) {
			return nil, classify(s.path, op, fmt.Errorf("image %d: %w", out[i].ID, err))
		}
		out[i].Data = data
	}
	return out, nil
}
