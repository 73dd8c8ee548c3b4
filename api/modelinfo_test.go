package api

import (
	"context"
	"net/http"
	"net/http/httptest"
	"slices"
	"strings"
	"testing"

	"parley/api/apitest"
)

// TestModelListShapes reads what real gateways' model lists say a model
// takes and makes.
func TestModelListShapes(t *testing.T) {
	cases := []struct {
		name, body string
		said       bool
		vision     bool
		makes      bool
	}{
		{"openrouter", `{"data":[{"id":"x","architecture":{"modality":"text+image->text+image","input_modalities":["text","image","file"],"output_modalities":["image","text"]}}]}`, true, true, true},
		{"openrouter text only", `{"data":[{"id":"x","architecture":{"input_modalities":["text"],"output_modalities":["text"]}}]}`, true, false, false},
		{"modality string", `{"data":[{"id":"x","architecture":{"modality":"text+image->text"}}]}`, true, true, false},
		{"top level", `{"data":[{"id":"x","input_modalities":["TEXT","Image"]}]}`, true, true, false},
		{"modalities object", `{"data":[{"id":"x","modalities":{"input":["text","image"],"output":["text"]}}]}`, true, true, false},
		{"modalities list", `[{"id":"x","modalities":["text","image"]}]`, true, true, false},
		{"ollama", `{"models":[{"name":"x","model":"x","capabilities":["completion","vision"]}]}`, true, true, false},
		{"ollama text", `{"models":[{"name":"x","capabilities":["completion","tools"]}]}`, true, false, false},
		{"capabilities object", `{"data":[{"id":"x","capabilities":{"vision":true}}]}`, true, true, false},
		{"lm studio", `{"data":[{"id":"x","type":"vlm"}]}`, true, true, false},
		{"lm studio text", `{"data":[{"id":"x","type":"llm"}]}`, true, false, false},
		{"litellm flag", `{"data":[{"id":"x","supports_vision":true}]}`, true, true, false},
		{"openai", `{"data":[{"id":"x","object":"model","owned_by":"openai"}]}`, false, false, false},
		{"odd fields", `{"data":[{"id":"x","architecture":"weird","capabilities":7,"modalities":null}]}`, false, false, false},
	}
	for _, tc := range cases {
		list, err := parseModelList([]byte(tc.body))
		if err != nil || len(list) != 1 || list[0].ID != "x" {
			t.Fatalf("%s: %+v, %v", tc.name, list, err)
		}
		m := list[0]
		if m.Said() != tc.said || m.TakesImages() != tc.vision || m.MakesImages() != tc.makes {
			t.Fatalf("%s: said %v vision %v makes %v, want %v %v %v", tc.name, m.Said(), m.TakesImages(), m.MakesImages(), tc.said, tc.vision, tc.makes)
		}
	}
}

