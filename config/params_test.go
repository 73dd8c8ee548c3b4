package config

import (
	"errors"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"parley/api"
)

const paramsConfig = `default_model = "gpt-4o"

[[models]]
name = "gpt-4o"
params = { temperature = 0.7, max_tokens = 500, top_p = 0.9, reasoning_effort = "low", seed = 1, stop = ["###"], presence_penalty = 0.0, frequency_penalty = 0 }

[[models]]
name = "local-r1"
max_tokens_field = "max_completion_tokens"
[models.params]
temperature = 1
max_tokens = 2000

[[roles]]
name = "coder"
system_prompt = "You write Go."
model = "local-r1"
params = { temperature = 0.2 }

[[roles]]
name = "poet"
system_prompt = "You answer in verse."
`

func TestModelParams(t *testing.T) {
	env, _ := testEnv(t, nil)
	writeConfig(t, env, paramsConfig, 0o600)
	c := mustLoad(t, env)
	if len(c.Warnings) != 0 {
		t.Fatalf("warnings: %q", c.Warnings)
	}
	p := c.ModelParams("gpt-4o")
	want := []string{"temperature", "top_p", "max_tokens", "seed", "stop", "presence_penalty", "frequency_penalty", "reasoning_effort"}
	if got := p.Names(); !reflect.DeepEqual(got, want) {
		t.Fatalf("names %v", got)
	}
	if *p.Temperature != 0.7 || *p.MaxTokens != 500 || *p.TopP != 0.9 || p.ReasoningEffort != "low" || *p.Seed != 1 ||
		!reflect.DeepEqual(p.Stop, []string{"###"}) || *p.PresencePenalty != 0 || *p.FrequencyPenalty != 0 {
		t.Fatalf("gpt-4o params %+v", p)
	}
	r1 := c.ModelParams("local-r1")
	if *r1.Temperature != 1 || *r1.MaxTokens != 2000 || len(r1.Names()) != 2 {
		t.Fatalf("local-r1 params %+v", r1)
	}
	if f := c.Catalog().Lookup("local-r1").Caps.MaxTokensField; f != api.MaxCompletionTokens {
		t.Fatalf("local-r1 max_tokens_field %q", f)
	}
	if f := c.Catalog().Lookup("gpt-4o").Caps.MaxTokensField; f != "" {
		t.Fatalf("gpt-4o max_tokens_field %q", f)
	}
	if !c.ModelParams("unlisted").IsZero() {
		t.Fatal("a model without an entry has params")
	}
}

func TestRoles(t *testing.T) {
	env, _ := testEnv(t, nil)
	writeConfig(t, env, paramsConfig, 0o600)
	c := mustLoad(t, env)
	if got := c.RoleNames(); !reflect.DeepEqual(got, []string{"coder", "poet"}) {
		t.Fatalf("roles %v", got)
	}
	coder, err := c.FindRole("coder")
	if err != nil || coder.SystemPrompt != "You write Go." || coder.Model != "local-r1" || *coder.Params.Temperature != 0.2 || coder.Line != 14 {
		t.Fatalf("coder %+v, %v", coder, err)
	}
	_, err = c.FindRole("cdoer")
	var ure *UnknownRoleError
	if !errors.As(err, &ure) || err.Error() != `there is no role "cdoer"; did you mean coder? (roles: coder, poet)` {
		t.Fatalf("unknown role: %v", err)
	}

	// Layers: the model's params, then the role's, then /set, then --param.
	layers := c.ParamLayers("local-r1", &coder)
	set, _ := api.ParseParam("max_tokens", "100")
	run, _ := api.ParseParam("seed", "9")
	layers = append(layers, api.ChatParamLayer(set), api.RunParamLayer(run))
	merged, settings := api.MergeParams(layers...)
	want := []api.ParamSetting{
		{Name: "temperature", Value: "0.2", Source: "role coder", Clear: "remove temperature from the params of role coder in the config"},
		{Name: "max_tokens", Value: "100", Source: "/set in this chat", Clear: "/set max_tokens --clear"},
		{Name: "seed", Value: "9", Source: "--param", Clear: "drop --param seed"},
	}
	if !reflect.DeepEqual(settings, want) || *merged.Temperature != 0.2 {
		t.Fatalf("settings %+v", settings)
	}
	_, settings = api.MergeParams(c.ParamLayers("gpt-4o", nil)...)
	if settings[0].Source != "model gpt-4o in the config" || settings[0].Clear != "remove temperature from the params of model gpt-4o in the config" {
		t.Fatalf("model layer %+v", settings[0])
	}

	writeConfig(t, env, "theme = \"dark\"\n", 0o600)
	_, err = mustLoad(t, env).FindRole("coder")
	if err == nil || !strings.Contains(err.Error(), `there is no role "coder": the config defines no roles; add a [[roles]] entry with name and system_prompt to `) {
		t.Fatalf("no roles: %v", err)
	}
}

