package config

import (
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"time"

	"parley/api"
)

// testEnv is a hermetic environment: a temporary home, XDG_CONFIG_HOME
// inside it, and only the variables given.
func testEnv(t *testing.T, vars map[string]string) (Env, string) {
	t.Helper()
	home := t.TempDir()
	m := map[string]string{"XDG_CONFIG_HOME": filepath.Join(home, ".config")}
	for k, v := range vars {
		m[k] = v
	}
	return Env{Getenv: func(k string) string { return m[k] }, HomeDir: home}, home
}

// writeConfig writes the config file where Load looks for it.
func writeConfig(t *testing.T, env Env, content string, mode os.FileMode) string {
	t.Helper()
	p := DefaultPath(env)
	if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(p, []byte(content), mode); err != nil {
		t.Fatal(err)
	}
	if err := os.Chmod(p, mode); err != nil { // umask-proof
		t.Fatal(err)
	}
	return p
}

func mustLoad(t *testing.T, env Env) *Config {
	t.Helper()
	c, err := Load(env)
	if err != nil {
		t.Fatalf("Load: %v", err)
	}
	return c
}

// The sample from issue 2, item 10, verbatim.
const issueSample = `default_model = "gpt-4o"
image_model = "gpt-image-1"
image_dir = "~/Pictures/parley"

[[providers]]
name = "openai"
base_url = "https://api.openai.com/v1"
api_key_env = "OPENAI_API_KEY"      # or: api_key_cmd = "pass show openai"

[[models]]
name = "gpt-4o"
provider = "openai"                 # optional when there is one provider
vision = true
stream_usage = true

[[models]]
name = "gpt-image-1"
image_generation = true
image_edit = true
sizes = ["1024x1024", "1536x1024"]
max_n = 4
response_format = false             # may response_format be sent?
`

func TestConfigIssueSample(t *testing.T) {
	env, home := testEnv(t, map[string]string{"OPENAI_API_KEY": "sk-from-env"})
	path := writeConfig(t, env, issueSample, 0o600)
	c := mustLoad(t, env)
	if !c.FromFile || c.Path != path || len(c.Warnings) != 0 {
		t.Fatalf("FromFile=%v Path=%s Warnings=%v", c.FromFile, c.Path, c.Warnings)
	}
	if c.DefaultModel != "gpt-4o" || c.ImageModel != "gpt-image-1" {
		t.Errorf("models: %q %q", c.DefaultModel, c.ImageModel)
	}
	if got := c.ImageDir(); got != filepath.Join(home, "Pictures", "parley") {
		t.Errorf("ImageDir = %s", got)
	}
	if len(c.Providers) != 1 {
		t.Fatalf("providers: %+v", c.Providers)
	}
	p := c.Providers[0]
	if p.Name != "openai" || p.BaseURL != "https://api.openai.com/v1" || p.APIKeyEnv != "OPENAI_API_KEY" || p.Line != 5 {
		t.Errorf("provider %+v", p)
	}
	if len(c.Models) != 2 || c.Models[0].Line != 10 || c.Models[1].Line != 16 {
		t.Fatalf("models %+v", c.Models)
	}
	cat := c.Catalog()
	if m := cat.Lookup("gpt-4o"); !m.Caps.Vision || !m.Caps.StreamUsage || m.Provider != "openai" || m.Source != api.SourceConfig {
		t.Errorf("gpt-4o: %+v", m)
	}
	img := cat.Lookup("gpt-image-1").Caps
	if !img.ImageGeneration || !img.ImageEdit || img.ResponseFormat || img.MaxN != 4 || strings.Join(img.Sizes, ",") != "1024x1024,1536x1024" {
		t.Errorf("gpt-image-1: %+v", img)
	}
	if _, err := cat.ImageRequest("gpt-image-1", "x", 4, "1536x1024"); err != nil {
		t.Errorf("n=4 refused: %v", err)
	}
	_, err := cat.ImageRequest("gpt-image-1", "x", 1, "1024x1536") // built in, but the config narrowed the list
	if err == nil || !strings.Contains(err.Error(), "accepts 1024x1024, 1536x1024") || !strings.Contains(err.Error(), path) {
		t.Errorf("size refusal: %v", err)
	}
	if _, err := cat.ImageRequest("gpt-image-1", "x", 5, ""); err == nil || !strings.Contains(err.Error(), "at most 4 images") {
		t.Errorf("n refusal: %v", err)
	}
	for _, model := range []string{"gpt-4o", "gpt-image-1", "some-other-model"} {
		if pp, err := c.ProviderFor(model); err != nil || pp != p {
			t.Errorf("ProviderFor(%s) = %v, %v", model, pp, err)
		}
	}
	cc, err := p.ClientConfig("parley/test")
	if err != nil || cc.APIKey != "sk-from-env" || cc.BaseURL != p.BaseURL || cc.UserAgent != "parley/test" || cc.KeySource != "OPENAI_API_KEY" {
		t.Errorf("ClientConfig = %v, %v", cc, err)
	}
}

