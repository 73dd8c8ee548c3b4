// Package ui is parley's full-screen chat: the root Bubble Tea model that
// owns the conversation and every part of the screen, and Run, which runs
// it. ARCHITECTURE.md (at the top of the repository) walks one chat turn
// through it and shows how to add an overlay, a pane, a slash command and a
// listener; these are the rules that hold it together.
//
// Only Update changes the model, and Update does no I/O: files, the
// network, the clipboard, the store and image decoding run in tea.Cmds,
// whose messages come back to Update. Commands never touch the model.
//
// View only returns the frame Update composed. At the end of every Update
// the screen follows from the model: relayout computes the layout when its
// inputs changed (computeLayout is the one function that places things),
// the composer and the chrome (status bar, hint line, banner, title) redraw
// when the key of their inputs changed, and composeFrame joins the cached
// parts. No handler calls a render function; Markdown is rendered on the
// stream's frame tick, for the unfinished tail only.
//
// Focus is state the root holds (Model.focus, and the layer stack: an open
// layer always has the keys). Key routing is in one place (input.go): the
// quit keys first, then the top layer, where an app key it does not use
// (help, notices, sessions, theme, model, new conversation) closes the
// layers and acts; a focused pane gets the keys it binds, an app key acts
// with the focus left where it is, and any other key gives the focus back
// to the composer and is delivered there. The composer's textarea is told
// whether it has the focus in exactly one place (composer.sync).
//
// Components (layers, panes, the command list, the transcript) get a narrow
// interface: a size, an update that returns typed results, a draw into an
// exact rectangle, their key hints. They read the shared uictx.Context and
// their arguments, never the root model, and they never hold closures over
// it. What a component asks of the root comes back as data (results.go),
// and handleResult is the one place each kind of result is acted on.
//
// Keys and slash commands are one action table (table.go, table_chat.go):
// an action is declared once, with its key binding, its command and its
// handler; the command registry is built from the table, so a command
// cannot exist without its handler.
//
// State has owners: the reply in flight (streamer), the image turn
// (imageRunner), the sessions store and the draft (history), the notices,
// the pictures, the terminal's reports (terminal). Update hands each
// message to the part that owns it.
package ui
