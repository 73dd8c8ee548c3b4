package config

import (
	"errors"
	"fmt"
	"maps"
	"math"
	"net/url"
	"regexp"
	"slices"
	"sort"
	"strconv"
	"strings"
	"time"

	"github.com/BurntSushi/toml"

	"parley/api"
	"parley/internal/suggest"
	"parley/internal/tomlnest"
	"parley/termsafe"
)

// The file is decoded into generic TOML values and checked here against
// the keys below, so that every problem gets the exact line of the entry it
// is in (see positions) and unknown keys become warnings, not errors.

var (
	topKeys = []string{
		"default_model", "image_model", "image_dir", "theme", "mouse", "system_prompt",
		"max_history_messages", "attach_max_side", "attach_max_bytes", "attach_max_count", "reading_width", "images",
		"attach_max_text_bytes", "attach_max_text_total", "screenshot_cmd", "screenshots_dir", "roles",
		"max_reply_bytes",
		"connect_timeout", "header_timeout", "stream_idle_timeout", "image_timeout", "reply_timeout",
		"max_retries", "keys", "providers", "models", "history", "auto_title",
		"mcp_servers", "allow", "max_tool_rounds", "tool_timeout", "tool_result_max_bytes", "tool_turn_max_bytes",
	}
	providerKeys = []string{"name", "base_url", "api_key", "api_key_env", "api_key_cmd", "proxy", "headers"}
	modelKeys    = []string{
		"name", "provider", "vision", "stream_usage", "image_generation", "image_edit",
		"response_format", "sizes", "max_side", "max_n", "edit_path", "max_tokens_field", "params", "tools",
		"image_output", "input_price", "output_price",
	}
)

// loader checks one decoded file.
type loader struct {
	c   *Config
	pos positions
}

func (c *Config) parse(data []byte) error {
	src := strings.TrimPrefix(string(data), "\ufeff")
	// The decoder slows down sharply with nesting: refuse deep nesting
	// before it sees the file.
	var deep *tomlnest.Error
	if err := tomlnest.Check(src, tomlnest.MaxDepth); errors.As(err, &deep) {
		return &ParseError{Path: c.Path, Line: deep.Line, Col: deep.Col, Msg: deep.Error()}
	}
	var doc map[string]any
	if _, err := toml.Decode(src, &doc); err != nil {
		var pe toml.ParseError
		if errors.As(err, &pe) {
			line, col := pe.Position.Line, pe.Position.Col
			// The library counts an unexpected newline as the start of the
			// next line; the byte offset says where the problem really is.
			if st := pe.Position.Start; st >= 0 && st < len(src) {
				line = strings.Count(src[:st], "\n") + 1
				col = st - strings.LastIndexByte(src[:st], '\n')
			}
			return &ParseError{Path: c.Path, Line: line, Col: col, Msg: tomlMessage(pe)}
		}
		return &ParseError{Path: c.Path, Msg: strings.TrimPrefix(err.Error(), "toml: ")}
	}
	l := &loader{c: c, pos: indexPositions(src)}
	return l.load(doc)
}

// tomlMessage is the library's message with a hint for the commonest slip.
func tomlMessage(pe toml.ParseError) string {
	msg := pe.Message
	if strings.Contains(msg, "expected value but found") && strings.Contains(msg, "instead") {
		msg += " (strings need quotes: key = \"value\")"
	}
	// The library quotes the input, line breaks included: keep it on one
	// line.
	return "invalid TOML: " + termsafe.Line(msg)
}

func (l *loader) errAt(path, format string, args ...any) *ParseError {
	p := l.pos.at(path)
	return &ParseError{Path: l.c.Path, Line: p.line, Col: p.col, Msg: fmt.Sprintf(format, args...)}
}

func (l *loader) warnAt(path, format string, args ...any) {
	l.c.Warnings = append(l.c.Warnings, l.errAt(path, format, args...).Error())
}

// unknownKeys warns about keys of tbl that are not in known.
func (l *loader) unknownKeys(tbl map[string]any, base, where string, known []string) {
	keys := make([]string, 0, len(tbl))
	for k := range tbl {
		if !slices.Contains(known, k) {
			keys = append(keys, k)
		}
	}
	sort.Slice(keys, func(i, j int) bool {
		a, b := l.pos.at(join(base, keys[i])), l.pos.at(join(base, keys[j]))
		return a.line < b.line || a.line == b.line && keys[i] < keys[j]
	})
	for _, k := range keys {
		msg := fmt.Sprintf("unknown key %q %s (ignored)", k, where)
		if s := suggest.Closest(k, known); s != "" {
			msg += fmt.Sprintf("; did you mean %q?", s)
		}
		l.warnAt(join(base, k), "%s", msg)
	}
}

