package api

import (
	"context"
	"encoding/json"
	"errors"
	"reflect"
	"strings"
	"testing"

	"parley/api/apitest"
)

func TestParseParamAccepts(t *testing.T) {
	f := func(v float64) *float64 { return &v }
	i := func(v int) *int { return &v }
	i64 := func(v int64) *int64 { return &v }
	for _, tt := range []struct {
		name, value string
		want        Params
	}{
		{"temperature", "0.7", Params{Temperature: f(0.7)}},
		{"temperature", " 2 ", Params{Temperature: f(2)}},
		{"temperature", "0", Params{Temperature: f(0)}},
		{"top_p", "1", Params{TopP: f(1)}},
		{"presence_penalty", "-2", Params{PresencePenalty: f(-2)}},
		{"frequency_penalty", "1.5", Params{FrequencyPenalty: f(1.5)}},
		{"max_tokens", "500", Params{MaxTokens: i(500)}},
		{"seed", "-42", Params{Seed: i64(-42)}},
		{"stop", "###", Params{Stop: []string{"###"}}},
		{"stop", " END", Params{Stop: []string{" END"}}},
		{"stop", `["\n\n", "###"]`, Params{Stop: []string{"\n\n", "###"}}},
		{"reasoning_effort", "High", Params{ReasoningEffort: "high"}},
		{"reasoning_effort", "minimal", Params{ReasoningEffort: "minimal"}},
	} {
		got, err := ParseParam(tt.name, tt.value)
		if err != nil || !reflect.DeepEqual(got, tt.want) {
			t.Errorf("ParseParam(%q, %q) = %+v, %v; want %+v", tt.name, tt.value, got, err, tt.want)
		}
	}
}

// Each refusal is one sentence naming the parameter and what it takes.
func TestParseParamRefuses(t *testing.T) {
	for _, tt := range []struct{ name, value, want string }{
		{"temperature", "3", "temperature must be a number from 0 to 2, not 3"},
		{"temperature", "-0.1", "temperature must be a number from 0 to 2, not -0.1"},
		{"temperature", "hot", `temperature must be a number from 0 to 2, not "hot"`},
		{"temperature", "NaN", "temperature must be a number from 0 to 2, not NaN"},
		{"top_p", "1.01", "top_p must be a number from 0 to 1, not 1.01"},
		{"presence_penalty", "2.5", "presence_penalty must be a number from -2 to 2, not 2.5"},
		{"frequency_penalty", "-3", "frequency_penalty must be a number from -2 to 2, not -3"},
		{"max_tokens", "0", "max_tokens must be a whole number of at least 1, not 0"},
		{"max_tokens", "1.5", `max_tokens must be a whole number of at least 1, not "1.5"`},
		{"seed", "1.5", `seed must be a whole number, not "1.5"`},
		{"stop", `["a","b","c","d","e"]`, "stop takes at most 4 strings, not 5"},
		{"stop", `[]`, "stop must hold at least one string; clear it instead to send none"},
		{"stop", `["a", ""]`, "stop must not hold an empty string: it would stop the reply before it starts"},
		{"stop", `["a", 1]`, `stop must be one string, or several written as ["a", "b"] (JSON), not "[\"a\", 1]"`},
		{"stop", "", "stop must not hold an empty string: it would stop the reply before it starts"},
		{"reasoning_effort", "extreme", `reasoning_effort must be one of minimal, low, medium or high, not "extreme"`},
		{"temprature", "1", `there is no parameter "temprature"; did you mean temperature? (parameters: temperature, top_p, max_tokens, seed, stop, presence_penalty, frequency_penalty, reasoning_effort)`},
		{"max_completion_tokens", "5", `there is no parameter max_completion_tokens to set: set max_tokens, and declare max_tokens_field = "max_completion_tokens" in the model's [[models]] entry when the model takes that name`},
	} {
		_, err := ParseParam(tt.name, tt.value)
		if err == nil || err.Error() != tt.want {
			t.Errorf("ParseParam(%q, %q): %v\nwant %s", tt.name, tt.value, err, tt.want)
		}
	}
	var unknown *UnknownParamError
	if _, err := ParseParam("top_k", "5"); !errors.As(err, &unknown) || unknown.Name != "top_k" {
		t.Fatalf("top_k: %v", err)
	}
}

