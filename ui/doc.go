// Package ui is parley's full-screen chat: the root Bubble Tea model that
// owns the conversation and every part of the screen, and Run, which runs
// it. ARCHITECTURE.md (at the top of the repository) walks one chat turn
// through it and shows how to add an overlay, a pane, a slash command and a
// listener; these are the rules that hold it together.
//
// Only Update changes the model, and Update does no I/O: files, the
// network, the clipboard, the store and image decoding run in tea.Cmds,
// whose messages come back to Update. Commands never touch the model. One
// bounded exception: a paste that is nothing but paths stats them (no file
// is opened, at most statWait together: ui/paste) to tell paths from text.
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
// layer always has the keys), and the modes are explicit (keyMode: the
// overlay, the side pane, the message cursor, the composer): key (input.go)
// gives a key to the one whose mode it is. An app key the top layer does
// not use (help, notices, sessions, theme, model, new conversation) closes
// the layers and acts; a focused pane gets the keys it binds, an app key
// acts with the focus left where it is, and any other key gives the focus
// back to the composer and is delivered there. An esc that dismisses a
// notice does only that. The composer's textarea is told whether it has
// the focus at the end of every Update (composer.sync); a key delivered to
// it focuses it first (composer.update).
//
// Overlays, panes and pickers implement one contract, uictx.Component: a
// message in, an action out (data of the component's own types); a size,
// then a draw into that rectangle; their key hints. They read the shared
// uictx.Context and their arguments, never the root model, and they never
// hold closures over it or the engine. Every overlay is a component of a
// package of its own (overlay, toolsui, browser, filepicker, imageform),
// and so is the image pane (imagepane, a side pane of ui/sidepane's
// contract); no root type sits between one and the root (the notices
// pane, which presents the root's own notices, is the one component the
// root package declares). handleResult (results.go) is
// the one place each kind of action is acted on, by its type; a picker's
// by what it was opened for (PickerOptions.For).
//
// Keys and slash commands are one action table (table.go, table_chat.go):
// an action is declared once, with its key binding, its command and its
// handler; the command registry is built from the table, so a command
// cannot exist without its handler.
//
// State has owners, and behaviour with it: the chat engine (chat.Engine:
// the conversation, the model, the clients, the replies and image runs in
// flight), the composer (its text and attachments, which it takes and
// words), the compare (its models, its view, its command and keys), what
// /image asked last (imageRunner), the sessions store, the draft and
// exports (history), the attaching jobs (work), the notices (with their
// clock), the pictures (with the terminal's graphics answers), the
// terminal's reports (terminal). Update hands each message to the part
// that owns it; the root presents what the parts report.
package ui