func join(base, key string) string {
	if base == "" {
		return key
	}
	return base + "." + key
}

func (l *loader) load(doc map[string]any) error {
	l.unknownKeys(doc, "", "at the top level", topKeys)
	if err := l.loadTexts(doc); err != nil {
		return err
	}
	if err := l.loadLimits(doc); err != nil {
		return err
	}
	if err := l.loadTimeouts(doc); err != nil {
		return err
	}
	return l.sections(doc)
}

// loadTexts reads the top-level strings and paths (paths expanded), the
// images setting and mouse.
func (l *loader) loadTexts(doc map[string]any) error {
	c := l.c
	var err error
	str := func(key string, dst *string) {
		if err == nil {
			*dst, err = l.str(doc, "", key)
		}
	}
	str("default_model", &c.DefaultModel)
	str("image_model", &c.ImageModel)
	path := func(key string, dst *string) {
		str(key, dst)
		if err == nil && *dst != "" {
			var expanded string
			if expanded, err = c.ExpandPath(*dst); err != nil {
				err = l.errAt(key, "%s = %q: %v", key, *dst, err)
			}
			*dst = expanded
		}
	}
	path("image_dir", &c.imageDir)
	path("screenshots_dir", &c.screenshotsDir)
	str("screenshot_cmd", &c.ScreenshotCmd)
	str("theme", &c.Theme)
	str("system_prompt", &c.SystemPrompt)
	str("images", &c.Images)
	if err == nil {
		switch strings.ToLower(c.Images) {
		case "", "auto", "kitty", "sixel", "iterm", "blocks", "off":
			c.Images = strings.ToLower(c.Images)
		default:
			err = l.errAt("images", "images = %q: write \"auto\", \"kitty\", \"sixel\", \"iterm\", \"blocks\" or \"off\"", c.Images)
		}
	}
	if err != nil {
		return err
	}
	if v, err := l.boolean(doc, "", "mouse"); err != nil {
		return err
	} else if v != nil {
		c.Mouse = *v
	}
	return nil
}

// loadLimits reads the top-level numbers: history, attachment and reply
// limits, and the reading width.
func (l *loader) loadLimits(doc map[string]any) error {
	c := l.c
	var err error
	if v, err := l.intIn(doc, "", "max_history_messages", 0, math.MaxInt32); err != nil {
		return err
	} else if v != nil {
		c.MaxHistoryMessages = *v
	}
	if v, err := l.intIn(doc, "", "attach_max_side", 16, 1<<16); err != nil {
		return err
	} else if v != nil {
		c.AttachMaxSide = *v
	}
	for _, b := range []struct {
		key string
		dst *int64
	}{
		{"attach_max_bytes", &c.AttachMaxBytes}, {"attach_max_text_bytes", &c.AttachMaxTextBytes},
		{"attach_max_text_total", &c.AttachMaxTextTotal}, {"max_reply_bytes", &c.MaxReplyBytes},
	} {
		if *b.dst, err = l.byteSize(doc, b.key); err != nil {
			return err
		}
	}
	if v, err := l.intIn(doc, "", "attach_max_count", 1, 100); err != nil {
		return err
	} else if v != nil {
		c.AttachMaxCount = *v
	}
	if v, err := l.intIn(doc, "", "reading_width", 40, 1000); err != nil {
		return err
	} else if v != nil {
		c.ReadingWidth = *v
	}
	return nil
}

// loadTimeouts reads the gateway timeouts and max_retries.
func (l *loader) loadTimeouts(doc map[string]any) error {
	c := l.c
	var err error
	for _, d := range []struct {
		key string
		dst *time.Duration
	}{
		{"connect_timeout", &c.ConnectTimeout}, {"header_timeout", &c.HeaderTimeout},
		{"stream_idle_timeout", &c.StreamIdleTimeout}, {"image_timeout", &c.ImageTimeout},
		{"reply_timeout", &c.ReplyTimeout},
	} {
		if *d.dst, err = l.duration(doc, d.key); err != nil {
			return err
		}
	}
	if c.MaxRetries, err = l.intIn(doc, "", "max_retries", 0, 10); err != nil {
		return err
	}
	return nil
}

// sections reads the tables: [history], [keys], [[providers]], then the
// [[models]] and [[roles]] that may name them.
func (l *loader) sections(doc map[string]any) error {
	for _, read := range []func(map[string]any) error{l.history, l.keys, l.providers, l.models, l.roles, l.toolSettings, l.mcpServers} {
		if err := read(doc); err != nil {
			return err
		}
	}
	return nil
}

