// Package config loads parley's TOML configuration: providers (gateways and
// where their keys come from), models with their capabilities, and the
// settings the rest of the app reads (theme, limits, timeouts, key
// bindings). It never reads the process environment directly; Load takes an
// Env, so tests are hermetic.
package config

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"time"

	"parley/api"
	"parley/internal/bytesize"
	"parley/internal/fserr"
	"parley/internal/safefile"
	"parley/media"
)

// DefaultBaseURL is the gateway used when neither the config file nor
// OPENAI_BASE_URL names one.
const DefaultBaseURL = "https://api.openai.com/v1"

// DefaultKeyEnv is the environment variable a provider's key comes from when
// it sets none of api_key, api_key_cmd and api_key_env.
const DefaultKeyEnv = "OPENAI_API_KEY"

// EnvProviderName names the provider made from OPENAI_BASE_URL and
// OPENAI_API_KEY when the config declares no [[providers]].
const EnvProviderName = "default"

// Env is the environment Load reads: variables and the home directory.
type Env struct {
	Getenv  func(string) string
	HomeDir string
	// Path is a config file named on the command line (--config). It wins
	// over PARLEY_CONFIG and must exist.
	Path string
}

func (e Env) get(k string) string {
	if e.Getenv == nil {
		return ""
	}
	return e.Getenv(k)
}