var fileLineCol = regexp.MustCompile(`^(.+):(\d+):(\d+): (.+)$`)

func TestConfigMalformedTOML(t *testing.T) {
	cases := []struct {
		name, src string
		line      int
		want      string
	}{
		{"unquoted string", "theme = \"dark\"\ndefault_model = gpt-4o\n", 2, "strings need quotes"},
		{"unterminated string", "[[providers]]\nname = \"openai\nbase_url = \"x\"\n", 2, "invalid TOML"},
		{"duplicate key", "theme = \"a\"\ntheme = \"b\"\n", 2, "invalid TOML"},
		{"bad header", "[[models]\nname = \"x\"\n", 1, "invalid TOML"},
		{"missing equals", "[[models]]\nname \"x\"\n", 2, "invalid TOML"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			env, _ := testEnv(t, nil)
			path := writeConfig(t, env, c.src, 0o600)
			_, err := Load(env)
			var pe *ParseError
			if !errors.As(err, &pe) {
				t.Fatalf("got %v, want a *ParseError", err)
			}
			m := fileLineCol.FindStringSubmatch(err.Error())
			if m == nil || m[1] != path {
				t.Fatalf("error %q is not <file>:<line>:<col>: <what>", err)
			}
			if pe.Line != c.line || m[2] != strconv.Itoa(c.line) || pe.Col < 1 {
				t.Errorf("error %q: line %d col %d, want line %d", err, pe.Line, pe.Col, c.line)
			}
			if !strings.Contains(pe.Msg, c.want) {
				t.Errorf("message %q lacks %q", pe.Msg, c.want)
			}
		})
	}
}