// The config's typed values go through the same checks.
func TestParamFromTyped(t *testing.T) {
	p, err := ParamFrom("temperature", int64(1))
	if err != nil || *p.Temperature != 1 {
		t.Fatalf("int temperature: %+v %v", p, err)
	}
	if p, err = ParamFrom("max_tokens", int64(500)); err != nil || *p.MaxTokens != 500 {
		t.Fatalf("max_tokens: %+v %v", p, err)
	}
	if p, err = ParamFrom("stop", []any{"a", "b"}); err != nil || !reflect.DeepEqual(p.Stop, []string{"a", "b"}) {
		t.Fatalf("stop: %+v %v", p, err)
	}
	for _, tt := range []struct {
		name string
		v    any
		want string
	}{
		{"temperature", "0.7", `temperature must be a number from 0 to 2, not "0.7"`},
		{"max_tokens", 12.5, "max_tokens must be a whole number of at least 1, not 12.5"},
		{"seed", true, "seed must be a whole number, not true"},
		{"stop", []any{"a", int64(1)}, "stop must hold only strings, not 1"},
		{"reasoning_effort", int64(1), "reasoning_effort must be one of minimal, low, medium or high, not 1"},
	} {
		if _, err := ParamFrom(tt.name, tt.v); err == nil || err.Error() != tt.want {
			t.Errorf("ParamFrom(%q, %#v): %v\nwant %s", tt.name, tt.v, err, tt.want)
		}
	}
}

// What Value writes, ParseParam reads back to the same parameter.
func TestParamValueRoundTrip(t *testing.T) {
	values := map[string][]string{
		"temperature": {"0", "0.7", "2"}, "top_p": {"0.95"}, "presence_penalty": {"-1.25"},
		"frequency_penalty": {"2"}, "max_tokens": {"1", "4096"}, "seed": {"0", "-9007199254740993"},
		"stop":             {"###", " END", `["a","b"]`, `["\n"]`, `["[x"]`, `["say \"hi\""]`},
		"reasoning_effort": {"low"},
	}
	for name, vs := range values {
		for _, v := range vs {
			p, err := ParseParam(name, v)
			if err != nil {
				t.Fatalf("%s %q: %v", name, v, err)
			}
			text, ok := p.Value(name)
			if !ok {
				t.Fatalf("%s %q: not set", name, v)
			}
			back, err := ParseParam(name, text)
			if err != nil || !reflect.DeepEqual(back, p) {
				t.Fatalf("%s %q: wrote %q, read back %+v (%v), want %+v", name, v, text, back, err, p)
			}
			if names := p.Names(); len(names) != 1 || names[0] != name {
				t.Fatalf("%s: Names %v", name, names)
			}
		}
	}
}

func mustParam(t *testing.T, name, value string) Params {
	t.Helper()
	p, err := ParseParam(name, value)
	if err != nil {
		t.Fatal(err)
	}
	return p
}

