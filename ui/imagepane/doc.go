// Package imagepane is the chat's image pane: every image of the
// conversation (attached, generated, edited) and of the composer, newest
// first, with a large preview of the selected one, its details, and
// single-letter actions (attach, open, copy the path, copy the image,
// save a copy, edit).
//
// The pane is a side pane (ui/sidepane) and a uictx.Component of its own:
// the chat tells it what it shows (Show: the conversation, the composer's
// images), and the pane makes its items from that when it changed. Its
// Update reports what it asks of the chat as its own types: Closed (give
// the keys back), Said (a sentence for the user), Chosen (act on the
// selected image, with its bytes). The pane never decodes an image: it
// names the preview the selection needs (WantedPicture), the chat makes it
// in a command and hands it back (TakePicture), and Draw only lays out
// cached strings. Every string that comes from outside (a prompt, a model
// name, a path, a file name, an error) passes the cells sanitiser before
// it is drawn.
package imagepane