func TestConfigSemanticErrorsHaveLines(t *testing.T) {
	two := "[[providers]]\nname = \"a\"\nbase_url = \"https://a.example/v1\"\n\n[[providers]]\nname = \"b\"\nbase_url = \"https://b.example\"\n\n"
	cases := []struct {
		name, src string
		line, col int
		want      string
	}{
		{"unknown provider", two + "[[models]]\nname = \"m1\"\n\n[[models]]\nname = \"m2\"\n  provider = \"c\"\n", 14, 3,
			`model "m2" names provider "c", which is not defined; defined providers: a, b`},
		{"duplicate provider", two + "[[providers]]\nname = \"a\"\nbase_url = \"https://c.example\"\n", 10, 1,
			`a provider named "a" is already defined on line 1`},
		{"provider without base_url", two + "[[providers]]\nname = \"c\"\napi_key_env = \"C_KEY\"\n", 9, 1,
			`provider "c" has no base_url`},
		{"provider without name", "[[providers]]\nbase_url = \"https://x\"\n", 1, 1, "has no name"},
		{"bad base_url", "[[providers]]\nname = \"x\"\nbase_url = \"api.openai.com/v1\"\n", 3, 1, "is not an http(s) URL"},
		{"bad size", "[[models]]\nname = \"img\"\nimage_generation = true\nsizes = [\"1024x1024\", \"1024*1024\"]\n", 4, 1,
			`size "1024*1024" of model "img" is not <width>x<height>`},
		{"bad duration", "theme = \"x\"\nconnect_timeout = \"10 seconds\"\n", 2, 1, `connect_timeout = "10 seconds" is not a duration`},
		{"duration without quotes", "stream_idle_timeout = 30\n", 1, 1, `must be a duration in quotes such as "10s"`},
		{"negative duration", "header_timeout = \"-5s\"\n", 1, 1, "must be longer than zero"},
		{"bool as string", "[[models]]\nname = \"m\"\n\n[[models]]\nname = \"n\"\nvision = \"yes\"\n", 6, 1, "vision must be true or false"},
		{"max_n zero", "[[models]]\nname = \"m\"\nmax_n = 0\n", 3, 1, "max_n = 0 is out of range"},
		{"max_side zero", "[[models]]\nname = \"m\"\nmax_side = 0\n", 3, 1, "max_side = 0 is out of range"},
		{"sizes and max_side", "[[models]]\nname = \"m\"\nsizes = [\"1024x1024\"]\nmax_side = 1024\n", 4, 1,
			`model "m" gives both sizes and max_side; keep sizes to list the sizes it takes, or max_side when it takes any size up to a side`},
		{"duplicate model", "[[models]]\nname = \"m\"\n[[models]]\nname = \"m\"\n", 4, 1, `model "m" is already declared on line 1`},
		{"edit_path", "[[models]]\nname = \"m\"\nedit_path = \"images/edits\"\n", 3, 1, `must start with "/"`},
		{"bad byte size", "attach_max_bytes = \"lots\"\n", 1, 1, "is not a size"},
		{"keys not table", "keys = \"ctrl+c\"\n", 1, 1, "keys must be a table"},
		{"key list of ints", "[keys]\nquit = [1, 2]\n", 2, 1, "must hold only strings"},
		{"providers not tables", "providers = \"openai\"\n", 1, 1, "must be written as [[providers]] tables"},
		{"headers not table", "[[providers]]\nname = \"x\"\nbase_url = \"https://x\"\nheaders = \"X-Title: parley\"\n", 4, 1, "headers must be a table"},
		{"proxy", "[[providers]]\nname = \"x\"\nbase_url = \"https://x\"\nproxy = \"proxy.local\"\n", 4, 1, "is not a proxy URL"},
		{"string as int", "max_retries = \"3\"\n", 1, 1, "max_retries must be a whole number"},
		{"images", "images = \"pictures\"\n", 1, 1, `images = "pictures": write "auto", "kitty", "sixel", "iterm", "blocks" or "off"`},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			env, _ := testEnv(t, nil)
			path := writeConfig(t, env, c.src, 0o600)
			_, err := Load(env)
			var pe *ParseError
			if !errors.As(err, &pe) {
				t.Fatalf("got %v, want a *ParseError", err)
			}
			if pe.Path != path || pe.Line != c.line || pe.Col != c.col {
				t.Errorf("%q: at %d:%d, want %d:%d", err, pe.Line, pe.Col, c.line, c.col)
			}
			if !strings.Contains(pe.Msg, c.want) {
				t.Errorf("message %q lacks %q", pe.Msg, c.want)
			}
		})
	}
}

// Every way of drawing pictures can be chosen, in any case.
func TestConfigImagesSetting(t *testing.T) {
	for _, v := range []string{"auto", "kitty", "sixel", "iterm", "blocks", "off", "Sixel", "ITERM"} {
		env, _ := testEnv(t, nil)
		writeConfig(t, env, "images = \""+v+"\"\n", 0o600)
		c, err := Load(env)
		if err != nil {
			t.Errorf("images = %q: %v", v, err)
		} else if c.Images != strings.ToLower(v) {
			t.Errorf("images = %q read as %q", v, c.Images)
		}
	}
}

func TestConfigUnknownKeysWarn(t *testing.T) {
	env, _ := testEnv(t, nil)
	path := writeConfig(t, env, `defualt_model = "x"
[[providers]]
name = "p"
base_url = "https://p.example/v1"
base-url = "oops"

[[models]]
name = "a"

[[models]]
name = "b"
  visoin = true
flavour = "mint"
`, 0o600)
	c := mustLoad(t, env)
	want := []string{
		path + `:1:1: unknown key "defualt_model" at the top level (ignored); did you mean "default_model"?`,
		path + `:5:1: unknown key "base-url" in [[providers]] (ignored); did you mean "base_url"?`,
		path + `:12:3: unknown key "visoin" in [[models]] (ignored); did you mean "vision"?`,
		path + `:13:1: unknown key "flavour" in [[models]] (ignored)`,
	}
	if strings.Join(c.Warnings, "\n") != strings.Join(want, "\n") {
		t.Errorf("warnings:\n%s\nwant:\n%s", strings.Join(c.Warnings, "\n"), strings.Join(want, "\n"))
	}
	if m := c.Catalog().Lookup("b"); m.Caps.Vision {
		t.Error("a misspelt key took effect")
	}
}

