// Package session keeps parley's history durable: one SQLite database
// (sessions, messages, their image parts, drafts, generated images) with
// full-text search, image bytes stored once by SHA-256 in a blobs folder
// next to it, export to Markdown and JSON, and a Recorder that follows
// conversation changes and writes them off the UI goroutine.
//
// Everything a Store returns is a copy; a Store is safe for concurrent use,
// and several processes may use one database at a time (SQLite's WAL mode
// with a busy timeout serialises their short write transactions).
package session