// TestCatalogGatewayWord: a model the config does not know but the
// gateway lists with image input takes images; one the gateway lists as
// text only is refused with the sentence of any model without vision; the
// config's word wins over the gateway's.
func TestCatalogGatewayWord(t *testing.T) {
	gw := apitest.New(t, apitest.WithModels(
		apitest.ModelSpec{ID: "seer", Vision: true, Modalities: true},
		apitest.ModelSpec{ID: "painter", Vision: true, ImageOutput: true, Modalities: true},
		apitest.ModelSpec{ID: "gpt-4o", Modalities: true}, // text only, whatever its name says
		apitest.ModelSpec{ID: "blind"},
	))
	c := newTestClient(t, gw)
	infos, err := c.ListModelInfo(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	cat := NewCatalog([]Model{{Name: "painter", Caps: Capabilities{}, Declared: []Capability{CapVision}}}).WithGateway(infos).WithListed(ModelIDs(infos))
	if err := cat.Require("seer", CapVision); err != nil {
		t.Fatalf("seer, listed with image input, refused: %v", err)
	}
	if m := cat.Lookup("seer"); m.Source != SourceGateway {
		t.Fatalf("seer's source %q", m.Source)
	}
	before := NewCatalog(nil).Require("unknown-model", CapVision).Error()
	err = cat.Require("gpt-4o", CapVision)
	if err == nil {
		t.Fatal("gpt-4o, listed as text only, takes images")
	}
	if want := strings.ReplaceAll(before, "unknown-model", "gpt-4o"); !strings.HasPrefix(err.Error(), want[:strings.Index(want, ";")]) {
		t.Fatalf("refusal %q, want it to start like %q", err, want)
	}
	if err := cat.Require("painter", CapVision); err == nil {
		t.Fatal("the config's vision = false lost to the gateway's list")
	}
	if !cat.Lookup("painter").Caps.ImageOutput {
		t.Fatal("painter's image output, listed by the gateway and not declared, was not taken")
	}
	if m := cat.Lookup("blind"); m.Source != SourceDefault || m.Caps.Vision {
		t.Fatalf("a model the list says nothing of: %+v", m)
	}
	if !slices.Contains(cat.ModelsWith(CapVision), "seer") {
		t.Fatalf("refusals do not name seer among the models with vision: %v", cat.ModelsWith(CapVision))
	}
}

// TestListModelInfoLiteLLM asks LiteLLM's /model/info when the list says
// nothing, and a gateway without it costs one 404 and nothing else.
func TestListModelInfoLiteLLM(t *testing.T) {
	var infoAsked int
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		switch r.URL.Path {
		case "/v1/models":
			w.Write([]byte(`{"data":[{"id":"gpt-4o-proxy","object":"model"},{"id":"local-llm","object":"model"}]}`))
		case "/v1/model/info":
			infoAsked++
			w.Write([]byte(`{"data":[{"model_name":"gpt-4o-proxy","model_info":{"supports_vision":true,"mode":"chat"}},{"model_name":"local-llm","model_info":{"supports_vision":false}}]}`))
		default:
			http.NotFound(w, r)
		}
	}))
	t.Cleanup(srv.Close)
	c, err := NewClient(ClientConfig{BaseURL: srv.URL + "/v1", APIKey: "k"})
	if err != nil {
		t.Fatal(err)
	}
	infos, err := c.ListModelInfo(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	if infoAsked != 1 || len(infos) != 2 || !infos[0].TakesImages() || !infos[1].Said() || infos[1].TakesImages() {
		t.Fatalf("asked /model/info %d times, read %+v", infoAsked, infos)
	}

	gw := apitest.New(t)
	plain := newTestClient(t, gw)
	infos, err = plain.ListModelInfo(context.Background())
	if err != nil || len(infos) == 0 || slices.ContainsFunc(infos, ModelInfo.Said) {
		t.Fatalf("a gateway without /model/info: %+v, %v", infos, err)
	}
}

// The gateway's list says which models take tools (OpenRouter's
// supported_parameters, Ollama's capabilities): a model it says takes none
// is sent none, unless the config says tools = true; a list that says
// nothing of tools changes nothing.
func TestCatalogGatewayWordOnTools(t *testing.T) {
	list := `{"data":[
	{"id":"caller","supported_parameters":["temperature","tools","tool_choice"]},
	{"id":"plain","supported_parameters":["temperature","max_tokens"]},
	{"id":"forced","supported_parameters":["temperature"]},
	{"id":"llama3.2","capabilities":["completion","tools"]},
	{"id":"quiet"}]}`
	infos, err := parseModelList([]byte(list))
	if err != nil {
		t.Fatal(err)
	}
	cat := NewCatalog([]Model{{Name: "forced", Source: SourceConfig, Declared: []Capability{CapTools}}}).WithGateway(infos).WithPrices(map[string]Price{"caller": {Input: 1, Output: 2}})
	for model, noTools := range map[string]bool{"caller": false, "plain": true, "forced": false, "llama3.2": false, "quiet": false} {
		if got := cat.Lookup(model).Caps.NoTools; got != noTools {
			t.Errorf("%s: NoTools %v, want %v", model, got, noTools)
		}
	}
	if p := cat.WithGateway(infos).Price("caller"); p == nil {
		t.Error("taking the gateway's word again lost the list's prices")
	}
}