// Unknown parameter names are warnings at their line, as unknown keys
// are; a value out of range is an error with the sentence /set gives.
func TestParamsProblems(t *testing.T) {
	env, _ := testEnv(t, nil)
	writeConfig(t, env, `[[models]]
name = "m"
[models.params]
temprature = 0.5
max_completion_tokens = 10
top_k = 3

[[roles]]
name = "r"
system_prompt = "x"
colour = "red"

[[roles]]
name = "empty"
`, 0o600)
	c := mustLoad(t, env)
	want := []string{
		`:4:1: unknown parameter "temprature" in the params of model m (ignored); did you mean "temperature"?`,
		`:5:1: unknown parameter "max_completion_tokens" in the params of model m (ignored); write max_tokens, and max_tokens_field = "max_completion_tokens" in the model's [[models]] entry`,
		`:6:1: unknown parameter "top_k" in the params of model m (ignored); did you mean "top_p"?`,
		`:11:1: unknown key "colour" in [[roles]] (ignored)`,
		`:13:1: role "empty" sets neither system_prompt, model nor params, so choosing it changes nothing`,
	}
	if len(c.Warnings) != len(want) {
		t.Fatalf("warnings %q", c.Warnings)
	}
	for i, w := range want {
		if !strings.HasSuffix(c.Warnings[i], w) {
			t.Errorf("warning %d: %q, want it to end %q", i, c.Warnings[i], w)
		}
	}
	if !c.ModelParams("m").IsZero() {
		t.Fatal("ignored params were kept")
	}

	for body, wantErr := range map[string]string{
		"[[models]]\nname = \"m\"\nparams = { temperature = 3 }\n":                       ":3:1: in the params of model m: temperature must be a number from 0 to 2, not 3",
		"[[models]]\nname = \"m\"\n[models.params]\nmax_tokens = 0\n":                    ":4:1: in the params of model m: max_tokens must be a whole number of at least 1, not 0",
		"[[roles]]\nname = \"r\"\nparams = { stop = [\"a\",\"b\",\"c\",\"d\",\"e\"] }\n": ":3:1: in the params of role r: stop takes at most 4 strings, not 5",
		"[[roles]]\nname = \"r\"\nparams = { reasoning_effort = \"max\" }\n":             `:3:1: in the params of role r: reasoning_effort must be one of minimal, low, medium or high, not "max"`,
		"[[models]]\nname = \"m\"\nparams = 5\n":                                         ":3:1: params of model m must be a table such as params = { temperature = 0.7, max_tokens = 500 }, not an integer",
		"[[models]]\nname = \"m\"\nmax_tokens_field = \"tokens\"\n":                      `:3:1: max_tokens_field of model "m" is "tokens"; write "max_completion_tokens" (for models that refuse max_tokens) or "max_tokens"`,
		"[[roles]]\nname = \"a\"\nsystem_prompt = \"x\"\n[[roles]]\nname = \"a\"\n":      `:5:1: a role named "a" is already defined on line 1; give each role its own name`,
		"[[roles]]\nsystem_prompt = \"x\"\n":                                             `:1:1: this [[roles]] entry has no name; add name = "..." so /role and --role can find it`,
		"[[roles]]\nname = \"two words\"\n":                                              `:2:1: role name "two words" must be one word without spaces, as /role NAME takes it`,
		"attach_max_text_bytes = \"lots\"\n":                                             `:1:1: attach_max_text_bytes = "lots" is not a size`,
	} {
		writeConfig(t, env, body, 0o600)
		_, err := Load(env)
		if err == nil || !strings.Contains(err.Error(), wantErr) {
			t.Errorf("%q:\n got %v\nwant …%s", body, err, wantErr)
		}
	}
}

func TestScreenshotAndTextSettings(t *testing.T) {
	env, home := testEnv(t, nil)
	writeConfig(t, env, `screenshot_cmd = "grim -g \"$(slurp)\" {file}"
screenshots_dir = "~/Shots"
attach_max_text_bytes = "64KB"
attach_max_text_total = "2MB"
`, 0o600)
	c := mustLoad(t, env)
	if c.ScreenshotCmd != `grim -g "$(slurp)" {file}` || c.ScreenshotsDir() != filepath.Join(home, "Shots") {
		t.Fatalf("screenshot settings %q %q", c.ScreenshotCmd, c.ScreenshotsDir())
	}
	lim := c.AttachLimits()
	if lim.MaxTextBytes != 64_000 || lim.MaxTextTotal != 2_000_000 {
		t.Fatalf("limits %+v", lim)
	}
	writeConfig(t, env, "theme = \"dark\"\n", 0o600)
	c = mustLoad(t, env)
	if c.ScreenshotCmd != "" || c.ScreenshotsDir() != "" || c.AttachLimits().MaxTextBytes != 0 {
		t.Fatal("defaults are not zero")
	}
}
