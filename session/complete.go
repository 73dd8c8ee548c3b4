package session

import (
	"context"
	"database/sql"
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
)

// IDChoice is a session offered by shell completion.
type IDChoice struct {
	ID, Title string
}

// CompleteIDs lists the sessions of the history in dir whose id starts
// with prefix, newest first, at most limit, for shell completion (a tab
// press). It reads the database read-only: no schema step, no recovery,
// and nothing is created when there is no history (then it returns none).
func CompleteIDs(ctx context.Context, dir, prefix string, limit int) ([]IDChoice, error) {
	path := filepath.Join(dir, DBName)
	if _, err := os.Stat(path); errors.Is(err, fs.ErrNotExist) || dir == "" {
		return nil, nil
	}
	for _, p := range []string{path, path + "-wal", path + "-shm"} {
		if err := regularOrMissing(p); err != nil {
			return nil, err
		}
	}
	db, err := sql.Open("sqlite", dsn(path, true))
	if err != nil {
		return nil, classify(path, "list the sessions", err)
	}
	defer db.Close()
	p := strings.ToLower(prefix)
	rows, err := db.QueryContext(ctx, `SELECT s.id, s.title FROM sessions s WHERE s.id >= ? AND s.id < ? AND `+listed+`
		ORDER BY s.updated DESC, s.id DESC LIMIT ?`, p, p+"g", max(limit, 1))
	if err != nil {
		return nil, classify(path, "list the sessions", err)
	}
	defer rows.Close()
	var out []IDChoice
	for rows.Next() {
		var c IDChoice
		if err := rows.Scan(&c.ID, &c.Title); err != nil {
			return nil, classify(path, "list the sessions", err)
		}
		out = append(out, c)
	}
	return out, classify(path, "list the sessions", rows.Err())
}
