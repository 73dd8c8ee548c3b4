// Package filepicker is the image file picker of /attach: the folders
// and image files (PNG, JPEG, WEBP, GIF) of one folder, a filter, several
// files chosen at once, a typed path (starting with /, ~/ or ./) that
// opens its folder or attaches its file, and a preview of the highlighted
// image beside the list.
//
// The picker is a component, not a tea.Model: the root makes it with
// New, gives it its size and every message while it is open, draws View
// (exactly its size, its keys on the bottom row) and acts on the Result
// each Update returns (attach these paths, close). Folders are read in
// commands whose messages come back to Update.
//
// Previews: the picker never decodes an image. When the highlighted image
// or the preview's box changes, a Result carries a PreviewRequest (a
// path and a box of cells); the root renders it with its preview cache
// and mode (ui/preview: half blocks, or kitty pictures it must transmit
// outside the frame) and hands the lines back in a PreviewMsg. This keeps
// the one preview renderer, its cache and the kitty bookkeeping in the
// root, as for the image pane, and lets tests answer with lines of their
// own. A preview shows only while it answers the request for what is
// highlighted now: a folder, or an image whose preview is on its way,
// never shows the previous image.
package filepicker