// Config is the loaded configuration. Every field documents its TOML key and
// default; zero values mean "use the default" unless said otherwise.
type Config struct {
	// Path is the config file that was read, or the file that would be read
	// when there is none (refusals tell users to add lines there).
	Path string
	// FromFile reports whether Path existed and was read.
	FromFile bool

	// default_model: the chat model used when no --model is given. No default:
	// "" means the caller must ask for one.
	DefaultModel string
	// image_model: the model `parley image` uses without --model. Default "".
	ImageModel string
	// theme: the colour theme name, validated by the UI. Default "" (the UI's
	// default theme).
	Theme string
	// mouse: mouse-wheel scrolling in the chat (the --mouse flag turns it on
	// too). Default false.
	Mouse bool
	// system_prompt: a system message sent first in every new conversation.
	// Default "" (none).
	SystemPrompt string
	// max_history_messages: how many earlier messages of a conversation are
	// sent with each request. Default 0 = all of them.
	MaxHistoryMessages int
	// attach_max_side: attachments larger than this many pixels on their long
	// side are scaled down. Default 0 = api.DefaultAttachMaxSide (2048).
	AttachMaxSide int
	// attach_max_count: the most images one message may carry. Default 0 =
	// DefaultAttachMaxCount (10).
	AttachMaxCount int
	// images: how the chat shows images: "auto" (default: the best the
	// terminal draws), "kitty" (the kitty graphics protocol), "sixel",
	// "iterm" (iTerm2's inline images), "blocks" (Unicode half blocks) or
	// "off".
	Images string
	// reading_width: the widest prose runs in the chat, in columns. Default
	// 0 = 100 (the transcript's default).
	ReadingWidth int
	// attach_max_bytes: attachments larger than this are scaled down; an
	// integer (bytes) or a string such as "20MB", "512KB", "1.5MiB" (KB/MB/GB
	// are powers of 1000, KiB/MiB/GiB powers of 1024). Default 0 =
	// api.DefaultAttachMaxBytes (20 MB).
	AttachMaxBytes int64
	// attach_max_text_bytes: the largest text file one attachment may be;
	// a larger one is refused, never cut. Same forms as attach_max_bytes.
	// Default 0 = api.DefaultAttachMaxTextBytes (256 KB).
	AttachMaxTextBytes int64
	// attach_max_text_total: the most text the text files of one message
	// may carry together. Default 0 = api.DefaultAttachMaxTextTotal (1 MB).
	AttachMaxTextTotal int64
	// screenshot_cmd: the command that takes a region screenshot, run by
	// sh (PowerShell on Windows); {file} in it stands for the PNG file to
	// write, and without {file} the command writes PNG to its stdout.
	// Default "" = the desktop's tools (grim and slurp, maim, ...).
	ScreenshotCmd string
	// max_reply_bytes: the most text one chat reply may carry, streamed or
	// not; past it reading stops and the text so far is kept. Same forms as
	// attach_max_bytes. Default 0 = api.DefaultMaxReplyBytes (8 MiB).
	MaxReplyBytes int64
	// connect_timeout: dialing and the TLS handshake, as "10s". Default 0 =
	// api.DefaultConnectTimeout (10s).
	ConnectTimeout time.Duration
	// header_timeout: request sent until the whole response header block has
	// arrived (chat).
	// Default 0 = api.DefaultHeaderTimeout (60s).
	HeaderTimeout time.Duration
	// stream_idle_timeout: the longest silence inside a streamed reply.
	// Default 0 = api.DefaultStreamIdleTimeout (120s).
	StreamIdleTimeout time.Duration
	// image_timeout: request sent until the whole response header block has
	// arrived, for
	// image generation and editing. Default 0 = api.DefaultImageHeaderTimeout (300s).
	ImageTimeout time.Duration
	// reply_timeout: the longest a whole chat reply may take, retries
	// included, for scripts that must finish in time (`parley ask` and the
	// chat both obey it). Default 0 = no such limit.
	ReplyTimeout time.Duration
	// max_retries: retries of failed requests (0 = none). nil = not set,
	// api.DefaultMaxRetries (2).
	MaxRetries *int
	// history: keep conversations in the history database. Default true
	// (Load sets it; a Config made otherwise keeps nothing).
	History bool
	// auto_title: ask the model for a short session title in the
	// background. Default false.
	AutoTitle bool
	// [keys]: key bindings, action = ["ctrl+s", "alt+enter"] (a single string
	// is accepted too). Kept as written; the UI validates action names and
	// keys. nil when absent.
	Keys map[string][]string
	// KeyLines is the line of each [keys] entry, for the UI's messages.
	KeyLines map[string]int

	// Providers in file order; the first is the default provider. Never
	// empty after Load.
	Providers []*Provider
	// Models declared under [[models]], in file order.
	Models []ModelConfig
	// Roles declared under [[roles]], in file order.
	Roles []Role
	// MCPServers declared under [[mcp_servers]], in file order.
	MCPServers []MCPServer
	// Tools are the tool loop's limits and pre-approved tools.
	Tools ToolSettings

	// Warnings are problems that do not stop parley: unknown keys, a key
	// readable by other users. Each is one line, "<file>:<line>:<col>: ...".
	Warnings []string

	imageDir       string // image_dir, expanded
	screenshotsDir string // screenshots_dir, expanded
	env            Env

	overridden string // Label of the Override applied (override.go)
}

// ModelConfig is one [[models]] entry. Pointer fields are nil when the key
// is absent, so the built-in capabilities show through.
type ModelConfig struct {
	Name            string   // name: the id sent as "model" (required)
	Provider        string   // provider: a [[providers]] name; "" = the default provider
	Vision          *bool    // vision: accepts images in chat
	StreamUsage     *bool    // stream_usage: accepts stream_options.include_usage
	ImageGeneration *bool    // image_generation
	ImageEdit       *bool    // image_edit
	ResponseFormat  *bool    // response_format: may response_format = "b64_json" be sent?
	Tools           *bool    // tools: false for a model that takes no tools
	ImageOutput     *bool    // image_output: a chat model whose replies carry images
	Sizes           []string // sizes: accepted image sizes ("1024x1024", "auto"); nil = not set
	MaxSide         *int     // max_side: the longest side of any size the model takes (instead of sizes)
	MaxN            *int     // max_n: most images per request
	EditPath        string   // edit_path: edit endpoint relative to the /v1 base ("/images/edits")
	// MaxTokensField is max_tokens_field: "max_completion_tokens" for a
	// model that refuses max_tokens (parley then sends max_tokens under
	// that name); "" = the built-in guess (max_completion_tokens for
	// OpenAI's o-series and gpt-5, else max_tokens).
	MaxTokensField string
	// Params is params: the model's parameters (temperature, max_tokens,
	// top_p, reasoning_effort, seed, stop, presence_penalty,
	// frequency_penalty), the lowest layer under a role's, /set and
	// --param.
	Params api.Params
	// Price is input_price and output_price: dollars per million tokens
	// of the prompt and of the completion (nil: not set, no cost shown).
	Price *api.Price
	Line  int // line of the entry's [[models]] header (0 if unknown)
}

