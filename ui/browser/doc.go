// Package browser is the sessions browser: every saved session, newest
// first, filtered by title as the user types (ui/list's matcher), and the
// messages of every session that contain the words typed (the store's
// full-text search). Enter opens a session, or a session at a message;
// ctrl+r renames the highlighted session, ctrl+x deletes it after a y,
// ctrl+l starts a new conversation.
//
// The browser is a component, not a tea.Model: the root makes it with
// New, gives it its size and every message while it is open, draws View
// (exactly its size, with its keys on the bottom row) and acts on the
// Result each Update returns (open, new conversation, renamed, deleted,
// close). It never touches the root. The store is read and written only
// in commands, whose messages come back to Update.
//
// Search is debounced (a query starts when typing rests for
// Options.Debounce), the running query's context is cancelled as soon as
// another key is typed or the browser closes, and a query that runs out
// of time says so ("search took too long; try more specific words")
// rather than "nothing matches".
//
// Keys: ctrl+r and ctrl+x because the filter is a ui/lineedit, whose
// readline keys include ctrl+e (end of line) and ctrl+d (delete the next
// character), the browser's old rename and delete keys; f2 is the app's
// mouse toggle, and delete is the editor's too.
package browser
