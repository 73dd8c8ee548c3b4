package desktop

import (
	"context"
	"errors"
)

// copyText is what a text copy's errors say could not be done. The caller
// also sends the text to the terminal's clipboard (OSC 52); these errors
// are about the system clipboard only.
const copyText = "copy the text to the system clipboard"

// CopyText puts text on the system clipboard: wl-copy on Wayland (xclip
// through XWayland when only that is installed), xclip or xsel on X11,
// pbcopy on macOS, PowerShell on Windows. It takes the path every copy
// takes (CopyImage's): one run of the tool within Timeout, after which the
// tool's whole process group is killed, so a hung wl-copy leaves nothing
// behind, however often the user copies. wl-copy, xclip and xsel leave a
// process behind that serves the clipboard until something else is
// copied; that is how those clipboards work, and it is not waited for.
//
// The text is copied as it is: sanitise it first (termsafe.Sanitize), as
// for the terminal. Errors are one sentence that starts "cannot copy the
// text to the system clipboard: " and wrap ErrNoTool (no tool or no
// graphical session, and what to install) or ErrTimeout; others say the
// tool failed. Call it from a tea.Cmd.
func (s System) CopyText(ctx context.Context, text string) error {
	if text == "" {
		return errors.New("cannot " + copyText + ": there is no text to copy")
	}
	data := []byte(text)
	if name, ps := s.wslPowerShell(); ps != "" {
		return s.copyWSL(ctx, copyText, name, ps, "text", data)
	}
	switch s.session() {
	case wayland:
		if p := s.find("wl-copy"); p != "" {
			return s.copyWith(ctx, copyText, tool{name: "wl-copy", path: p, args: []string{"--type", "text/plain;charset=utf-8"}, stdin: data, serves: true})
		}
		if s.getenv("DISPLAY") != "" {
			if p := s.find("xclip"); p != "" {
				return s.copyWith(ctx, copyText, xclipWrite(p, "", data))
			}
		}
		return newError(ErrNoTool, "cannot "+copyText+": install wl-clipboard (wl-copy) for Wayland")
	case x11:
		if p := s.find("xclip"); p != "" {
			return s.copyWith(ctx, copyText, xclipWrite(p, "", data))
		}
		if p := s.find("xsel"); p != "" {
			return s.copyWith(ctx, copyText, tool{name: "xsel", path: p, args: []string{"--clipboard", "--input"}, stdin: data, serves: true})
		}
		return newError(ErrNoTool, "cannot "+copyText+": install xclip or xsel for X11")
	case macOS:
		p := s.find("pbcopy")
		if p == "" {
			return newError(ErrNoTool, "cannot "+copyText+": pbcopy was not found on PATH; it comes with macOS, so check PATH")
		}
		// pbcopy reads its input in the locale's encoding; say UTF-8.
		return s.copyWith(ctx, copyText, tool{name: "pbcopy", path: p, stdin: data, env: []string{"LANG=en_US.UTF-8", "LC_ALL=en_US.UTF-8"}})
	case windows:
		name, p := s.powershell()
		if p == "" {
			return psMissing(copyText)
		}
		return s.copyThroughFile(ctx, copyText, "clipboard.txt", data, func(file string) tool {
			return tool{name: name, path: p, args: psArgs(psWriteText), env: []string{"PARLEY_CLIPBOARD_TEXT=" + file}, limit: stderrKeep}
		})
	}
	return newError(ErrNoDesktop, "cannot "+copyText+": "+s.noSessionReason())
}
