package overlay

import (
	"errors"
	"fmt"
	"testing"

	"github.com/charmbracelet/colorprofile"
	"github.com/charmbracelet/x/exp/golden"

	"parley/themes"
)

// goldenStates renders every overlay state worth pinning at one size.
func goldenStates(t *testing.T, theme string, noColor bool, w, h int) map[string]string {
	t.Helper()
	ctx := themedCtx(t, w, h, theme, noColor)
	out := map[string]string{}

	hp := NewHelp(ctx, ctx.Keys.Groups())
	hp.SetSize(w, h)
	out["help"] = hp.View()

	mp := modelPickerOn(ctx, testCatalog(), "gpt-4o", "")
	mp.SetSize(w, h)
	mp.SetLoading(ModelsLoading)
	out["models-loading"] = mp.View()
	mp.SetItems(ModelItems(testCatalog(), "gpt-4o", "", []string{"gpt-4.1", "llava-13b", "evil\x1b]52;c;aGVsbG8=\x07"}))
	mp = typed(mp, "gi")
	mp, _ = mp.update(press("down"))
	out["models-filtered"] = mp.View()
	mp.SetError(errors.New("the gateway's model list is not available: 401 Unauthorized"))
	out["models-error"] = mp.View()

	tp := NewThemePicker(ctx, themes.Builtins(), "dark", nil)
	tp.SetSize(w, h)
	tp, _ = tp.update(press("down"))
	out["themes"] = tp.View()

	cands := DefaultCandidates()
	st := NewSetup(ctx, SetupOptions{ConfigPath: "/home/ada/.config/parley/config.toml"})
	st.SetSize(w, h)
	st, _ = st.start()
	out["setup-probing"] = st.View()
	found, _, _ := st.update(ProbedMsg{Gen: 1, Results: []ProbeResult{
		{Candidate: cands[0], Status: ProbeFound, Models: []string{"llama3.2:latest", "qwen2.5-coder:7b", "gemma3"}},
		{Candidate: cands[1], Status: ProbeDown, Reason: "not running"},
		{Candidate: cands[2], Status: ProbeInvalid, Reason: "answered 404 Not Found"},
	}})
	out["setup-found"] = found.View()
	none, _, _ := st.update(ProbedMsg{Gen: 1, Results: []ProbeResult{
		{Candidate: cands[0], Status: ProbeDown, Reason: "not running"},
		{Candidate: cands[1], Status: ProbeDown, Reason: "not running"},
		{Candidate: cands[2], Status: ProbeDown, Reason: "not running"},
	}})
	out["setup-none"] = none.View()
	return out
}

// TestGolden pins the rendered overlays at 80x24 and 40x12 for the dark
// theme (true colour), the light theme (256 colours) and NO_COLOR. Run with
// -update to rewrite testdata after an intended change.
func TestGolden(t *testing.T) {
	variants := []struct {
		name    string
		theme   string
		noColor bool
		profile colorprofile.Profile
	}{
		{"dark", themes.Dark, false, colorprofile.TrueColor},
		{"light", themes.Light, false, colorprofile.ANSI256},
		{"nocolor", themes.Dark, true, colorprofile.Ascii},
	}
	for _, v := range variants {
		for _, sz := range [][2]int{{80, 24}, {40, 12}} {
			states := goldenStates(t, v.theme, v.noColor, sz[0], sz[1])
			for _, name := range []string{"help", "models-loading", "models-filtered", "models-error", "themes", "setup-probing", "setup-found", "setup-none"} {
				t.Run(fmt.Sprintf("%s/%s/%dx%d", v.name, name, sz[0], sz[1]), func(t *testing.T) {
					view := states[name]
					requireArea(t, view, sz[0], sz[1])
					golden.RequireEqual(t, pinned(t, view, v.profile))
				})
			}
		}
	}
}
