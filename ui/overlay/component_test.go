package overlay

import (
	"errors"
	"strings"
	"testing"

	tea "charm.land/bubbletea/v2"

	"parley/api"
	"parley/ui/uictx"
)

// Every overlay of the package is a uictx.Component itself: the holder
// needs no type around it.
var (
	_ uictx.Component = (*Help)(nil)
	_ uictx.Component = (*Picker)(nil)
	_ uictx.Component = (*Setup)(nil)
)

// pickFor is a purpose the holder gives a picker.
type pickFor struct{ n int }

// A picker's results carry what it was opened for, and a key that only
// moves or filters asks nothing.
func TestPickerResultsCarryThePurpose(t *testing.T) {
	ctx := testCtx(t, 80, 24)
	p := NewPicker(ctx, []PickerItem{{Value: "a"}, {Value: "b"}}, PickerOptions{Title: "T", For: pickFor{7}})
	p.SetSize(80, 24)
	if _, act := p.Update(press("down")); act != nil {
		t.Fatalf("down asked for %#v", act)
	}
	_, act := p.Update(press("enter"))
	res, ok := act.(PickerResult)
	if !ok || res.Action != PickerChoose || res.Item.Value != "b" || res.For != (pickFor{7}) {
		t.Fatalf("enter: %#v", act)
	}
	_, act = p.Update(press("esc"))
	if res, ok := act.(PickerResult); !ok || res.Action != PickerCancel || res.For != (pickFor{7}) {
		t.Fatalf("esc: %#v", act)
	}
	hints := p.Hints()
	if len(hints) != 4 || hints[1].Key != "↑/↓" || hints[3].Key != "esc" {
		t.Fatalf("hints %+v", hints)
	}
}

// A model picker takes the gateway's list asked for it (and not an
// earlier picker's), shows it, and hands it on as its action; a failed
// list is said in the picker.
func TestModelPickerTakesItsList(t *testing.T) {
	ctx := testCtx(t, 100, 30)
	p := NewModelPicker(ctx, ModelList{Catalog: testCatalog(), Current: "gpt-4o", Asked: 3}, pickFor{1})
	p.SetSize(100, 30)
	p.SetLoading(ModelsLoading)
	listed := ModelsListed{Asked: 3, Models: []string{"gpt-4o", "qwen2"}, Prices: map[string]api.Price{}}
	if _, act := p.Update(ModelsListed{Asked: 2, Models: []string{"old-one"}}); act != nil || strings.Contains(plain(p.View()), "old-one") {
		t.Fatalf("an earlier picker's list was taken: %#v\n%s", act, plain(p.View()))
	}
	_, act := p.Update(listed)
	got, ok := act.(ModelsListed)
	if !ok || got.Asked != 3 || len(got.Models) != 2 {
		t.Fatalf("the list's action: %#v", act)
	}
	view := plain(p.View())
	if !strings.Contains(view, "qwen2") || strings.Contains(view, "asking the gateway") {
		t.Fatalf("the list is not shown:\n%s", view)
	}
	// The chat's model picker leaves image-only models out.
	if strings.Contains(view, "gpt-image-1") || strings.Contains(view, "dall-e-3") {
		t.Fatalf("the chat's model picker lists an image model:\n%s", view)
	}
	// A failed list is said in the picker and handed on, worded, for the
	// notices to keep whole.
	if _, act := p.Update(ModelsListed{Asked: 3, Err: errors.New("401 Unauthorized")}); act == nil || act.(ModelsListed).Err == nil ||
		act.(ModelsListed).Err.Error() != "the gateway's model list is not available: 401 Unauthorized" {
		t.Fatalf("a failed list asked for %#v", act)
	}
	if view := plain(p.View()); !strings.Contains(view, "the gateway's model list is not available: 401 Unauthorized") {
		t.Fatalf("the failure is not said:\n%s", view)
	}
}

// An image model picker lists only the models that can do what it is
// for, with the gateway's list too.
func TestImageModelPickerListsOnlyThoseThatCan(t *testing.T) {
	ctx := testCtx(t, 100, 30)
	p := NewModelPicker(ctx, ModelList{Catalog: testCatalog(), Can: api.CapImageEdit, Asked: 1}, nil)
	p.SetSize(100, 30)
	p.Update(ModelsListed{Asked: 1, Models: []string{"gpt-4o", "dall-e-2"}})
	var got []string
	for _, it := range p.Items() {
		got = append(got, it.Value)
	}
	if strings.Join(got, ",") != "gpt-image-1,dall-e-2" {
		t.Fatalf("the image edit picker lists %v", got)
	}
}

// The setup screen takes every key, draws its whole area and asks for
// what the user chose as a SetupResult.
func TestSetupAsAComponent(t *testing.T) {
	s := newSetup(t, 80, 24, []Candidate{{Name: "none"}})
	if !s.Binds(press("f1")) || s.Hints() != nil {
		t.Fatal("the setup screen does not take every key, or lists hints it draws itself")
	}
	box, x, y := s.Draw()
	requireArea(t, box, 80, 24)
	if x != 0 || y != 0 {
		t.Fatalf("drawn at %d,%d", x, y)
	}
	cmd := s.Start()
	if !s.Probing() {
		t.Fatal("Start did not start the probes")
	}
	if _, act := s.Update(runCmd(t, cmd)); act != nil || s.Probing() {
		t.Fatalf("the probe's answer: %#v, probing %v", act, s.Probing())
	}
	if _, act := s.Update(press("down")); act != nil {
		t.Fatalf("down asked for %#v", act)
	}
	if _, act := s.Update(press("ctrl+q")); act != (SetupResult{Action: SetupQuit}) {
		t.Fatalf("ctrl+q: %#v", act)
	}
	if _, act := s.Update(tea.MouseWheelMsg{Button: tea.MouseWheelDown}); act != nil {
		t.Fatalf("the wheel asked for %#v", act)
	}
}
