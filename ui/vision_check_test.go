package ui

import (
	"strings"
	"testing"

	"parley/api"
	"parley/api/apitest"
	"parley/conversation"
)

// gatewayHarness is a chat with model against a gateway that lists
// models with what they take.
func gatewayHarness(t *testing.T, model string, models ...apitest.ModelSpec) (*harness, *apitest.Server) {
	t.Helper()
	gw := apitest.New(t, apitest.WithModels(models...))
	h := newHarness(t, 120, 40, func(o *Options) {
		o.Model = model
		o.NewClient = func(string) (*api.Client, error) {
			return api.NewClient(api.ClientConfig{BaseURL: gw.URL(), APIKey: apitest.DefaultAPIKey})
		}
	})
	return h, gw
}

// TestAModelTheGatewayListsWithVisionTakesImages: a model neither
// configured nor known by name is sent the images attached for it when
// the gateway's list says it takes images; the list is asked once, when
// the first image is attached, and no warning is shown.
func TestAModelTheGatewayListsWithVisionTakesImages(t *testing.T) {
	h, gw := gatewayHarness(t, "seer-1",
		apitest.ModelSpec{ID: "seer-1", Vision: true, Modalities: true},
		apitest.ModelSpec{ID: "plain-1", Modalities: true})
	h.typeText("/attach " + pngFile(t, t.TempDir(), 40, 30))
	h.key("enter")
	h.wait("the gateway's answer", func() bool { return arrived[modelCheckedMsg](h) > 0 })
	if scr := h.screen(); strings.Contains(scr, "cannot see images") {
		t.Fatalf("a model the gateway lists with image input was warned about:\n%s", scr)
	}
	h.typeText("what is this?")
	h.key("enter")
	h.wait("the reply", func() bool {
		c := h.eng.Conv()
		return c.Len() == 2 && c.At(1).State == conversation.StateDone
	})
	chats := gw.RequestsTo("/chat/completions")
	if len(chats) != 1 || len(chats[0].Chat.Messages[len(chats[0].Chat.Messages)-1].Content.ImageURLs()) != 1 {
		t.Fatalf("the image was not sent (%d chat requests)", len(chats))
	}
	if n := len(gw.RequestsTo("/models")); n != 1 {
		t.Fatalf("the list was asked %d times, want once", n)
	}
}

// TestAModelTheGatewayListsAsTextOnlyIsWarned: the gateway's list says the
// model takes text alone: the usual refusal, once the answer is in.
func TestAModelTheGatewayListsAsTextOnlyIsWarned(t *testing.T) {
	h, _ := gatewayHarness(t, "plain-1",
		apitest.ModelSpec{ID: "seer-1", Vision: true, Modalities: true},
		apitest.ModelSpec{ID: "plain-1", Modalities: true})
	h.typeText("/attach " + pngFile(t, t.TempDir(), 40, 30))
	h.key("enter")
	h.wait("the refusal", func() bool {
		scr := strings.Join(strings.Fields(h.screen()), " ")
		return strings.Contains(scr, `model "plain-1" cannot see images`) && strings.Contains(scr, "seer-1")
	})
}
