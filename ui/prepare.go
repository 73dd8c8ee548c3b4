package ui

import (
	"parley/ui/mdstream"
	"time"

	tea "charm.land/bubbletea/v2"
	"github.com/mattn/go-runewidth"
)

// Prepare does the one-time work the chat's first frame would otherwise
// wait for, on the caller's goroutine, so that the command line can run it
// beside the rest of the start-up (reading the config, opening the
// history): go-runewidth builds its table of cell widths at the first rune
// above U+02FF it is asked about, and every frame has one (the borders,
// "›"). Upstream's table, 2.2 MB, took 10–25 ms here, most of it page
// faults (BENCHMARKS.md, "The first frame stops waiting for the history and
// the width table"); parley's copy packs it into 557 KB. parley's copy of go-runewidth answers widths asked while
// the table is built without waiting for it, so the first frame does not
// wait for Prepare either.
func Prepare() {
	runewidth.RuneWidth('─')
}

// prepareAfterStart is the start's one-time work that can wait for the
// first frame: chroma's lexers, read at the first code block otherwise
// (mdstream.Warm), a second after the chat starts, before a reply is
// likely to stream. It runs on the command's goroutine and touches no
// model state.
func prepareAfterStart() tea.Cmd {
	return tea.Tick(time.Second, func(time.Time) tea.Msg {
		mdstream.Warm()
		return nil
	})
}
