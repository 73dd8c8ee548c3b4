package session

import (
	"context"
	"database/sql"
	"errors"
	"strconv"
	"strings"

	"parley/api"
	"parley/conversation"
)

// What the store does with a session's tree beyond recording it:
// opening it at a message of another branch (a search hit) and forking a
// new session from a message.

// OpenAt loads a session whole, as Load does, with the active path
// switched to go through the message with id messageID (a search hit in
// another branch) and on to the leaf below it that the chat would show
// (the one holding the newest message). The new active leaf is stored,
// so the session opens there next time too.
func (s *Store) OpenAt(ctx context.Context, id string, messageID int) (Session, error) {
	if err := s.Opened(ctx); err != nil {
		return Session{}, err
	}
	sess, err := s.Load(ctx, id)
	if err != nil {
		return Session{}, err
	}
	conv := conversation.Restore(conversation.Options{ID: id}, sess.Snapshot)
	if err := conv.SwitchTo(messageID); err != nil {
		if errors.Is(err, conversation.ErrNoMessage) {
			return Session{}, notFound("there is no message %d in session %s; search again", messageID, id)
		}
		return Session{}, err
	}
	if conv.Leaf() == sess.Snapshot.Leaf {
		return sess, nil
	}
	sess.Snapshot.Leaf = conv.Leaf()
	err = s.write(ctx, "open the session", func(tx *sql.Tx) error {
		_, err := tx.ExecContext(ctx, "UPDATE sessions SET active_leaf = ? WHERE id = ?", conv.Leaf(), id)
		return err
	})
	return sess, err
}

// forkSuffix marks the title of a forked session.
const forkSuffix = " (fork)"

// forkTitle is the title of a fork of a session titled title: "alpha
// (fork)", then "alpha (fork 2)" for a fork of that fork, and so on,
// never "alpha (fork) (fork)".
func forkTitle(title string) string {
	if base, ok := strings.CutSuffix(title, forkSuffix); ok {
		return base + " (fork 2)"
	}
	if i := strings.LastIndex(title, " (fork "); i >= 0 && strings.HasSuffix(title, ")") {
		if n, err := strconv.Atoi(title[i+len(" (fork ") : len(title)-1]); err == nil && n >= 2 {
			return title[:i] + " (fork " + strconv.Itoa(n+1) + ")"
		}
	}
	return title + forkSuffix
}

// Fork stores snap (conversation.Fork: the path up to a message) as a new
// session and returns its id. Its title is the original's with " (fork)"
// after it, given by name so that it stays; it keeps the role and params;
// messages keep their ids, parents, images, reasoning and left-out turns;
// the draft is not copied.
func (s *Store) Fork(ctx context.Context, snap conversation.Snapshot) (string, error) {
	if err := s.Opened(ctx); err != nil {
		return "", err
	}
	if len(snap.Messages) == 0 {
		return "", errors.New("there is nothing to fork yet: the conversation has no messages")
	}
	title := strings.TrimSpace(snap.Title)
	if title == "" {
		for _, m := range snap.Messages {
			if m.Role == api.RoleUser || m.IsImages() {
				title = conversation.MakeTitle(m.Text)
				break
			}
		}
	}
	if title == "" {
		title = "untitled"
	}
	id := conversation.NewID()
	h := &heldSession{title: forkTitle(title), titled: true, system: snap.SystemPrompt, role: snap.Role, params: snap.Params, leaf: snap.Leaf, msgs: snap.Messages}
	if err := s.restore(ctx, id, h); err != nil {
		return "", err
	}
	return id, nil
}