func TestConfigPermissionWarning(t *testing.T) {
	withKey := "[[providers]]\nname = \"p\"\nbase_url = \"https://p.example\"\napi_key = \"sk-literal-123\"\n"
	cases := []struct {
		name string
		src  string
		mode os.FileMode
		warn bool
	}{
		{"key readable by others", withKey, 0o644, true},
		{"key readable by group", withKey, 0o640, true},
		{"key private", withKey, 0o600, false},
		{"no key readable", "theme = \"x\"\n", 0o644, false},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			env, _ := testEnv(t, nil)
			path := writeConfig(t, env, c.src, c.mode)
			cfg := mustLoad(t, env)
			got := strings.Join(cfg.Warnings, "\n")
			if c.warn {
				for _, w := range []string{path + ":4:1:", "chmod 600 " + path, "api_key_env or api_key_cmd"} {
					if !strings.Contains(got, w) {
						t.Errorf("warning %q lacks %q", got, w)
					}
				}
			} else if got != "" {
				t.Errorf("unexpected warning %q", got)
			}
			if strings.Contains(got, "sk-literal-123") {
				t.Error("the warning shows the key")
			}
		})
	}
}

func TestConfigNoFileUsesEnvironment(t *testing.T) {
	env, home := testEnv(t, map[string]string{"OPENAI_BASE_URL": "http://127.0.0.1:8080", "OPENAI_API_KEY": " sk-env \n"})
	c := mustLoad(t, env)
	if c.FromFile || c.Path != filepath.Join(home, ".config", "parley", "config.toml") {
		t.Errorf("FromFile=%v Path=%s", c.FromFile, c.Path)
	}
	if len(c.Providers) != 1 || c.Providers[0].Name != "default" || c.Providers[0].BaseURL != "http://127.0.0.1:8080" {
		t.Fatalf("providers %+v", c.Providers)
	}
	cc, err := c.Providers[0].ClientConfig("ua")
	if err != nil || cc.APIKey != "sk-env" || cc.BaseURL != "http://127.0.0.1:8080" {
		t.Errorf("%v %v", cc, err)
	}
	if p, err := c.ProviderFor("anything"); err != nil || p.Name != "default" {
		t.Errorf("ProviderFor: %v %v", p, err)
	}
	// Refusals point at the file the user would create.
	if err := c.Catalog().Require("llama3", api.CapVision); err == nil || !strings.Contains(err.Error(), c.Path) {
		t.Errorf("refusal: %v", err)
	}

	env2, _ := testEnv(t, nil)
	c2 := mustLoad(t, env2)
	if c2.Providers[0].BaseURL != DefaultBaseURL {
		t.Errorf("default base URL %q", c2.Providers[0].BaseURL)
	}
	if key, err := c2.Providers[0].APIKey(); key != "" || err != nil {
		t.Errorf("no key at all must be allowed (local gateways): %q %v", key, err)
	}
	// A file without [[providers]] still gets the environment provider.
	env3, _ := testEnv(t, map[string]string{"OPENAI_BASE_URL": "https://gw.example/v1"})
	writeConfig(t, env3, "theme = \"dracula\"\n[[models]]\nname = \"m\"\nprovider = \"default\"\n", 0o600)
	c3 := mustLoad(t, env3)
	if !c3.FromFile || c3.Theme != "dracula" || len(c3.Providers) != 1 || c3.Providers[0].BaseURL != "https://gw.example/v1" {
		t.Errorf("%+v", c3)
	}
	if p, err := c3.ProviderFor("m"); err != nil || p.Name != "default" {
		t.Errorf("ProviderFor(m) = %v, %v", p, err)
	}
}

