// Package preview shows images in terminal cells, fed by package media. It
// is the one preview renderer of the UI: the file picker, the attachment
// chips, the transcript and the image pane all draw pictures through it.
//
// Half blocks (▀, the top pixel in the foreground colour, the bottom one in
// the background colour) work in every terminal, tmux and SSH included,
// with 256-colour, 16-colour and no-colour (shade characters) fallbacks
// chosen by the colour profile. The kitty graphics protocol gives a sharp
// picture where the terminal draws its Unicode placeholders (kitty 0.28
// and later, Ghostty): the picture is transmitted once, outside the frame,
// and the frame holds ordinary placeholder characters (U+10EEEE with
// combining marks that say the row and column) coloured with the image id,
// so the Bubble Tea cell renderer lays them out like any other text.
// Kitty direct placement (kitty before 0.28, WezTerm, Konsole 23 and
// later), sixel and iTerm2's inline images cannot be text: their frame
// holds marker cells, and a Stage finds them in the composed frame and
// draws the pictures beside it (stage.go).
//
// Choose picks the way from the images setting, the environment and the
// terminal's answers (package termprobe); Select from the first two alone.
// Cache.Render decodes and scales, so it belongs in a tea.Cmd, never in
// Update (Cache.RenderContext stops decoding when the context ends, and
// decodes within a media.Budget shared with the screen's other decoders); Cache.Get only looks up, and is cheap enough for Update.
// Cache.Keep takes pixels decoded elsewhere, so an image is not decoded a
// second time to be shown.
//
// Safety: the only escape sequences in what this package returns are the
// ones it builds itself (SGR colours; kitty graphics commands, sixel images
// and iTerm2 inline images carrying data of an image the user chose; the
// cursor saved, moved and restored around them). Nothing taken from
// outside, not even a file name, is copied into the output, and text that
// looks like a Stage's marker draws nothing (its id is no picture's).
package preview