// typeName names a TOML value's type for messages.
func typeName(v any) string {
	switch v.(type) {
	case string:
		return "a string"
	case int64:
		return "an integer"
	case float64:
		return "a number with a fraction"
	case bool:
		return "true/false"
	case []any, []map[string]any:
		return "an array"
	case map[string]any:
		return "a table"
	case time.Time:
		return "a date"
	}
	return fmt.Sprintf("%T", v)
}

func (l *loader) str(tbl map[string]any, base, key string) (string, error) {
	v, ok := tbl[key]
	if !ok {
		return "", nil
	}
	s, ok := v.(string)
	if !ok {
		return "", l.errAt(join(base, key), "%s must be a string in quotes, not %s", key, typeName(v))
	}
	return s, nil
}

func (l *loader) boolean(tbl map[string]any, base, key string) (*bool, error) {
	v, ok := tbl[key]
	if !ok {
		return nil, nil
	}
	b, ok := v.(bool)
	if !ok {
		return nil, l.errAt(join(base, key), "%s must be true or false (without quotes), not %s", key, typeName(v))
	}
	return &b, nil
}

func (l *loader) intIn(tbl map[string]any, base, key string, lo, hi int) (*int, error) {
	v, ok := tbl[key]
	if !ok {
		return nil, nil
	}
	n, ok := v.(int64)
	if !ok {
		return nil, l.errAt(join(base, key), "%s must be a whole number (without quotes), not %s", key, typeName(v))
	}
	if n < int64(lo) || n > int64(hi) {
		return nil, l.errAt(join(base, key), "%s = %d is out of range; use a number from %d to %d", key, n, lo, hi)
	}
	i := int(n)
	return &i, nil
}

func (l *loader) duration(tbl map[string]any, key string) (time.Duration, error) {
	v, ok := tbl[key]
	if !ok {
		return 0, nil
	}
	s, ok := v.(string)
	if !ok {
		return 0, l.errAt(key, `%s must be a duration in quotes such as "10s", "2m" or "500ms", not %s`, key, typeName(v))
	}
	d, err := time.ParseDuration(strings.TrimSpace(s))
	if err != nil {
		return 0, l.errAt(key, `%s = %q is not a duration; write it like "10s", "2m" or "1m30s"`, key, s)
	}
	if d <= 0 {
		return 0, l.errAt(key, `%s = %q must be longer than zero`, key, s)
	}
	return d, nil
}

var byteSizeRE = regexp.MustCompile(`(?i)^\s*([0-9]+(?:\.[0-9]+)?)\s*(b|kb?|mb?|gb?|kib|mib|gib)?\s*$`)

// ParseByteSize reads "20MB", "512 KB", "1.5MiB" or "20000000": KB, MB, GB
// (and K, M, G) are powers of 1000, KiB, MiB, GiB powers of 1024.
func ParseByteSize(s string) (int64, error) {
	m := byteSizeRE.FindStringSubmatch(s)
	if m == nil {
		return 0, fmt.Errorf("%q is not a size", s)
	}
	f, err := strconv.ParseFloat(m[1], 64)
	if err != nil {
		return 0, err
	}
	mult := map[string]float64{
		"": 1, "b": 1, "k": 1e3, "kb": 1e3, "m": 1e6, "mb": 1e6, "g": 1e9, "gb": 1e9,
		"kib": 1 << 10, "mib": 1 << 20, "gib": 1 << 30,
	}[strings.ToLower(m[2])]
	n := f * mult
	if n >= math.MaxInt64/2 {
		return 0, fmt.Errorf("%q is too large", s)
	}
	return int64(n), nil
}

func (l *loader) byteSize(tbl map[string]any, key string) (int64, error) {
	v, ok := tbl[key]
	if !ok {
		return 0, nil
	}
	var n int64
	switch v := v.(type) {
	case int64:
		n = v
	case string:
		var err error
		if n, err = ParseByteSize(v); err != nil {
			return 0, l.errAt(key, `%s = %q is not a size; write it like "20MB", "512KB" or a number of bytes`, key, v)
		}
	default:
		return 0, l.errAt(key, `%s must be a number of bytes or a string such as "20MB", not %s`, key, typeName(v))
	}
	if n < 1000 {
		return 0, l.errAt(key, "%s is %d bytes; use at least 1KB", key, n)
	}
	return n, nil
}