func TestConfigPaths(t *testing.T) {
	env, home := testEnv(t, nil)
	env.Getenv = func(string) string { return "" } // no XDG_CONFIG_HOME either
	if got := DefaultPath(env); got != filepath.Join(home, ".config", "parley", "config.toml") {
		t.Errorf("DefaultPath = %s", got)
	}
	relXDG := Env{Getenv: func(k string) string {
		if k == "XDG_CONFIG_HOME" {
			return "relative/dir"
		}
		return ""
	}, HomeDir: home}
	if got := DefaultPath(relXDG); got != filepath.Join(home, ".config", "parley", "config.toml") {
		t.Errorf("a relative XDG_CONFIG_HOME must be ignored: %s", got)
	}
	// Dir follows the same rule, and knows when there is no directory.
	if got := Dir(relXDG); got != filepath.Join(home, ".config", "parley") {
		t.Errorf("Dir with a relative XDG_CONFIG_HOME = %s", got)
	}
	absXDG := Env{Getenv: func(k string) string { return map[string]string{"XDG_CONFIG_HOME": "/xdg"}[k] }}
	if got := Dir(absXDG); got != filepath.Join("/xdg", "parley") {
		t.Errorf("Dir with XDG_CONFIG_HOME=/xdg and no home = %s", got)
	}
	if got := Dir(Env{Getenv: relXDG.Getenv}); got != "" {
		t.Errorf("Dir with neither an absolute XDG_CONFIG_HOME nor a home = %q, want \"\"", got)
	}

	other := filepath.Join(home, "elsewhere.toml")
	os.WriteFile(other, []byte("theme = \"other\"\n"), 0o600)
	env2, _ := testEnv(t, map[string]string{"PARLEY_CONFIG": other})
	writeConfig(t, Env{Getenv: func(k string) string { return map[string]string{"XDG_CONFIG_HOME": filepath.Join(home, ".config")}[k] }, HomeDir: home}, "theme = \"xdg\"\n", 0o600)
	if c := mustLoad(t, env2); c.Theme != "other" || c.Path != other {
		t.Errorf("PARLEY_CONFIG not used: %+v", c)
	}
	tilde := Env{Getenv: func(k string) string {
		if k == "PARLEY_CONFIG" {
			return "~/elsewhere.toml"
		}
		return ""
	}, HomeDir: home}
	if c := mustLoad(t, tilde); c.Theme != "other" {
		t.Errorf("~ in PARLEY_CONFIG: %+v", c)
	}
	missing, _ := testEnv(t, map[string]string{"PARLEY_CONFIG": filepath.Join(home, "nope.toml")})
	_, err := Load(missing)
	var pe *ParseError
	if !errors.As(err, &pe) || !strings.Contains(err.Error(), "nope.toml: this file, named by PARLEY_CONFIG, does not exist") {
		t.Errorf("missing PARLEY_CONFIG file: %v", err)
	}
	// A path from the command line wins over PARLEY_CONFIG and must exist.
	flagEnv := env2
	flagEnv.Path = "~/missing.toml"
	if _, err := Load(flagEnv); err == nil || err.Error() != filepath.Join(flagEnv.HomeDir, "missing.toml")+": this file, given with --config, does not exist; check the path" {
		t.Errorf("missing --config file: %v", err)
	}
	flagEnv.Path = other
	os.WriteFile(other, []byte("theme = \"flag\"\n"), 0o600)
	if c := mustLoad(t, flagEnv); c.Theme != "flag" || c.Path != other {
		t.Errorf("--config not used: %+v", c)
	}
}

func TestConfigBaseURLVerbatim(t *testing.T) {
	env, _ := testEnv(t, nil)
	writeConfig(t, env, `[[providers]]
name = "with-v1"
base_url = "https://gw.example/v1/"

[[providers]]
name = "without"
base_url = "http://localhost:11434"

[[models]]
name = "llava"
provider = "without"
`, 0o600)
	c := mustLoad(t, env)
	for name, want := range map[string]string{"with-v1": "https://gw.example/v1/", "without": "http://localhost:11434"} {
		cc, err := c.Provider(name).ClientConfig("ua")
		if err != nil || cc.BaseURL != want {
			t.Errorf("%s: BaseURL %q, want %q verbatim (%v)", name, cc.BaseURL, want, err)
		}
	}
	if p, _ := c.ProviderFor("llava"); p.Name != "without" {
		t.Errorf("llava served by %s", p.Name)
	}
	if p, _ := c.ProviderFor("gpt-4o"); p.Name != "with-v1" {
		t.Errorf("an unlisted model must go to the first provider, got %s", p.Name)
	}
}

