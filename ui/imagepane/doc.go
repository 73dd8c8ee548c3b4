// Package imagepane is the chat's image pane: every image of the
// conversation (attached, generated, edited), newest first, with a large
// preview of the selected one, its details, and single-letter actions
// (attach, open, copy the path, copy the image, save a copy, edit).
//
// The pane is a plain struct, not a tea.Model: the root model owns it,
// feeds it keys and messages from its Update (HandleKey, HandleMsg) and
// carries out the Action it returns. The pane never decodes an image: the
// root asks for a rendering of exactly PreviewArea's size for the selected
// item and hands the lines to Draw, which only lays out cached strings.
// Every string that comes from outside (a prompt, a model name, a path, a
// file name, an error) passes the cells sanitiser before it is drawn.
package imagepane
