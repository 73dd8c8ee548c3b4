// Package filepicker is the file picker of /attach: the folders and
// files of one folder, a filter, several files chosen at once, a typed
// path (starting with /, ~/ or ./) that opens its folder or attaches its
// file, and a preview of the highlighted file beside the list.
//
// Every file is listed, marked with what its first bytes say it is (the
// rule api.Attach applies, never the name): an image (PNG, JPEG, WEBP,
// GIF), text (UTF-8 without NUL), or neither. A file that is neither, or
// empty, is shown dim, and choosing it says in one sentence why it
// cannot be attached, so a file the user looks for is never missing
// without a word. The first screen's files are looked at with the folder
// read; the rest in background commands, a batch at a time, at most
// 512 bytes of each.
//
// The picker is a component, not a tea.Model: the root makes it with
// New, gives it its size and every message while it is open, draws View
// (exactly its size, its keys on the bottom row) and acts on the Result
// each Update returns (attach these paths, close). Folders are read, and
// files looked at, in commands whose messages come back to Update.
//
// Previews: the picker never decodes an image. When the highlighted image
// or the preview's box changes, a Result carries a PreviewRequest (a
// path and a box of cells); the root renders it with its preview cache
// and mode (ui/preview: half blocks, or kitty pictures it must transmit
// outside the frame) and hands the lines back in a PreviewMsg. This keeps
// the one preview renderer, its cache and the kitty bookkeeping in the
// root, as for the image pane, and lets tests answer with lines of their
// own. A text file's preview is the picker's own: its first lines (at
// most 16 KB read, in a command), made inert, tabs expanded. A preview
// shows only while it answers the request for what is highlighted now: a
// folder, or a file whose preview is on its way, never shows the previous
// file's.
package filepicker