func TestConfigClientSettings(t *testing.T) {
	env, _ := testEnv(t, nil)
	writeConfig(t, env, `connect_timeout = "3s"
header_timeout = "45s"
stream_idle_timeout = "2m"
image_timeout = "10m"
reply_timeout = "90s"
max_retries = 0

[[providers]]
name = "router"
base_url = "https://openrouter.ai/api/v1"
api_key = "sk-or-literal"
proxy = "http://user:pw@proxy.example:3128"
headers = { "X-Title" = "parley", "HTTP-Referer" = "https://example.org" }
`, 0o600)
	c := mustLoad(t, env)
	p := c.Providers[0]
	cc, err := p.ClientConfig("parley/1.0")
	if err != nil {
		t.Fatal(err)
	}
	want := api.Timeouts{Connect: 3 * time.Second, Header: 45 * time.Second, StreamIdle: 2 * time.Minute, ImageHeader: 10 * time.Minute, Reply: 90 * time.Second}
	if cc.Timeouts != want || cc.Retry.MaxRetries != -1 || cc.Proxy != "http://user:pw@proxy.example:3128" || cc.APIKey != "sk-or-literal" {
		t.Errorf("ClientConfig %+v", cc)
	}
	if cc.Headers["X-Title"] != "parley" || cc.Headers["HTTP-Referer"] != "https://example.org" || len(cc.Headers) != 2 {
		t.Errorf("headers %v", cc.Headers)
	}
	cc.Headers["X-Title"] = "changed"
	if p.Headers["X-Title"] != "parley" {
		t.Error("ClientConfig shares the provider's header map")
	}
	// Unset max_retries leaves api's default; a number is passed through.
	env2, _ := testEnv(t, nil)
	writeConfig(t, env2, "max_retries = 5\n", 0o600)
	if r := mustLoad(t, env2).Retry(); r.MaxRetries != 5 {
		t.Errorf("max_retries 5 → %+v", r)
	}
	env3, _ := testEnv(t, nil)
	if r := mustLoad(t, env3).Retry(); r.MaxRetries != 0 {
		t.Errorf("unset max_retries → %+v", r)
	}
	// reply_timeout is off unless set, and must be a duration.
	if got := mustLoad(t, env3).Timeouts().Reply; got != 0 {
		t.Errorf("unset reply_timeout → %v", got)
	}
	path := writeConfig(t, env3, "\nreply_timeout = 30\n", 0o600)
	if _, err := Load(env3); err == nil || !strings.HasPrefix(err.Error(), path+":2:1: reply_timeout must be a duration") {
		t.Errorf("reply_timeout = 30: %v", err)
	}
	d := c.Describe()
	if strings.Contains(d, "sk-or-literal") || strings.Contains(d, ":pw@") || !strings.Contains(d, "provider router: https://openrouter.ai/api/v1") {
		t.Errorf("Describe:\n%s", d)
	}
}

func TestConfigOtherKeys(t *testing.T) {
	env, _ := testEnv(t, map[string]string{"XDG_PICTURES_DIR": "/ignored/when/image_dir/set", "PICS": "/data/pics"})
	writeConfig(t, env, `theme = "solarized-light"
mouse = true
system_prompt = """
You are terse.
name = "not a key"
"""
max_history_messages = 40
attach_max_side = 1024
attach_max_bytes = "5MB"
image_dir = "$PICS/parley"

[keys]
send = ["ctrl+s", "alt+enter"]
quit = "ctrl+q"
"new chat" = []

[[models]]
name = "my-editor"
image_edit = true
edit_path = "/v2/images/edit"
`, 0o600)
	c := mustLoad(t, env)
	if !c.Mouse {
		t.Error("mouse = true not read")
	}
	if c.Theme != "solarized-light" || c.SystemPrompt != "You are terse.\nname = \"not a key\"\n" || c.MaxHistoryMessages != 40 {
		t.Errorf("%q %q %d", c.Theme, c.SystemPrompt, c.MaxHistoryMessages)
	}
	if l := c.AttachLimits(); l.MaxSide != 1024 || l.MaxBytes != 5_000_000 {
		t.Errorf("AttachLimits %+v", l)
	}
	if c.ImageDir() != "/data/pics/parley" {
		t.Errorf("ImageDir %s", c.ImageDir())
	}
	if strings.Join(c.Keys["send"], " ") != "ctrl+s alt+enter" || strings.Join(c.Keys["quit"], " ") != "ctrl+q" || c.Keys["new chat"] == nil || len(c.Keys["new chat"]) != 0 {
		t.Errorf("Keys %#v", c.Keys)
	}
	if c.KeyLines["send"] != 13 || c.KeyLines["quit"] != 14 || c.KeyLines["new chat"] != 15 {
		t.Errorf("KeyLines %v", c.KeyLines)
	}
	if o, err := c.Catalog().ImageOptions("my-editor", api.CapImageEdit, 0, ""); err != nil || o.EditPath != "/v2/images/edit" {
		t.Errorf("edit path: %+v %v", o, err)
	}
	if len(c.Warnings) != 0 {
		t.Errorf("warnings %v", c.Warnings)
	}
	// Without image_dir the XDG default applies.
	env2, home2 := testEnv(t, nil)
	if got := mustLoad(t, env2).ImageDir(); got != filepath.Join(home2, "Pictures", "parley") {
		t.Errorf("default ImageDir %s", got)
	}
	// Zero values leave the api defaults in place.
	if l := mustLoad(t, env2).AttachLimits(); l != (api.AttachLimits{}) {
		t.Errorf("default AttachLimits %+v", l)
	}
}

