// Package imageform is /image as a small form: prompt, model, size and
// how many, each a ui/lineedit. Enter checks what can be checked here (a
// prompt is given, the size is WxH or auto, how many is 1 to 10) and
// returns the request as data; a refusal is shown in the form, which
// stays open with everything typed.
//
// The form is a component, not a tea.Model: the root makes it with New
// (filled with what was asked last), gives it its size and every message
// while it is open, draws View (or Box, to lay the form over the
// transcript) and acts on the Result: Submit carries the Ask the root
// checks against the model and sends.
package imageform
