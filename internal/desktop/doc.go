// Package desktop reaches the desktop parley runs on through its standard
// tools: it reads the system clipboard (an image, or text), copies an image
// or text to it, opens a file in the system's viewer, takes a screenshot of
// a region the user draws, and finds the newest file of the screenshots
// folder. The tool is chosen by the session: wl-clipboard (and grim with
// slurp) on Wayland, xclip (or xsel, for text; maim, scrot and others for
// screenshots) on X11, pngpaste or osascript, pbpaste, pbcopy and
// screencapture on macOS, PowerShell on Windows.
// Every copy, of text or of an image, takes one path (copyWith): the time
// limit, the process group killed on a timeout, one sentence on failure.
//
// Nothing here is global: a System carries the environment getter, the PATH
// lookup and the operating system, so tests run every platform's path with
// fake tools on a PATH of their own. Every tool run has a time limit after
// which its whole process group is killed, every output a byte cap, and
// every failure a one-sentence error that says what to do.
package desktop