// Layers merge lowest first, and each value says where it comes from.
func TestMergeParams(t *testing.T) {
	model := mustParam(t, "temperature", "0.2").With(mustParam(t, "max_tokens", "500")).With(mustParam(t, "stop", "###"))
	role := mustParam(t, "temperature", "0.9").With(mustParam(t, "top_p", "0.5"))
	chat := mustParam(t, "max_tokens", "100")
	run := mustParam(t, "seed", "7")
	merged, settings := MergeParams(
		ParamLayer{Source: "model m in the config", Clear: "remove %s from the params of model m in the config", Params: model},
		ParamLayer{Source: "role coder", Clear: "remove %s from the params of role coder", Params: role},
		ParamLayer{Source: "/set", Clear: "/set %s --clear", Params: chat},
		ParamLayer{Source: "--param", Params: run},
	)
	want := []ParamSetting{
		{Name: "temperature", Value: "0.9", Source: "role coder", Clear: "remove temperature from the params of role coder"},
		{Name: "top_p", Value: "0.5", Source: "role coder", Clear: "remove top_p from the params of role coder"},
		{Name: "max_tokens", Value: "100", Source: "/set", Clear: "/set max_tokens --clear"},
		{Name: "seed", Value: "7", Source: "--param"},
		{Name: "stop", Value: "###", Source: "model m in the config", Clear: "remove stop from the params of model m in the config"},
	}
	if !reflect.DeepEqual(settings, want) {
		t.Fatalf("settings\n%+v\nwant\n%+v", settings, want)
	}
	if *merged.Temperature != 0.9 || *merged.MaxTokens != 100 || *merged.Seed != 7 || *merged.TopP != 0.5 || merged.Stop[0] != "###" {
		t.Fatalf("merged %+v", merged)
	}
	// The merge copies: changing a layer later changes nothing merged.
	*chat.MaxTokens = 1
	model.Stop[0] = "changed"
	if *merged.MaxTokens != 100 || merged.Stop[0] != "###" {
		t.Fatalf("merged shares memory with a layer: %+v", merged)
	}
	if cleared := merged.Without("temperature"); cleared.Has("temperature") || !merged.Has("temperature") || !cleared.Has("seed") {
		t.Fatalf("Without: %+v", cleared)
	}
	if !(Params{}).IsZero() || merged.IsZero() {
		t.Fatal("IsZero")
	}
}

// Only what is set is sent; max_tokens goes under the model's name for it.
func TestChatRequestSendsOnlySetParams(t *testing.T) {
	gw := apitest.New(t)
	c := newTestClient(t, gw)
	req := ChatRequest{Model: "gpt-4o", Messages: []Message{TextMessage(RoleUser, "hi")}}
	if _, err := c.Chat(context.Background(), req); err != nil {
		t.Fatal(err)
	}
	req.Params = mustParam(t, "temperature", "0.7").With(mustParam(t, "max_tokens", "50")).
		With(mustParam(t, "stop", `["###","END"]`)).With(mustParam(t, "seed", "3")).With(mustParam(t, "reasoning_effort", "low"))
	if _, err := c.Chat(context.Background(), req); err != nil {
		t.Fatal(err)
	}
	req.MaxTokensField = MaxCompletionTokens
	if _, err := c.Chat(context.Background(), req); err != nil {
		t.Fatal(err)
	}
	reqs := gw.RequestsTo("/chat/completions")
	for _, k := range append(ParamNames(), MaxCompletionTokens) {
		if _, ok := reqs[0].JSON[k]; ok {
			t.Errorf("a request without params sent %s", k)
		}
	}
	second := reqs[1].Chat
	if *second.Temperature != 0.7 || *second.MaxTokens != 50 || second.MaxCompletionTokens != nil || *second.Seed != 3 ||
		strings.Join(second.Stop, ",") != "###,END" || second.ReasoningEffort != "low" {
		t.Fatalf("second request: %s", reqs[1].Body)
	}
	for _, k := range []string{"top_p", "presence_penalty", "frequency_penalty"} {
		if _, ok := reqs[1].JSON[k]; ok {
			t.Errorf("unset %s was sent", k)
		}
	}
	third := reqs[2].Chat
	if third.MaxTokens != nil || third.MaxCompletionTokens == nil || *third.MaxCompletionTokens != 50 {
		t.Fatalf("third request: %s", reqs[2].Body)
	}
}

