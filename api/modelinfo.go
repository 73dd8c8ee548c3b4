package api

import (
	"bytes"
	"cmp"
	"context"
	"encoding/json"
	"fmt"
	"slices"
	"strings"
)

// ModelInfo is one model of the gateway's list with what the list says it
// takes and makes. Input and Output are modalities in lower case ("text",
// "image"); nil when the gateway says nothing of them, which is not the
// same as a model that takes text only (["text"]).
type ModelInfo struct {
	ID     string   `json:"id"`
	Input  []string `json:"input,omitempty"`
	Output []string `json:"output,omitempty"`
	// Tools says whether the model takes tools, where the list says
	// (OpenRouter's supported_parameters, Ollama's capabilities).
	Tools *bool `json:"tools,omitempty"`
}

// Said reports whether the gateway said what the model takes.
func (m ModelInfo) Said() bool { return m.Input != nil }

// TakesImages reports whether the gateway lists image input.
func (m ModelInfo) TakesImages() bool { return slices.Contains(m.Input, "image") }

// MakesImages reports whether the gateway lists image output.
func (m ModelInfo) MakesImages() bool { return slices.Contains(m.Output, "image") }

// ListModelInfo asks GET /models for the models the gateway offers, in its
// order, with what each takes and makes where the list says so, in any of
// the shapes real gateways use: OpenRouter's architecture.input_modalities
// and output_modalities (or architecture.modality, "text+image->text"),
// input_modalities and output_modalities at the top level or under
// "modalities", Ollama's capabilities (["completion","vision"]), LM
// Studio's type ("vlm"), LiteLLM's supports_vision. When no model of the
// list says anything, LiteLLM's GET /model/info is asked as well, and a
// gateway without it answers nothing more. Besides OpenAI's
// {"data":[{"id":...}]} the list may be a bare array of such objects or
// {"models":[...]} with "id", "name" or "model".
func (c *Client) ListModelInfo(ctx context.Context) ([]ModelInfo, error) {
	list, _, err := c.ListModelCatalog(ctx)
	return list, err
}

// ListModelCatalog is ListModelInfo with the prices the same list gives
// (OpenRouter's pricing; see ModelPrices), read from the one response.
func (c *Client) ListModelCatalog(ctx context.Context) ([]ModelInfo, map[string]Price, error) {
	data, err := c.modelList(ctx)
	if err != nil {
		return nil, nil, err
	}
	list, err := parseModelList(data)
	if err != nil {
		return nil, nil, fmt.Errorf("the gateway's model list is not valid JSON (%w): check the base URL %s", err, c.baseStr)
	}
	if len(list) > 0 && !slices.ContainsFunc(list, ModelInfo.Said) {
		c.addLiteLLMInfo(ctx, list)
	}
	return list, ModelPrices(data), nil
}

// listModels reads GET /models.
func (c *Client) listModels(ctx context.Context) ([]ModelInfo, error) {
	data, err := c.modelList(ctx)
	if err != nil {
		return nil, err
	}
	list, err := parseModelList(data)
	if err != nil {
		return nil, fmt.Errorf("the gateway's model list is not valid JSON (%w): check the base URL %s", err, c.baseStr)
	}
	return list, nil
}

// modelList is the body of GET /models, within maxModelsReply.
func (c *Client) modelList(ctx context.Context) ([]byte, error) {
	return c.roundTrip(ctx, &apiRequest{
		method:      "GET",
		url:         c.endpoint("/models"),
		accept:      "application/json",
		credentials: true,
	}, maxModelsReply)
}

// modelEntry is every field of a model list's entry that says what the
// model is or does.
type modelEntry struct {
	ID           string          `json:"id"`
	Name         string          `json:"name"`
	Model        string          `json:"model"`
	ModelName    string          `json:"model_name"` // LiteLLM's /model/info
	Type         string          `json:"type"`       // LM Studio: "llm", "vlm", "embeddings"
	Architecture json.RawMessage `json:"architecture"`
	Input        json.RawMessage `json:"input_modalities"`
	Output       json.RawMessage `json:"output_modalities"`
	Modalities   json.RawMessage `json:"modalities"`
	Capabilities json.RawMessage `json:"capabilities"`
	Vision       *bool           `json:"supports_vision"`
	Parameters   []string        `json:"supported_parameters"` // OpenRouter
	ModelInfo    *struct {
		Vision *bool `json:"supports_vision"`
	} `json:"model_info"`
}

func parseModelList(data []byte) ([]ModelInfo, error) {
	var list []modelEntry
	var err error
	data = bytes.TrimSpace(data)
	if len(data) > 0 && data[0] == '[' {
		err = json.Unmarshal(data, &list)
	} else {
		var reply struct {
			Data   []modelEntry `json:"data"`
			Models []modelEntry `json:"models"`
		}
		err = json.Unmarshal(data, &reply)
		list = append(reply.Data, reply.Models...)
	}
	if err != nil {
		return nil, err
	}
	out := make([]ModelInfo, 0, len(list))
	for _, e := range list {
		if id := cmp.Or(e.ID, e.Name, e.Model, e.ModelName); id != "" {
			in, outm := e.modalities()
			out = append(out, ModelInfo{ID: id, Input: in, Output: outm, Tools: e.tools()})
		}
	}
	return out, nil
}