func (l *loader) strList(tbl map[string]any, base, key string) ([]string, bool, error) {
	v, ok := tbl[key]
	if !ok {
		return nil, false, nil
	}
	arr, ok := v.([]any)
	if !ok {
		if s, isStr := v.(string); isStr {
			return []string{s}, true, nil
		}
		return nil, false, l.errAt(join(base, key), `%s must be a list of strings such as ["a", "b"], not %s`, key, typeName(v))
	}
	out := make([]string, 0, len(arr))
	for _, e := range arr {
		s, ok := e.(string)
		if !ok {
			return nil, false, l.errAt(join(base, key), "%s must hold only strings in quotes, not %s", key, typeName(e))
		}
		out = append(out, s)
	}
	return out, true, nil
}

// tables returns an array of tables ([[name]] or name = [{...}]).
func (l *loader) tables(doc map[string]any, key string) ([]map[string]any, error) {
	v, ok := doc[key]
	if !ok {
		return nil, nil
	}
	switch v := v.(type) {
	case []map[string]any:
		return v, nil
	case []any:
		out := make([]map[string]any, 0, len(v))
		for _, e := range v {
			m, ok := e.(map[string]any)
			if !ok {
				return nil, l.errAt(key, "%s must be a list of [[%s]] tables, not of %s", key, key, typeName(e))
			}
			out = append(out, m)
		}
		return out, nil
	}
	return nil, l.errAt(key, "%s must be written as [[%s]] tables, not %s", key, key, typeName(v))
}

func (l *loader) keys(doc map[string]any) error {
	v, ok := doc["keys"]
	if !ok {
		return nil
	}
	tbl, ok := v.(map[string]any)
	if !ok {
		return l.errAt("keys", `keys must be a table ([keys] with lines like quit = ["ctrl+c"]), not %s`, typeName(v))
	}
	c := l.c
	c.Keys = map[string][]string{}
	c.KeyLines = map[string]int{}
	for _, action := range slices.Sorted(maps.Keys(tbl)) {
		list, _, err := l.strList(tbl, "keys", action)
		if err != nil {
			return err
		}
		c.Keys[action] = list
		c.KeyLines[action] = l.pos.at("keys." + action).line
	}
	return nil
}

func (l *loader) providers(doc map[string]any) error {
	entries, err := l.tables(doc, "providers")
	if err != nil {
		return err
	}
	c := l.c
	for i, e := range entries {
		base := fmt.Sprintf("providers[%d]", i)
		l.unknownKeys(e, base, "in [[providers]]", providerKeys)
		name, err := l.str(e, base, "name")
		if err != nil {
			return err
		}
		if strings.TrimSpace(name) == "" {
			return l.errAt(base, `this [[providers]] entry has no name; add name = "..." so models can refer to it`)
		}
		if prev := c.Provider(name); prev != nil {
			return l.errAt(base+".name", "a provider named %q is already defined on line %d; give each provider its own name", name, prev.Line)
		}
		baseURL, err := l.str(e, base, "base_url")
		if err != nil {
			return err
		}
		if baseURL == "" {
			return l.errAt(base, `provider %q has no base_url; add base_url = "https://api.openai.com/v1" or your gateway's address`, name)
		}
		if u, err := url.Parse(baseURL); err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
			return l.errAt(base+".base_url", "base_url %q of provider %q is not an http(s) URL; write it like https://api.openai.com/v1", baseURL, name)
		}
		p := c.newProvider(name, baseURL, l.pos.at(base).line)
		for _, f := range []struct {
			key string
			dst *string
		}{{"api_key", &p.apiKey}, {"api_key_env", &p.APIKeyEnv}, {"api_key_cmd", &p.APIKeyCmd}, {"proxy", &p.Proxy}} {
			if *f.dst, err = l.str(e, base, f.key); err != nil {
				return err
			}
		}
		p.keyLine = l.pos.at(base + ".api_key").line
		if p.apiKey != "" && p.APIKeyCmd != "" {
			l.warnAt(base+".api_key_cmd", "provider %q sets both api_key and api_key_cmd; api_key is used", name)
		} else if (p.apiKey != "" || p.APIKeyCmd != "") && p.APIKeyEnv != "" {
			l.warnAt(base+".api_key_env", "provider %q sets api_key_env as well as api_key or api_key_cmd; api_key_env is ignored", name)
		}
		if p.Proxy != "" {
			if u, err := url.Parse(p.Proxy); err != nil || u.Host == "" || !slices.Contains([]string{"http", "https", "socks5", "socks5h"}, u.Scheme) {
				return l.errAt(base+".proxy", "proxy %q of provider %q is not a proxy URL; write it like http://proxy.example:3128 or socks5://127.0.0.1:1080", p.Proxy, name)
			}
		}
		if hv, ok := e["headers"]; ok {
			ht, ok := hv.(map[string]any)
			if !ok {
				return l.errAt(base+".headers", `headers must be a table like headers = { "X-Title" = "parley" }, not %s`, typeName(hv))
			}
			p.Headers = map[string]string{}
			for k, v := range ht {
				s, ok := v.(string)
				if !ok {
					return l.errAt(base+".headers", "header %q of provider %q must be a string in quotes, not %s", k, name, typeName(v))
				}
				p.Headers[k] = s
			}
		}
		c.Providers = append(c.Providers, p)
	}
	return nil
}

