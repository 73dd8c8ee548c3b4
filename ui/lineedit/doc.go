// Package lineedit is the UI's one single-line editor: every filter, the
// sessions browser's rename, the image pane's save prompt and the fields
// of the image form are a Model. It wraps charm.land/bubbles/v2/textinput
// and adds what the UI promises everywhere: the readline keys of the help
// (ctrl+a/e, ctrl+b/f, alt+b/f, ctrl+w, alt+backspace, alt+d, ctrl+u,
// ctrl+k, ctrl+d), typed and pasted text made one clean line
// (cells.Input), the theme's styles, and a view of exactly its width,
// cached until something changes.
//
// Words: ctrl+w deletes back to a space or a "/" (a path loses its last
// part, a filter its last word); alt+b, alt+f, alt+backspace and alt+d
// move over or delete words of letters and digits, as readline does.
//
// textinput's own ctrl+v (an unbounded read of the system clipboard) and
// its suggestion keys are switched off: pasting reaches an input as a
// bracketed paste (tea.PasteMsg), and tab, up and down belong to whatever
// holds the input.
package lineedit