// A gateway's 400 about a parameter names it and says how to stop
// sending it, from the source the request says it came from.
func TestRefusedParamHint(t *testing.T) {
	gw := apitest.New(t, apitest.WithModels(
		apitest.ModelSpec{ID: "fixed-temp", RejectParams: []string{"temperature"}},
		apitest.ModelSpec{ID: "o-model", MaxCompletionTokens: true},
		apitest.ModelSpec{ID: "plain"},
	))
	c := newTestClient(t, gw)
	params, sources := MergeParams(
		ParamLayer{Source: "model fixed-temp in the config", Clear: "remove %s from the params of model fixed-temp in the config", Params: mustParam(t, "max_tokens", "64")},
		ParamLayer{Source: "/set", Clear: "/set %s --clear", Params: mustParam(t, "temperature", "0.3")},
	)
	req := ChatRequest{Model: "fixed-temp", Messages: []Message{TextMessage(RoleUser, "hi")}, Params: params, ParamSources: sources}
	for _, stream := range []bool{false, true} {
		var err error
		if stream {
			_, err = c.ChatStream(context.Background(), req)
		} else {
			_, err = c.Chat(context.Background(), req)
		}
		var apiErr *APIError
		if !errors.As(err, &apiErr) || apiErr.RefusedParam() != "temperature" {
			t.Fatalf("stream %v: %v", stream, err)
		}
		want := "the gateway answered 400 Bad Request: Unsupported parameter: 'temperature' is not supported with this model (unsupported_parameter); the model refused temperature = 0.3 (from /set); /set temperature --clear to send it no more"
		if err.Error() != want {
			t.Fatalf("stream %v:\n got %s\nwant %s", stream, err, want)
		}
	}

	req.Model = "o-model"
	_, err := c.Chat(context.Background(), req)
	want := `the gateway answered 400 Bad Request: Unsupported parameter: 'max_tokens' is not supported with this model. Use 'max_completion_tokens' instead (unsupported_parameter); the model takes max_completion_tokens instead of max_tokens: add max_tokens_field = "max_completion_tokens" to its [[models]] entry in the config, or remove max_tokens from the params of model fixed-temp in the config to send neither`
	if err == nil || err.Error() != want {
		t.Fatalf("max_tokens:\n got %v\nwant %s", err, want)
	}
	req.MaxTokensField = MaxCompletionTokens
	if _, err := c.Chat(context.Background(), req); err != nil {
		t.Fatalf("sent as max_completion_tokens: %v", err)
	}

	// A request that says nothing of where its params came from.
	plain := ChatRequest{Model: "plain", Messages: []Message{TextMessage(RoleUser, "hi")}, Params: mustParam(t, "top_p", "0.5")}
	gw.Enqueue(apitest.Reply{Status: 400, Body: `{"object":"error","message":"[{'type': 'less_than_equal', 'loc': ('body', 'top_p'), 'msg': 'Input should be less than or equal to 0.4', 'input': 0.5}]","type":"BadRequestError","param":null,"code":400}`})
	_, err = c.Chat(context.Background(), plain)
	var apiErr *APIError
	if !errors.As(err, &apiErr) || apiErr.RefusedParam() != "top_p" || !strings.HasSuffix(err.Error(), "; the model refused top_p = 0.5; leave it out of the request") {
		t.Fatalf("vLLM shape: %v", err)
	}
	// A 400 about something else keeps the general hint.
	gw.Enqueue(apitest.Reply{Status: 400, ErrorMessage: "Invalid 'messages[0].content': string too long."})
	_, err = c.Chat(context.Background(), plain)
	if !errors.As(err, &apiErr) || apiErr.RefusedParam() != "" || !strings.Contains(err.Error(), "check that the model supports what was asked") {
		t.Fatalf("other 400: %v", err)
	}
}

// The fake refuses values out of range as OpenAI does, so parley's own
// checks are what keeps them from being sent.
func TestFakeChecksParams(t *testing.T) {
	gw := apitest.New(t)
	c := newTestClient(t, gw)
	hot := 3.0
	_, err := c.Chat(context.Background(), ChatRequest{Model: "gpt-4o", Messages: []Message{TextMessage(RoleUser, "hi")}, Params: Params{Temperature: &hot}})
	var apiErr *APIError
	if !errors.As(err, &apiErr) || apiErr.Param != "temperature" || !strings.Contains(apiErr.Message, "Expected a value <= 2, but got 3") {
		t.Fatalf("err %v", err)
	}
	b, _ := json.Marshal(Params{})
	if string(b) != "{}" {
		t.Fatalf("empty params encode as %s", b)
	}
}