// modalities reads what the entry says it takes and makes, the most
// explicit statement first.
func (e modelEntry) modalities() (in, out []string) {
	var arch struct {
		Input    json.RawMessage `json:"input_modalities"`
		Output   json.RawMessage `json:"output_modalities"`
		Modality string          `json:"modality"`
	}
	_ = json.Unmarshal(e.Architecture, &arch)
	var mods struct {
		Input  json.RawMessage `json:"input"`
		Output json.RawMessage `json:"output"`
	}
	_ = json.Unmarshal(e.Modalities, &mods)
	in = firstList(arch.Input, e.Input, mods.Input)
	out = firstList(arch.Output, e.Output, mods.Output)
	if in == nil {
		in = stringList(e.Modalities) // "modalities": ["text","image"]: what it takes
	}
	if in == nil && arch.Modality != "" {
		// "text+image->text"
		from, to, _ := strings.Cut(strings.ToLower(arch.Modality), "->")
		in = splitModalities(from)
		if out == nil {
			out = splitModalities(to)
		}
	}
	if in == nil {
		in = capabilityInput(e)
	}
	return in, out
}

// capabilityInput reads the flags some gateways give instead of
// modalities: Ollama's capabilities list, LM Studio's type, LiteLLM's
// supports_vision; nil when there are none.
func capabilityInput(e modelEntry) []string {
	vision := e.Vision
	if vision == nil && e.ModelInfo != nil {
		vision = e.ModelInfo.Vision
	}
	if caps := stringList(e.Capabilities); caps != nil {
		v := slices.Contains(caps, "vision") || slices.Contains(caps, "image")
		vision = &v
	} else {
		var flags struct {
			Vision *bool `json:"vision"`
		}
		if json.Unmarshal(e.Capabilities, &flags) == nil && flags.Vision != nil {
			vision = flags.Vision
		}
	}
	switch strings.ToLower(e.Type) {
	case "vlm":
		v := true
		vision = &v
	case "llm":
		if vision == nil {
			v := false
			vision = &v
		}
	}
	switch {
	case vision == nil:
		return nil
	case *vision:
		return []string{"text", "image"}
	}
	return []string{"text"}
}

// firstList is the first of raws that is a list of strings.
func firstList(raws ...json.RawMessage) []string {
	for _, r := range raws {
		if l := stringList(r); l != nil {
			return l
		}
	}
	return nil
}

// stringList reads a JSON list of strings in lower case; nil when raw is
// no such list.
func stringList(raw json.RawMessage) []string {
	var l []string
	if json.Unmarshal(raw, &l) != nil || l == nil {
		return nil
	}
	out := make([]string, 0, len(l))
	for _, s := range l {
		if s = strings.ToLower(strings.TrimSpace(s)); s != "" {
			out = append(out, s)
		}
	}
	return out
}

func splitModalities(s string) []string {
	var out []string
	for _, p := range strings.Split(s, "+") {
		if p = strings.TrimSpace(p); p != "" {
			out = append(out, p)
		}
	}
	return out
}

// addLiteLLMInfo asks LiteLLM's GET /model/info what the listed models
// take and fills in what it says. Any failure (a gateway that is not
// LiteLLM answers 404) leaves the list as it was: the list itself was
// read.
func (c *Client) addLiteLLMInfo(ctx context.Context, list []ModelInfo) {
	data, err := c.roundTrip(ctx, &apiRequest{
		method:      "GET",
		url:         c.endpoint("/model/info"),
		accept:      "application/json",
		credentials: true,
	}, maxModelsReply)
	if err != nil {
		return
	}
	infos, err := parseModelList(data)
	if err != nil {
		return
	}
	said := map[string][]string{}
	for _, in := range infos {
		if in.Said() && !slices.Contains(said[in.ID], "image") {
			said[in.ID] = in.Input
		}
	}
	for i := range list {
		if in, ok := said[list[i].ID]; ok {
			list[i].Input = in
		}
	}
}

// tools reads whether the entry says the model takes tools: OpenRouter
// lists "tools" among its supported_parameters, Ollama among its
// capabilities. nil when the entry says nothing of it.
func (e modelEntry) tools() *bool {
	var said []string
	switch {
	case len(e.Parameters) > 0:
		said = e.Parameters
	case len(e.Capabilities) > 0 && e.Capabilities[0] == '[':
		said = stringList(e.Capabilities)
	default:
		return nil
	}
	takes := slices.Contains(said, "tools")
	return &takes
}
