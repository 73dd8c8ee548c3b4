// Package overlay holds the chat screen's overlays: the key help, the
// filterable picker (models, themes, branches) and the first-run setup
// screen.
//
// Each overlay implements the UI's one component contract
// (uictx.Component), not tea.Model: the root opens it, routes messages to
// it while it is open, and acts on the action its Update returns, a value
// of this package's own types (HelpClosed, PickerResult, ModelsListed,
// SetupResult). One Picker serves every purpose: the holder says what it
// is for (PickerOptions.For) and every result carries that back. Nothing
// here writes files or changes application state; commands (the loopback
// probe) only return messages.
//
// Every View renders exactly the area set with SetSize: that many lines, each
// exactly that many cells wide, so the root can draw an overlay instead of the
// transcript or composite its box over it.
package overlay