// Capabilities merges the entry over the built-in capabilities of its name,
// field by field.
func (m ModelConfig) Capabilities() api.Capabilities {
	c, _ := api.BuiltinCapabilities(m.Name)
	set := func(dst *bool, v *bool) {
		if v != nil {
			*dst = *v
		}
	}
	set(&c.Vision, m.Vision)
	set(&c.StreamUsage, m.StreamUsage)
	set(&c.ImageGeneration, m.ImageGeneration)
	set(&c.ImageEdit, m.ImageEdit)
	set(&c.ResponseFormat, m.ResponseFormat)
	set(&c.ImageOutput, m.ImageOutput)
	if m.Sizes != nil {
		c.Sizes = append([]string(nil), m.Sizes...)
	}
	if m.MaxSide != nil {
		// Any size up to the side: the built-in list of the name does
		// not apply.
		c.Sizes, c.MaxSide = nil, *m.MaxSide
	}
	if m.MaxN != nil {
		c.MaxN = *m.MaxN
	}
	if m.EditPath != "" {
		c.EditPath = m.EditPath
	}
	if m.MaxTokensField != "" {
		c.MaxTokensField = m.MaxTokensField
	}
	if m.Tools != nil {
		c.NoTools = !*m.Tools
	}
	return c
}

// declared lists the capabilities the entry states, true or false, which
// the gateway's model list does not change.
func (m ModelConfig) declared() []api.Capability {
	var d []api.Capability
	if m.Vision != nil {
		d = append(d, api.CapVision)
	}
	if m.ImageOutput != nil {
		d = append(d, api.CapImageOutput)
	}
	if m.Tools != nil {
		d = append(d, api.CapTools)
	}
	return d
}

// DefaultPath is the config file parley reads: env.Path (--config) if set,
// else $PARLEY_CONFIG if set, else $XDG_CONFIG_HOME/parley/config.toml, with
// XDG_CONFIG_HOME defaulting to ~/.config (a relative XDG_CONFIG_HOME is
// ignored, as the XDG spec says).
func DefaultPath(env Env) string {
	if env.Path != "" {
		return ExpandHome(env.Path, env.HomeDir)
	}
	if p := env.get("PARLEY_CONFIG"); p != "" {
		return ExpandHome(p, env.HomeDir)
	}
	return filepath.Join(configHome(env), "parley", "config.toml")
}

// Dir is parley's config directory, where DefaultPath looks for the file
// and user themes live (its "themes" folder): $XDG_CONFIG_HOME/parley, else
// ~/.config/parley; "" when neither an absolute XDG_CONFIG_HOME nor the home
// directory is known.
func Dir(env Env) string {
	if !filepath.IsAbs(env.get("XDG_CONFIG_HOME")) && env.HomeDir == "" {
		return ""
	}
	return filepath.Join(configHome(env), "parley")
}

func configHome(env Env) string {
	if d := env.get("XDG_CONFIG_HOME"); d != "" && filepath.IsAbs(d) {
		return d
	}
	return filepath.Join(env.HomeDir, ".config")
}

// ExpandHome replaces a leading ~ or ~/ of a path the user wrote with
// home. With no home directory known the path stays as written, so a
// message about it shows what the user wrote.
func ExpandHome(p, home string) string {
	if home == "" {
		return p
	}
	if p == "~" {
		return home
	}
	if strings.HasPrefix(p, "~/") {
		return filepath.Join(home, p[2:])
	}
	return p
}

