package ui

import (
	"errors"
	"fmt"
	"os"
	"os/exec"
	"strings"

	"parley/internal/bytesize"
	"parley/internal/desktop"
	"parley/internal/safefile"

	tea "charm.land/bubbletea/v2"
)

// editorDoneMsg brings the text written in $EDITOR back to the composer.
type editorDoneMsg struct {
	text string
	err  error
}

// editorCommand builds the command that edits path: $VISUAL, then $EDITOR
// (both may carry arguments: "code --wait"), then vi, then nano.
func editorCommand(getenv func(string) string, path string) (*exec.Cmd, error) {
	for _, name := range []string{"VISUAL", "EDITOR"} {
		if v := strings.TrimSpace(getenv(name)); v != "" {
			f := strings.Fields(v)
			return exec.Command(f[0], append(f[1:], path)...), nil
		}
	}
	for _, name := range []string{"vi", "nano"} {
		if p, err := exec.LookPath(name); err == nil {
			return exec.Command(p, path), nil
		}
	}
	return nil, errors.New("no editor found: set $EDITOR (for example EDITOR=nano) and try again")
}

// openEditor writes text to a temporary file, suspends the UI while the
// editor runs, and returns its contents as an editorDoneMsg. The file is
// removed afterwards; the text survives in the composer even when the editor
// fails, because the composer is only replaced on success.
func openEditor(getenv func(string) string, text string) tea.Cmd {
	return func() tea.Msg {
		f, err := os.CreateTemp("", "parley-*.md")
		if err != nil {
			return editorDoneMsg{err: fmt.Errorf("cannot create a file for the editor: %w", err)}
		}
		path := f.Name()
		_, werr := f.WriteString(text)
		cerr := f.Close()
		if err := errors.Join(werr, cerr); err != nil {
			os.Remove(path)
			return editorDoneMsg{err: fmt.Errorf("cannot write the file for the editor: %w", err)}
		}
		cmd, err := editorCommand(getenv, path)
		if err != nil {
			os.Remove(path)
			return editorDoneMsg{err: err}
		}
		return tea.ExecProcess(cmd, func(err error) tea.Msg {
			return readEditorResult(path, err)
		})()
	}
}

// readEditorResult reads what the editor left in path and removes the file.
func readEditorResult(path string, runErr error) tea.Msg {
	defer os.Remove(path)
	if runErr != nil {
		return editorDoneMsg{err: fmt.Errorf("the editor exited with an error (%w); your text is unchanged", runErr)}
	}
	b, err := safefile.Read(path, desktop.MaxTextBytes)
	var big *safefile.TooLargeError
	switch {
	case errors.As(err, &big):
		return editorDoneMsg{err: fmt.Errorf("the editor's text is larger than %s, more than a message takes; your text is unchanged (send a long text as a file: /attach)", bytesize.Format(desktop.MaxTextBytes))}
	case err != nil:
		return editorDoneMsg{err: fmt.Errorf("cannot read the editor's file: %w", err)}
	}
	// Editors add a final newline; the composer does not want it.
	return editorDoneMsg{text: strings.TrimRight(string(b), "\n")}
}
