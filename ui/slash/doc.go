// Package slash is the chat's slash commands: a registry of commands, the
// parser that turns a composer line such as `/image "a red fox" --n 2` into
// an Invocation, a small flag parser for commands that take options, path
// completion for commands that take files, and the command list shown above
// the composer while a command is typed.
//
// Nothing here changes application state. The root model registers its
// commands once, asks the registry to parse what the user sent, and
// dispatches the Invocation by name in its own Update; the list is a plain
// struct (not a tea.Model) that reads the composer's text (SetInput) instead
// of owning an editor, so the composer stays the one place text is edited.
// Argument completion (model names, themes, paths) runs in a tea.Cmd with a
// deadline, never in Update, and its results come back as a CompletionsMsg.
//
// The registry and the list are generic in E, the root's completion
// environment: a value (model names, theme names, the working directory…)
// handed to each command's Complete function. It is passed by value to a
// goroutine, so the root replaces what it holds rather than modifying it.
package slash
