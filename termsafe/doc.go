// Package termsafe neutralises terminal control sequences in text that came
// from a gateway (reply text, error messages, model ids) before it reaches a
// terminal, the transcript or a clipboard toast.
//
// Model output is untrusted. Nothing in it may move the cursor, clear the
// screen, set the window title, write the clipboard (OSC 52), make a
// hyperlink (OSC 8), report a directory (OSC 7), start a DCS/APC/PM/SOS
// string, reset or query the terminal. Because every such sequence starts
// with ESC or a C1 control, making those characters inert is enough; what
// follows them is ordinary printable text.
//
// What [Sanitize] does, character by character (the decisions, with why):
//
//   - "\n" and "\t" pass through; "\r\n" becomes "\n" (models and gateways
//     emit CRLF, and a CR before LF moves nothing the user cares about).
//   - A lone "\r" and every other C0 control (0x00–0x1F) become the Unicode
//     Control Picture for it: ␀ … ␇ ␈ … ␍ … ␛ … ␟. DEL (0x7F) becomes ␡.
//   - An escape sequence is shown as ␛ followed by the rest of the sequence as
//     plain text ("\x1b[2J" → "␛[2J"), not collapsed: the user sees that
//     something was there and what it was, nothing takes effect, and no
//     parser state is needed, so a sequence split across deltas is caught by
//     construction.
//   - C1 controls U+0080–U+009F become a bracketed code point: ⟨U+009B⟩.
//   - Bidi embeddings, overrides and isolates (U+202A–U+202E, U+2066–U+2069,
//     the "Trojan Source" characters) become ⟨U+202E⟩ and so on. The marks
//     U+200E, U+200F and U+061C are kept: they are ordinary in right-to-left
//     text, are zero width, and cannot reorder strongly directional text.
//   - Bytes that are not valid UTF-8: a raw byte 0x80–0x9F (an 8-bit C1
//     control in legacy terminals) becomes ⟨0x9B⟩ so the attempt is visible;
//     any other invalid byte becomes U+FFFD, as usual for mojibake. Each
//     invalid byte is replaced on its own (the same rule as Go's decoder).
//
// The output is always valid UTF-8 and contains no ESC, no C0 control other
// than "\n" and "\t", no DEL, no C1 control and no bidi control. Clean input
// is returned as is, without allocating. Placeholders are themselves clean,
// so Sanitize is idempotent.
//
// [Stream] sanitises a sequence of deltas; the concatenated output equals
// Sanitize of the concatenated input for every way of splitting it (a "\r"
// or an incomplete UTF-8 sequence at the end of a delta is held back until
// the next delta or Flush). [Writer] does the same for an io.Writer.
//
// Markdown needs one more step: glamour decodes HTML character references
// ("&#27;", even "&#27" without the semicolon) after any sanitising, which
// would put a raw ESC back. [Markdown] sanitises and also replaces numeric
// character references that decode to a forbidden character by that
// character's placeholder; [MarkdownStream] does it for deltas, holding
// back a reference cut in two. [KeepSGR] is for the output of a trusted
// renderer (glamour): it keeps SGR styling and removes every other escape
// sequence, notably the OSC 8 hyperlinks glamour v2 always emits.
package termsafe