// Load reads the config file (see DefaultPath). Without a file, the
// environment alone configures parley: OPENAI_BASE_URL (default
// DefaultBaseURL) and OPENAI_API_KEY define one provider named "default";
// the same happens when the file declares no [[providers]]. A file named by
// PARLEY_CONFIG or env.Path must exist.
//
// Every error Load returns is a *ParseError ("<file>:<line>:<col>: <what is
// wrong>", or "<file>: ..." when no line applies), meant for exit status 2.
// API keys are not resolved here but when a provider is used.
func Load(env Env) (*Config, error) {
	path := DefaultPath(env)
	c := &Config{Path: path, env: env, History: true}
	data, err := safefile.Read(path, MaxFileSize)
	var (
		notRegular *safefile.NotRegularError
		tooLarge   *safefile.TooLargeError
	)
	switch {
	case errors.As(err, &notRegular):
		return nil, &ParseError{Path: path, Msg: fmt.Sprintf("this is %s, not a regular file, so parley does not read it; %s", notRegular.Kind, c.nameAFile())}
	case errors.As(err, &tooLarge):
		return nil, &ParseError{Path: path, Msg: fmt.Sprintf("this file is larger than %s, far more than any config needs; %s", bytesize.Format(MaxFileSize), c.nameAFile())}
	case errors.Is(err, fs.ErrNotExist) && env.Path != "":
		return nil, &ParseError{Path: path, Msg: "this file, given with --config, does not exist; check the path"}
	case errors.Is(err, fs.ErrNotExist) && env.get("PARLEY_CONFIG") != "":
		return nil, &ParseError{Path: path, Msg: "this file, named by PARLEY_CONFIG, does not exist; create it or unset PARLEY_CONFIG"}
	case errors.Is(err, fs.ErrNotExist):
		c.addEnvProvider()
		return c, nil
	case err != nil:
		return nil, &ParseError{Path: path, Msg: fmt.Sprintf("cannot read the config file (%v); check its permissions", fserr.Cause(err))}
	}
	c.FromFile = true
	if err := c.parse(data); err != nil {
		return nil, err
	}
	if len(c.Providers) == 0 {
		c.addEnvProvider()
	}
	c.checkPermissions()
	return c, nil
}

// MaxFileSize caps the config file: a real one is a few kilobytes.
const MaxFileSize = 1 << 20

// nameAFile says where the config path came from, for refusals of a path
// that is not a usable file.
func (c *Config) nameAFile() string {
	switch {
	case c.env.Path != "":
		return "give --config a TOML config file"
	case c.env.get("PARLEY_CONFIG") != "":
		return "point PARLEY_CONFIG at a TOML config file"
	}
	return "replace it with a TOML config file"
}

// addEnvProvider adds the provider made from OPENAI_BASE_URL/OPENAI_API_KEY.
func (c *Config) addEnvProvider() {
	base := strings.TrimSpace(c.env.get("OPENAI_BASE_URL"))
	if base == "" {
		base = DefaultBaseURL
	}
	c.Providers = append(c.Providers, c.newProvider(EnvProviderName, base, 0))
}

// checkPermissions warns when a file holding a literal api_key can be read
// by group or others.
func (c *Config) checkPermissions() {
	var line int
	for _, p := range c.Providers {
		if p.apiKey != "" {
			line = p.keyLine
			break
		}
	}
	if line == 0 {
		return
	}
	st, err := os.Stat(c.Path)
	if err != nil || st.Mode().Perm()&0o044 == 0 {
		return
	}
	c.Warnings = append(c.Warnings, fmt.Sprintf(
		"%s:%d:1: this file holds an api_key and other users can read it (mode %04o); run chmod 600 %s, or use api_key_env or api_key_cmd instead",
		c.Path, line, st.Mode().Perm(), c.Path))
}

