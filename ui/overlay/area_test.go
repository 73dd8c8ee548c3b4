package overlay

import (
	"errors"
	"math/rand/v2"
	"testing"
)

// TestEveryOverlayFillsItsArea renders every overlay in several states at
// many sizes, tiny ones included: exactly the area, never a panic.
func TestEveryOverlayFillsItsArea(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	sizes := [][2]int{{0, 0}, {1, 1}, {2, 2}, {3, 3}, {5, 2}, {12, 4}, {20, 6}, {39, 11}, {40, 12}, {80, 24}, {300, 100}}
	for range 15 {
		sizes = append(sizes, [2]int{rng.IntN(160), rng.IntN(60)})
	}
	cands := DefaultCandidates()
	for _, sz := range sizes {
		w, h := sz[0], sz[1]
		ctx := testCtx(t, w, h)
		var views []string

		hp := NewHelp(ctx, ctx.Keys.Groups())
		hp.SetSize(w, h)
		views = append(views, hp.View())
		hp, _ = hp.update(press("end"))
		views = append(views, hp.View())

		mp := modelPickerOn(ctx, testCatalog(), "gpt-4o", "")
		mp.SetSize(w, h)
		mp.SetLoading(ModelsLoading)
		views = append(views, mp.View())
		mp.SetItems(ModelItems(testCatalog(), "gpt-4o", "", manyModels()[:50]))
		mp, _ = mp.update(press("end"))
		views = append(views, mp.View())
		mp.SetError(errors.New("a long error message from the gateway that needs more than one line to say what went wrong, and then some more words"))
		mp = typed(mp, "zzz")
		views = append(views, mp.View())

		st := NewSetup(ctx, SetupOptions{ConfigPath: "/a/very/long/path/that/goes/on/and/on/parley/config.toml"})
		st.SetSize(w, h)
		views = append(views, st.View())
		st, _ = st.start()
		views = append(views, st.View())
		found, _, _ := st.update(ProbedMsg{Gen: 1, Results: []ProbeResult{
			{Candidate: cands[0], Status: ProbeFound, Models: []string{"a", "b"}},
			{Candidate: cands[1], Status: ProbeFound},
			{Candidate: cands[2], Status: ProbeInvalid, Reason: "answered 500 Internal Server Error"},
		}})
		views = append(views, found.View())
		found, _, _ = keysSetup(t, found, "pgdown")
		views = append(views, found.View())
		found, _, _ = keysSetup(t, found, "esc", "m")
		views = append(views, found.View())

		if w == 0 || h == 0 {
			continue // nothing to draw; not panicking is the test
		}
		for i, v := range views {
			t.Run("", func(t *testing.T) {
				defer func() {
					if t.Failed() {
						t.Logf("size %dx%d, view %d", w, h, i)
					}
				}()
				requireArea(t, v, w, h)
			})
		}
	}
}