func TestConfigCatalogOverridesBuiltins(t *testing.T) {
	env, _ := testEnv(t, nil)
	path := writeConfig(t, env, `[[models]]
name = "gpt-4o"
stream_usage = false

[[models]]
name = "llava:13b"
vision = false

[[models]]
name = "my-vlm"
vision = true

[[models]]
name = "dall-e-2"
max_n = 2
`, 0o600)
	cat := mustLoad(t, env).Catalog()
	if m := cat.Lookup("gpt-4o"); !m.Caps.Vision || m.Caps.StreamUsage {
		t.Errorf("gpt-4o: vision must stay (built-in), usage must go (config): %+v", m.Caps)
	}
	if cat.StreamOptionsFor("gpt-4o") != nil {
		t.Error("stream_options still sent to gpt-4o")
	}
	if m := cat.Lookup("llava:13b"); m.Caps.Vision {
		t.Error("config could not switch vision off")
	}
	if m := cat.Lookup("dall-e-2"); m.Caps.MaxN != 2 || !m.Caps.ResponseFormat || len(m.Caps.Sizes) != 3 {
		t.Errorf("dall-e-2 merge: %+v", m.Caps)
	}
	err := cat.Require("llama3", api.CapVision)
	if err == nil || !strings.Contains(err.Error(), "models with vision: gpt-4o, my-vlm.") ||
		!strings.Contains(err.Error(), `add vision = true under [[models]] name = "llama3" in `+path) {
		t.Errorf("refusal: %v", err)
	}
}

func TestConfigDescribeAndModelList(t *testing.T) {
	env, _ := testEnv(t, map[string]string{"OPENAI_API_KEY": "sk-hidden"})
	writeConfig(t, env, issueSample, 0o600)
	c := mustLoad(t, env)
	c.DefaultModel = "gpt-4.1" // not declared: listed from the built-ins
	list := c.ModelList()
	if len(list) != 3 || list[2].Name != "gpt-4.1" || list[2].Source != api.SourceBuiltin || list[2].Provider != "openai" {
		t.Errorf("ModelList %+v", list)
	}
	d := c.Describe()
	for _, w := range []string{
		"config: " + c.Path,
		"provider openai: https://api.openai.com/v1 (key from OPENAI_API_KEY)",
		"model gpt-4o [openai, config]: chat, vision, usage",
		"model gpt-image-1 [openai, config]: image generation, image editing, sizes 1024x1024 1536x1024, n ≤ 4 (image default)",
		"model gpt-4.1 [openai, builtin]: chat, vision, usage (default)",
	} {
		if !strings.Contains(d, w) {
			t.Errorf("Describe lacks %q:\n%s", w, d)
		}
	}
	if strings.Contains(d, "sk-hidden") {
		t.Error("Describe shows the key")
	}
}

func TestConfigParseByteSize(t *testing.T) {
	for in, want := range map[string]int64{"20MB": 20_000_000, "20 mb": 20_000_000, "512KB": 512_000, "1.5MiB": 1_572_864, "2GiB": 2 << 30, "1000": 1000, "3M": 3_000_000, "7b": 7} {
		if got, err := ParseByteSize(in); err != nil || got != want {
			t.Errorf("ParseByteSize(%q) = %d, %v; want %d", in, got, err, want)
		}
	}
	for _, bad := range []string{"", "MB", "-5MB", "5 TB", "five"} {
		if _, err := ParseByteSize(bad); err == nil {
			t.Errorf("ParseByteSize(%q) accepted", bad)
		}
	}
}