// Catalog returns the model catalog: the [[models]] entries merged over the
// built-ins, with refusals pointing at this config file.
func (c *Config) Catalog() *api.Catalog {
	models := make([]api.Model, len(c.Models))
	for i, m := range c.Models {
		models[i] = api.Model{Name: m.Name, Provider: m.Provider, Caps: m.Capabilities(), Source: api.SourceConfig, Price: m.Price, Declared: m.declared()}
	}
	cat := api.NewCatalog(models).WithConfigPath(c.Path)
	if c.overridden != "" {
		// The models are the override's (the demo's): no line of the
		// config file changes what they can do.
		cat = cat.Fixed(c.overridden)
	}
	return cat
}

// Provider returns the provider with the given name, or nil.
func (c *Config) Provider(name string) *Provider {
	for _, p := range c.Providers {
		if p.Name == name {
			return p
		}
	}
	return nil
}

// ProviderFor returns the provider that serves model: the one its
// [[models]] entry names, else the default (first) provider, which also
// serves every model the config does not mention.
func (c *Config) ProviderFor(model string) (*Provider, error) {
	if len(c.Providers) == 0 {
		return nil, fmt.Errorf("no provider is configured; add a [[providers]] entry to %s or set OPENAI_BASE_URL", c.Path)
	}
	if m := c.Catalog().Lookup(model); m.Source == api.SourceConfig && m.Provider != "" {
		if p := c.Provider(m.Provider); p != nil {
			return p, nil
		}
		return nil, fmt.Errorf("model %q names provider %q, which %s does not define", model, m.Provider, c.Path)
	}
	return c.Providers[0], nil
}

// ImageDir is where generated images are saved: image_dir (with ~ and
// $VARIABLES expanded, see ExpandPath; a relative path is taken from the
// current directory), else media.DefaultImageDir ($XDG_PICTURES_DIR/parley,
// the user-dirs.dirs entry, or ~/Pictures/parley).
func (c *Config) ImageDir() string {
	if c.imageDir != "" {
		return c.imageDir
	}
	return media.DefaultImageDir(c.env.get, c.env.HomeDir)
}

// UseImageDir makes dir the folder images are saved in, whatever image_dir
// says: the demo's temporary folder (the demo keeps nothing).
func (c *Config) UseImageDir(dir string) { c.imageDir = dir }

// DefaultAttachMaxCount is how many images one message may carry when
// attach_max_count does not say.
const DefaultAttachMaxCount = 10

// MaxAttachments is the most images one message may carry.
func (c *Config) MaxAttachments() int {
	if c == nil || c.AttachMaxCount <= 0 {
		return DefaultAttachMaxCount
	}
	return c.AttachMaxCount
}

// AttachLimits are the attachment limits (zero fields take api's defaults).
func (c *Config) AttachLimits() api.AttachLimits {
	return api.AttachLimits{MaxSide: c.AttachMaxSide, MaxBytes: c.AttachMaxBytes, MaxTextBytes: c.AttachMaxTextBytes, MaxTextTotal: c.AttachMaxTextTotal}
}

// ScreenshotsDir is screenshots_dir (with ~ and $VARIABLES expanded), the
// folder /attach latest takes the newest image of; "" when the config does
// not set it, and the desktop's own folder is looked for
// (desktop.System.ScreenshotsDir).
func (c *Config) ScreenshotsDir() string { return c.screenshotsDir }

// Timeouts are the network timeouts (zero fields take api's defaults).
func (c *Config) Timeouts() api.Timeouts {
	return api.Timeouts{Connect: c.ConnectTimeout, Header: c.HeaderTimeout, StreamIdle: c.StreamIdleTimeout, ImageHeader: c.ImageTimeout, Reply: c.ReplyTimeout}
}

// Retry is the retry policy: max_retries = 0 means no retries (-1 in api's
// terms), unset means api's default.
func (c *Config) Retry() api.RetryPolicy {
	if c.MaxRetries == nil {
		return api.RetryPolicy{}
	}
	if *c.MaxRetries == 0 {
		return api.RetryPolicy{MaxRetries: -1}
	}
	return api.RetryPolicy{MaxRetries: *c.MaxRetries}
}
