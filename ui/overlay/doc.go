// Package overlay holds the chat screen's overlays: the key help, the
// filterable picker (models and themes) and the first-run setup screen.
//
// Each overlay is a plain struct with value-receiver methods, not a
// tea.Model: the root model owns it, routes messages to it while it is open,
// and turns the result value each Update returns into an action. Nothing here
// writes files or changes application state; commands (the loopback probe)
// only return messages.
//
// Every View renders exactly the area set with SetSize: that many lines, each
// exactly that many cells wide, so the root can draw an overlay instead of the
// transcript or composite its box over it.
package overlay
