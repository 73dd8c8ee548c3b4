package e2e

import (
	"strings"
	"testing"

	"parley/api/apitest"
)

// roleConfig is chatConfig with README's role.
const roleConfig = chatConfig + `
[[roles]]
name = "reviewer"
system_prompt = "Review the code tersely: bugs first, style last."
model = "gpt-4o"
params = { temperature = 0.2 }
`

// TestShortNoticeIsWhole (issue 26 §11): a notice that needs two lines at
// 120 columns gets two, whole, not one cut with "f4 or /notices shows all".
func TestShortNoticeIsWhole(t *testing.T) {
	t.Parallel()
	gw := apitest.New(t)
	tm := startParley(t, launch{Gateway: gw, Config: roleConfig, Width: 120, Height: 30})
	tm.waitText(composerReady)
	tm.send("/role reviewer")
	tm.waitText("◆ reviewer")
	tm.send("/system")
	s := tm.waitText("system prompt: Review the code tersely")
	flat := strings.Join(strings.Fields(s), " ")
	if !strings.Contains(flat, "/system --clear removes it)") || strings.Contains(flat, "shows all") {
		t.Fatalf("the notice is cut:\n%s", frame(s))
	}
}

// TestCommandListOnAShortScreen (issue 26 §13): at 40x12 a three-line
// notice gives its rows to the command list, which shows more than two
// commands.
func TestCommandListOnAShortScreen(t *testing.T) {
	t.Parallel()
	gw := apitest.New(t)
	tm := startParley(t, launch{Gateway: gw, Config: roleConfig, Width: 40, Height: 12})
	tm.waitText("Message gpt-4o")
	tm.send("/role reviewer")
	tm.waitText("(/set shows them)")
	tm.typeText("/")
	s := tm.waitText("Commands", "esc close")
	n := 0
	for _, l := range lines(s) {
		if strings.HasPrefix(strings.TrimLeft(l, "│▸ "), "/") {
			n++
		}
	}
	if n < 4 {
		t.Fatalf("the command list shows %d commands:\n%s", n, frame(s))
	}
}

// TestNoticeAdviceIsWholeAt80x24: the built binary with no graphical
// session, asked to copy an image in the image pane, says why it cannot
// and what to do instead, every word, at 80x24 and at 40x24 (30 columns,
// where the rest is a pointer away, is ui's TestNoticeAdviceReachesTheEye:
// the wrapper's mark needs 40).
func TestNoticeAdviceIsWholeAt80x24(t *testing.T) {
	t.Parallel()
	for _, w := range []int{80, 40} {
		tm := startParley(t, launch{Width: w, Height: 24, Gateway: apitest.New(t), args: []string{"--demo"}})
		tm.waitText("demo-chat")
		tm.send("/image kite")
		tm.waitText("kite-1.png")
		tm.keys("M-i")
		tm.waitText("Images · 1 of 1")
		tm.keys("y")
		s := tm.waitText("cannot copy the image")
		flat := strings.Join(strings.Fields(bottom(s, 9)), " ")
		want := "copy the file's path instead (esc dismisses)"
		if !strings.Contains(flat, want) {
			t.Fatalf("%d columns: the notice does not end with %q:\n%s", w, want, frame(s))
		}
		tm.close()
	}
}
