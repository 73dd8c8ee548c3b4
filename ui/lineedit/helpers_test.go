package lineedit

import (
	"strings"
	"testing"

	tea "charm.land/bubbletea/v2"
	"charm.land/lipgloss/v2"
	uv "github.com/charmbracelet/ultraviolet"
	"github.com/charmbracelet/x/ansi"

	"parley/themes"
	"parley/ui/keys"
	"parley/ui/uictx"
)

func testCtx(t testing.TB, noColor bool) *uictx.Context {
	t.Helper()
	th, ok := themes.NewSet().Get(themes.Dark)
	if !ok {
		t.Fatal("no dark theme")
	}
	return &uictx.Context{Width: 80, Height: 24, Theme: th, Styles: th.Styles(noColor), NoColor: noColor, Keys: keys.Default()}
}

// decode turns the bytes a terminal sends for one key into the message
// Bubble Tea delivers, with the decoder Bubble Tea uses.
func decode(t testing.TB, seq string) tea.KeyPressMsg {
	t.Helper()
	var d uv.EventDecoder
	n, ev := d.Decode([]byte(seq))
	k, ok := ev.(uv.KeyPressEvent)
	if !ok || n != len(seq) {
		t.Fatalf("%q decodes to %T (%d of %d bytes)", seq, ev, n, len(seq))
	}
	return tea.KeyPressMsg(k)
}

// typeText sends one key press per character, as a terminal does.
func typeText(t testing.TB, m *Model, s string) {
	t.Helper()
	for _, r := range s {
		m.Update(decode(t, string(r)))
	}
}

func requireWidth(t testing.TB, view string, w int) {
	t.Helper()
	if strings.Contains(view, "\n") {
		t.Fatalf("the view has a line break: %q", view)
	}
	if got := lipgloss.Width(view); got != w {
		t.Fatalf("view is %d cells, want %d: %q", got, w, ansi.Strip(view))
	}
}
