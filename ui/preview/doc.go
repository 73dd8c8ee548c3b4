// Package preview shows images in terminal cells, fed by package media. It
// is the one preview renderer of the UI: the file picker, the attachment
// chips, the transcript and the image pane all draw pictures through it.
//
// Two ways of drawing exist. Half blocks (▀, the top pixel in the
// foreground colour, the bottom one in the background colour) work in every
// terminal, tmux and SSH included, with 256-colour, 16-colour and no-colour
// (shade characters) fallbacks chosen by the colour profile. The kitty
// graphics protocol gives a sharp picture where the terminal supports its
// Unicode placeholders: the picture is transmitted once, outside the frame,
// and the frame holds ordinary placeholder characters (U+10EEEE with
// combining marks that say the row and column) coloured with the image id,
// so the Bubble Tea cell renderer lays them out like any other text.
//
// Select chooses the way from the images setting and the environment.
// Cache.Render decodes and scales, so it belongs in a tea.Cmd, never in
// Update (Cache.RenderContext stops decoding when the context ends, and
// decodes within a media.Budget shared with the screen's other decoders); Cache.Get only looks up, and is cheap enough for Update.
// Cache.Keep takes pixels decoded elsewhere, so an image is not decoded a
// second time to be shown.
//
// Safety: the only escape sequences in what this package returns are the
// ones it builds itself (SGR colours and kitty graphics commands carrying
// Base64 data of an image the user chose). Nothing taken from outside, not
// even a file name, is copied into the output.
package preview