func TestConfigPositions(t *testing.T) {
	src := "\ufeff" + `# comment with name = "x"
top = 1
"quoted key" = 2
a.b = 3
multi = """
fake = "inside string"
"""
arr = [
  "x = 1",
  { y = 2 },
]
[[servers]]
name = 'one'
[servers.tls]
cert = "c"
[[servers]]
  name = "two" # trailing [comment]
[[servers.alias]]
id = 1
[tbl]
k = 'it''s' # literal strings have no escapes
after = true
`
	ps := indexPositions(strings.TrimPrefix(src, "\ufeff"))
	want := map[string]pos{
		"top": {2, 1}, "quoted key": {3, 1}, "a.b": {4, 1}, "multi": {5, 1}, "arr": {8, 1},
		"servers[0]": {12, 1}, "servers[0].name": {13, 1}, "servers[0].tls": {14, 1}, "servers[0].tls.cert": {15, 1},
		"servers[1]": {16, 1}, "servers[1].name": {17, 3}, "servers[1].alias[0]": {18, 1}, "servers[1].alias[0].id": {19, 1},
		"tbl": {20, 1}, "tbl.k": {21, 1}, "tbl.after": {22, 1},
	}
	for k, w := range want {
		if got := ps[k]; got != w {
			t.Errorf("%s at %v, want %v", k, got, w)
		}
	}
	for _, k := range []string{"fake", "y", "name"} {
		if _, ok := ps[k]; ok {
			t.Errorf("%q indexed from inside a value or comment", k)
		}
	}
	if got := ps.at("servers[1].missing"); got != (pos{16, 1}) {
		t.Errorf("fallback to the parent: %v", got)
	}
}

func TestExpandHome(t *testing.T) {
	cases := []struct{ p, home, want string }{
		{"~", "/home/ada", "/home/ada"},
		{"~/pics", "/home/ada", "/home/ada/pics"},
		{"~ada/pics", "/home/ada", "~ada/pics"}, // another user's home is not expanded
		{"/abs/~/x", "/home/ada", "/abs/~/x"},
		{"rel", "/home/ada", "rel"},
		{"~/pics", "", "~/pics"}, // no home known: as written
		{"~", "", "~"},
	}
	for _, c := range cases {
		if got := ExpandHome(c.p, c.home); got != c.want {
			t.Errorf("ExpandHome(%q, %q) = %q, want %q", c.p, c.home, got, c.want)
		}
	}
}

func TestWriteServerNeverOverwrites(t *testing.T) {
	path := filepath.Join(t.TempDir(), "parley", "config.toml")
	if err := WriteServer(path, "http://127.0.0.1:11434/v1", "llama3.2"); err != nil {
		t.Fatal(err)
	}
	cfg, err := Load(Env{Getenv: func(k string) string {
		if k == "PARLEY_CONFIG" {
			return path
		}
		return ""
	}})
	if err != nil || cfg.DefaultModel != "llama3.2" || len(cfg.Providers) != 1 || cfg.Providers[0].BaseURL != "http://127.0.0.1:11434/v1" {
		t.Fatalf("written config reads back as %+v (%v)", cfg, err)
	}
	if NothingConfigured(cfg, func(string) string { return "" }) {
		t.Fatal("a written server counts as nothing configured")
	}
	if err := WriteServer(path, "http://other/v1", ""); !errors.Is(err, fs.ErrExist) {
		t.Fatalf("second write: %v", err)
	}
}

// TestMaxSideReplacesTheBuiltinSizes: max_side on a well-known name means
// any size up to it, not the name's built-in list.
func TestMaxSideReplacesTheBuiltinSizes(t *testing.T) {
	side := 2048
	c := ModelConfig{Name: "gpt-image-1", MaxSide: &side}.Capabilities()
	if c.Sizes != nil || c.MaxSide != 2048 || !c.AcceptsSize("2000x1500") || c.AcceptsSize("4096x4096") {
		t.Errorf("sizes %v, max side %d", c.Sizes, c.MaxSide)
	}
}