// imageSizes reads sizes and max_side of a [[models]] entry: a list of
// the sizes the model takes, or the longest side of any size it takes;
// one or the other, since both would leave one of them unused.
func (l *loader) imageSizes(e map[string]any, base string, m *ModelConfig) error {
	sizes, set, err := l.strList(e, base, "sizes")
	if err != nil {
		return err
	}
	if set {
		m.Sizes = []string{}
		for _, s := range sizes {
			if !api.ValidSize(s) {
				return l.errAt(base+".sizes", `size %q of model %q is not <width>x<height> (like "1024x1024") or "auto"`, s, m.Name)
			}
			m.Sizes = append(m.Sizes, s)
		}
	}
	if m.MaxSide, err = l.intIn(e, base, "max_side", 1, 65535); err != nil {
		return err
	}
	if set && m.MaxSide != nil {
		return l.errAt(base+".max_side", "model %q gives both sizes and max_side; keep sizes to list the sizes it takes, or max_side when it takes any size up to a side", m.Name)
	}
	return nil
}

func (l *loader) models(doc map[string]any) error {
	entries, err := l.tables(doc, "models")
	if err != nil {
		return err
	}
	c := l.c
	for i, e := range entries {
		base := fmt.Sprintf("models[%d]", i)
		l.unknownKeys(e, base, "in [[models]]", modelKeys)
		m := ModelConfig{Line: l.pos.at(base).line}
		if m.Name, err = l.str(e, base, "name"); err != nil {
			return err
		}
		if strings.TrimSpace(m.Name) == "" {
			return l.errAt(base, `this [[models]] entry has no name; add name = "..." with the model id the gateway knows`)
		}
		for _, prev := range c.Models {
			if prev.Name == m.Name {
				return l.errAt(base+".name", "model %q is already declared on line %d; merge the two entries", m.Name, prev.Line)
			}
		}
		if m.Provider, err = l.str(e, base, "provider"); err != nil {
			return err
		}
		if m.Provider != "" && c.Provider(m.Provider) == nil {
			// With no [[providers]] the environment provider "default" exists.
			if !(len(c.Providers) == 0 && m.Provider == EnvProviderName) {
				return l.errAt(base+".provider", "model %q names provider %q, which is not defined; %s",
					m.Name, m.Provider, l.definedProviders())
			}
		}
		for _, f := range []struct {
			key string
			dst **bool
		}{
			{"vision", &m.Vision}, {"stream_usage", &m.StreamUsage}, {"image_generation", &m.ImageGeneration},
			{"image_edit", &m.ImageEdit}, {"response_format", &m.ResponseFormat}, {"tools", &m.Tools},
			{"image_output", &m.ImageOutput},
		} {
			if *f.dst, err = l.boolean(e, base, f.key); err != nil {
				return err
			}
		}
		if err := l.imageSizes(e, base, &m); err != nil {
			return err
		}
		if m.MaxN, err = l.intIn(e, base, "max_n", 1, 128); err != nil {
			return err
		}
		if m.EditPath, err = l.str(e, base, "edit_path"); err != nil {
			return err
		}
		if m.EditPath != "" && !strings.HasPrefix(m.EditPath, "/") {
			return l.errAt(base+".edit_path", `edit_path %q of model %q must start with "/" (it is relative to the base URL, like "/images/edits")`, m.EditPath, m.Name)
		}
		if m.MaxTokensField, err = l.maxTokensField(e, base, m.Name); err != nil {
			return err
		}
		if m.Params, err = l.params(e, base, "model "+m.Name); err != nil {
			return err
		}
		if m.Price, err = l.price(e, base, m.Name); err != nil {
			return err
		}
		c.Models = append(c.Models, m)
	}
	return nil
}

func (l *loader) definedProviders() string {
	if len(l.c.Providers) == 0 {
		return "the file defines no [[providers]]; add one or drop provider = from this model"
	}
	names := make([]string, len(l.c.Providers))
	for i, p := range l.c.Providers {
		names[i] = p.Name
	}
	return "defined providers: " + strings.Join(names, ", ")
}
