package ui

import (
	"os"

	"github.com/charmbracelet/x/term"
)

// sizedForTerminal is opts with the size of the terminal Run draws on
// when opts gives none, so that New lays the first frame out for it.
// Bubble Tea sends its window size a few milliseconds after the program
// starts, in a race with its other start-up messages; a first frame laid
// out at 80x24 until then was drawn, thrown away and drawn again, and the
// renderer's pacing could hold the right one back a frame interval.
// Bubble Tea still asks the terminal itself (opts, not this copy, sets
// its options), so a size that changed meanwhile arrives as usual.
func sizedForTerminal(opts Options) Options {
	if opts.Width > 0 && opts.Height > 0 {
		return opts
	}
	var out any = os.Stdout
	if opts.Output != nil {
		out = opts.Output
	}
	f, ok := out.(interface{ Fd() uintptr })
	if !ok || !term.IsTerminal(f.Fd()) {
		return opts
	}
	w, h, err := term.GetSize(f.Fd())
	if err != nil || w <= 0 || h <= 0 {
		return opts
	}
	opts.Width, opts.Height = w, h
	return opts
}
