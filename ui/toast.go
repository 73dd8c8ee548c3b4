package ui

import (
	"time"

	tea "charm.land/bubbletea/v2"

	"parley/termsafe"
)

// toastKind picks a toast's colour and how long it stays.
type toastKind int

const (
	toastInfo toastKind = iota
	toastOK
	toastWarn
	toastErr
)

// toast is a one-line message shown in place of the key hint for a moment.
type toast struct {
	text string
	kind toastKind
	gen  int // the toast's number; an expiry for an older one is ignored
}

type toastExpiredMsg struct{ gen int }

func (k toastKind) duration() time.Duration {
	switch k {
	case toastErr:
		return 8 * time.Second
	case toastWarn:
		return 6 * time.Second
	default:
		return 3 * time.Second
	}
}

// showToast replaces the current toast. Text is sanitised: toasts carry
// gateway error messages and model names.
func (m *Model) showToast(text string, kind toastKind) tea.Cmd {
	m.toast = toast{text: termsafe.Sanitize(oneLine(text)), kind: kind, gen: m.toast.gen + 1}
	m.renderHint()
	gen := m.toast.gen
	return tea.Tick(kind.duration(), func(time.Time) tea.Msg { return toastExpiredMsg{gen: gen} })
}

func (m *Model) clearToast() {
	if m.toast.text != "" {
		m.toast.text = ""
		m.renderHint()
	}
}
