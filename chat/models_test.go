package chat

import (
	"context"
	"errors"
	"image"
	"slices"
	"testing"

	"parley/api"
	"parley/api/apitest"
	"parley/conversation"
	"parley/media/mediatest"
)

// The engine holds the model of the next turn and what is known of the
// models: a change is reported, and the gateway's list, once read, joins
// the catalog without losing the config's models or its path.
func TestTheEngineKnowsItsModels(t *testing.T) {
	cat := api.NewCatalog([]api.Model{{Name: "mine", Caps: api.Capabilities{Vision: true}}}).WithConfigPath("~/.config/parley/config.toml")
	e := New(context.Background(), Options{Model: "mine", Catalog: cat})
	if e.Model() != "mine" || e.Listed() != nil {
		t.Fatalf("model %q, listed %v", e.Model(), e.Listed())
	}
	if e.SetModel("mine") {
		t.Error("choosing the model in use reported a change")
	}
	if !e.SetModel("other") || e.Model() != "other" {
		t.Errorf("model %q after choosing other", e.Model())
	}
	e.SetListed([]string{"gpt-image-1", "other"})
	if !slices.Equal(e.Listed(), []string{"gpt-image-1", "other"}) {
		t.Errorf("listed %v", e.Listed())
	}
	got := e.Catalog()
	if got.ConfigPath() != "~/.config/parley/config.toml" || len(got.Configured()) != 1 || !got.Lookup("mine").Caps.Vision {
		t.Errorf("the config's models were lost: %+v at %q", got.Configured(), got.ConfigPath())
	}
	if !slices.Contains(got.ModelsWith(api.CapImageGeneration), "gpt-image-1") {
		t.Errorf("the listed image model is not known: %v", got.ModelsWith(api.CapImageGeneration))
	}
	if New(context.Background(), Options{}).Catalog() == nil {
		t.Error("an engine made without a catalog has none")
	}
}

// A turn refused because its model cannot see the images of earlier
// messages is said once; the next turn to that model goes without them,
// and a turn that starts (or a new conversation) forgets it.
func TestTheNextTurnGoesWithoutImagesAModelCannotSee(t *testing.T) {
	c := newClock()
	e, gw := newEngine(t, c, Options{Catalog: api.NewCatalog(nil), MaxHistory: 7})
	data := mediatest.PNG(t, image.NewRGBA(image.Rect(0, 0, 2, 2)))
	img := api.Attachment{Name: "a.png", MIME: "image/png", Data: data, Bytes: len(data), Width: 2, Height: 2}
	gw.Enqueue(apitest.Reply{Text: "a dot"})
	r, err := e.Begin(&conversation.UserInput{Text: "what is it?", Attachments: []api.Attachment{img}}, e.TurnOptions("gpt-4o"))
	if err != nil {
		t.Fatal(err)
	}
	r.Run(0)
	if end, over := e.Drain(); !over || end.Err != nil {
		t.Fatalf("the first turn: %+v", end)
	}
	if _, err := e.Clients().Get("llama3"); err != nil {
		t.Fatal(err)
	}
	o := e.TurnOptions("llama3")
	if o.WithoutImages || o.MaxHistory != 7 || o.Model != "llama3" {
		t.Fatalf("first options %+v", o)
	}
	_, err = e.Begin(ask("and now?"), o)
	var ve *conversation.VisionError
	if !errors.As(err, &ve) || !ve.Earlier {
		t.Fatalf("earlier image to llama3: %v", err)
	}
	if !e.TurnOptions("llama3").WithoutImages || e.TurnOptions("gpt-4o").WithoutImages {
		t.Fatal("after the refusal, only llama3's next turn goes without the images")
	}
	gw.Enqueue(apitest.Reply{Text: "a dot still"})
	r, err = e.Begin(ask("and now?"), e.TurnOptions("llama3"))
	if err != nil || r.Turn.Built.HasImages {
		t.Fatalf("without images: %v", err)
	}
	if e.TurnOptions("llama3").WithoutImages {
		t.Error("a turn that started still leaves the images out of the next one")
	}
	e.Stop()
	e.withoutImages = "llama3"
	e.Replace(e.Fresh())
	if e.TurnOptions("llama3").WithoutImages {
		t.Error("a new conversation inherited the choice")
	}
}

// The run's parameters come from the layers the engine was given, merged
// lowest first.
func TestTurnOptionsCarryTheRunsParameters(t *testing.T) {
	temp := 0.2
	e := New(context.Background(), Options{ParamLayers: func(model string, _ *conversation.Conversation) []api.ParamLayer {
		if model != "m" {
			return nil
		}
		return []api.ParamLayer{api.ChatParamLayer(api.Params{Temperature: &temp})}
	}})
	if p := e.TurnOptions("m").Params; p.Temperature == nil || *p.Temperature != 0.2 {
		t.Errorf("params %+v", p)
	}
	if p := e.TurnOptions("other").Params; p.Temperature != nil {
		t.Errorf("another model got %+v", p)
	}
}
