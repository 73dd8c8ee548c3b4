package e2e

import (
	"path/filepath"
	"strings"
	"testing"

	"parley/api/apitest"
)

// TestFocusFollowsTheKeys: with the image pane focused, typing /attach x
// lands in the composer (the pane's own "a" does not attach anything);
// f4 and ctrl+l work from the pane; the hint line shows the keys of
// whatever has the focus.
func TestFocusFollowsTheKeys(t *testing.T) {
	t.Parallel()
	gw := apitest.New(t)
	dir := filepath.Join(t.TempDir(), "made")
	tm := startParley(t, launch{Gateway: gw, Config: imageConfig(dir), Width: 150, Height: 45})
	tm.waitText(composerReady)
	tm.send("/image a lighthouse at dusk")
	tm.waitText("saved 1 image")

	tm.keys("M-i")
	s := tm.waitText("▸ Images", "a attach", "esc back")
	if strings.Contains(lastLine(s), "enter send") {
		t.Fatalf("the hint line shows the composer's keys while the pane has them:\n%s", frame(s))
	}
	// Typing a command: "/" is not the pane's, so it and everything after
	// it go to the composer, and the pane's "a" attaches nothing.
	tm.typeText("/attach x")
	s = tm.waitText("/attach x")
	if strings.Contains(s, "1 ▣") || strings.Contains(s, "▸ Images") {
		t.Fatalf("the keys went to the pane:\n%s", frame(s))
	}
	if strings.Contains(lastLine(s), "a attach") {
		t.Fatalf("the hint line still shows the pane's keys:\n%s", frame(s))
	}
	tm.keys("Escape")
	tm.waitGone("Commands")
	tm.keys("M-k")
	tm.waitGone("/attach x")

	// f4 from the focused pane opens the notices.
	tm.keys("M-i")
	tm.waitText("▸ Images")
	tm.keys("F4")
	tm.waitText("Notices ·")
	// ctrl+l from the focused pane starts a new conversation.
	tm.keys("M-i")
	tm.waitText("▸ Images")
	tm.keys("C-l")
	tm.waitText("again to start a new conversation")
	tm.keys("C-l")
	tm.waitText("new conversation")
	tm.waitGone("a lighthouse at dusk")
}

// lastLine is the screen's bottom line (the key hint).
func lastLine(screen string) string {
	ls := lines(screen)
	for i := len(ls) - 1; i >= 0; i-- {
		if strings.TrimSpace(ls[i]) != "" {
			return ls[i]
		}
	}
	return ""
}

// TestBrowserAndPickerShowTheirKeys: the full-screen sessions browser and
// file picker draw their keys on the bottom row; the browser's filter
// takes the readline keys ctrl+w (a word) and ctrl+u (everything).
func TestBrowserAndPickerShowTheirKeys(t *testing.T) {
	t.Parallel()
	gw := apitest.New(t)
	tm := startParley(t, launch{Gateway: gw, Config: chatConfig, Width: 100, Height: 30})
	tm.waitText(composerReady)
	tm.send("the quetzal has green feathers")
	tm.waitText("You said: the quetzal has green feathers")

	tm.keys("M-s")
	s := tm.waitText("Sessions · 1")
	if last := lastLine(s); !containsAll(last, "enter open", "ctrl+r rename", "ctrl+x delete", "esc close") {
		t.Fatalf("the browser's bottom row lacks its keys: %q\n%s", last, frame(s))
	}
	tm.typeText("green feath")
	tm.waitText("Messages with “green feath”")
	tm.keys("C-w")
	tm.waitText("Messages with “green”")
	tm.keys("C-u")
	tm.waitGone("Messages with")
	tm.waitText("Sessions · 1")
	tm.keys("Escape")
	tm.waitText(composerReady)

	tm.keys("M-a")
	s = tm.waitText("attach / open folder")
	if last := lastLine(s); !containsAll(last, "attach / open folder", "space choose several", "esc cancel") {
		t.Fatalf("the picker's bottom row lacks its keys: %q\n%s", last, frame(s))
	}
	tm.keys("Escape")
	tm.waitText(composerReady)
}
