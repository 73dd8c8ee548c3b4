package api

import (
	"cmp"
	"fmt"
	"strconv"
	"strings"
)

// Sources of a Model's capabilities.
const (
	SourceConfig  = "config"  // declared under [[models]] (merged over the built-ins)
	SourceBuiltin = "builtin" // a well-known name
	SourceDefault = "default" // unknown: a plain chat model
	SourceGateway = "gateway" // the gateway's model list said what it takes (over the built-ins)
)

// Model is a model name with its capabilities.
type Model struct {
	Name     string
	Provider string // provider name from config; "" = the default provider
	Caps     Capabilities
	Source   string // SourceConfig, SourceBuiltin, SourceGateway or SourceDefault
	// Price is what the model costs (input_price and output_price of its
	// [[models]] entry); nil when not known.
	Price *Price
	// Declared are the capabilities the config states, true or false:
	// what the gateway's model list says does not change them.
	Declared []Capability
}

// Catalog answers what a model can do and refuses requests a model cannot
// serve before they are sent. It is immutable once built; a nil *Catalog
// behaves like an empty one (built-ins only).
type Catalog struct {
	configured []Model
	configPath string
	// listed are the ids the gateway offers (once asked): refusals name
	// those among them that have the capability, by built-in knowledge.
	listed []string
	// fixed names where the models come from when no config file line
	// changes them (Fixed); "" for the config's models.
	fixed string
	// prices are those the gateway's model list gave (WithPrices).
	prices map[string]Price
	// gateway is what the gateway's model list says each model takes and
	// makes, by lower-case id (WithGateway).
	gateway map[string]ModelInfo
}

// NewCatalog builds a catalog from configured models, whose Caps are taken as
// complete (the config package merges them over the built-ins).
func NewCatalog(configured []Model) *Catalog {
	c := &Catalog{configured: make([]Model, len(configured))}
	for i, m := range configured {
		m.Caps.Sizes = append([]string(nil), m.Caps.Sizes...)
		if m.Source == "" {
			m.Source = SourceConfig
		}
		c.configured[i] = m
	}
	return c
}

// WithConfigPath returns a copy of the catalog whose refusals point at the
// config file path (where the user would declare a capability).
func (c *Catalog) WithConfigPath(path string) *Catalog {
	n := &Catalog{configPath: path}
	if c != nil {
		n.configured, n.listed, n.fixed, n.gateway = c.configured, c.listed, c.fixed, c.gateway
		n.prices = c.prices
	}
	return n
}

// WithListed returns a copy of the catalog that knows the gateway's model
// ids, so refusals can name the models the user can actually use.
func (c *Catalog) WithListed(ids []string) *Catalog {
	n := &Catalog{listed: append([]string(nil), ids...)}
	if c != nil {
		n.configured, n.configPath, n.fixed, n.gateway = c.configured, c.configPath, c.fixed, c.gateway
		n.prices = c.prices
	}
	return n
}

// Fixed returns a copy whose models' capabilities no config file changes
// (the built-in demo, named by label): refusals then give no config
// advice.
func (c *Catalog) Fixed(label string) *Catalog {
	n := *c
	n.fixed = label
	return &n
}

// ConfigPath is the config file named in refusals ("" = not known).
func (c *Catalog) ConfigPath() string {
	if c == nil {
		return ""
	}
	return c.configPath
}

// Configured returns the configured models in config order.
func (c *Catalog) Configured() []Model {
	if c == nil {
		return nil
	}
	out := make([]Model, len(c.configured))
	copy(out, c.configured)
	return out
}

// Lookup returns a configured model (exact name, else case-insensitive), else
// a built-in one, else a plain chat model with Source SourceDefault.
func (c *Catalog) Lookup(name string) Model {
	if m, ok := c.configuredModel(name); ok {
		m.Caps.Sizes = append([]string(nil), m.Caps.Sizes...)
		return c.gatewaySays(m)
	}
	if caps, ok := BuiltinCapabilities(name); ok {
		return c.gatewaySays(Model{Name: name, Caps: caps, Source: SourceBuiltin})
	}
	return c.gatewaySays(Model{Name: name, Source: SourceDefault})
}

func (c *Catalog) configuredModel(name string) (Model, bool) {
	if c == nil {
		return Model{}, false
	}
	for _, m := range c.configured {
		if m.Name == name {
			return m, true
		}
	}
	for _, m := range c.configured {
		if strings.EqualFold(m.Name, name) {
			return m, true
		}
	}
	return Model{}, false
}

// ModelsWith names the models the user can use that have cap: the
// configured ones first, then those the gateway listed (by built-in
// knowledge of their names), without repeats. Built-in families the user
// has no model of are not named: a refusal should point at something that
// works here.
func (c *Catalog) ModelsWith(cap Capability) []string {
	var out []string
	seen := map[string]bool{}
	add := func(n string) {
		if k := strings.ToLower(n); !seen[k] {
			seen[k] = true
			out = append(out, n)
		}
	}
	if c == nil {
		return nil
	}
	for _, m := range c.configured {
		if m.Caps.Has(cap) {
			add(m.Name)
		}
	}
	for _, id := range c.listed {
		if c.Lookup(id).Caps.Has(cap) {
			add(id)
		}
	}
	return out
}

// Require returns nil when model has cap, else a *CapabilityError naming the
// models that have it and the config line that would declare it.
func (c *Catalog) Require(model string, cap Capability) error {
	if c.Lookup(model).Caps.Has(cap) {
		return nil
	}
	return &CapabilityError{
		Model:      model,
		Capability: cap,
		Models:     c.ModelsWith(cap),
		ConfigPath: c.ConfigPath(),
		Fixed:      c.fixed,
	}
}

// ImageOptions are the optional fields of an image request, filtered by what
// the model accepts.
type ImageOptions struct {
	N              int    // 0 = leave n out
	Size           string // "" = leave size out
	ResponseFormat string // "b64_json" where the model accepts it, else ""
	EditPath       string // the model's edit endpoint (edits only)
}

// ImageOptions checks that model has cap (CapImageGeneration or CapImageEdit)
// and accepts n images of size, and returns the fields to send: n only when
// asked for (n > 0) and the model declares a maximum, size only when given,
// response_format "b64_json" only for models that take it. n = 0 and size = ""
// mean the gateway's defaults.
func (c *Catalog) ImageOptions(model string, cap Capability, n int, size string) (ImageOptions, error) {
	if err := c.Require(model, cap); err != nil {
		return ImageOptions{}, err
	}
	m := c.Lookup(model)
	caps := m.Caps
	refuse := func(option, value string, accepted []string, malformed bool) error {
		e := &CapabilityError{Model: model, Option: option, Value: value, Accepted: accepted,
			Malformed: malformed, ConfigPath: c.ConfigPath(), Fixed: c.fixed}
		if option == "size" && len(caps.Sizes) == 0 {
			e.UpTo = caps.MaxSide
		}
		return e
	}
	if n < 0 {
		return ImageOptions{}, refuse("n", strconv.Itoa(n), []string{"1-" + strconv.Itoa(caps.MaxImages())}, true)
	}
	if n > caps.MaxImages() {
		return ImageOptions{}, refuse("n", strconv.Itoa(n), []string{strconv.Itoa(caps.MaxImages())}, false)
	}
	if size != "" {
		if !ValidSize(size) {
			return ImageOptions{}, refuse("size", size, caps.Sizes, true)
		}
		if !caps.AcceptsSize(size) {
			return ImageOptions{}, refuse("size", size, caps.Sizes, false)
		}
	}
	opts := ImageOptions{Size: size}
	if n > 0 && caps.MaxN > 0 {
		opts.N = n
	}
	if caps.ResponseFormat {
		opts.ResponseFormat = "b64_json"
	}
	if cap == CapImageEdit {
		opts.EditPath = caps.EditEndpoint()
	}
	return opts, nil
}

// ImageRequest builds a generation request for model, sending n, size and
// response_format only where the model accepts them (see ImageOptions).
func (c *Catalog) ImageRequest(model, prompt string, n int, size string) (ImageRequest, error) {
	opts, err := c.ImageOptions(model, CapImageGeneration, n, size)
	if err != nil {
		return ImageRequest{}, err
	}
	return ImageRequest{Model: model, Prompt: prompt, N: opts.N, Size: opts.Size, ResponseFormat: opts.ResponseFormat}, nil
}

// StreamOptionsFor returns include_usage for models that report usage and nil
// otherwise, since the spec requires stream_options to be left out then.
func (c *Catalog) StreamOptionsFor(model string) *StreamOptions {
	if c.Lookup(model).Caps.StreamUsage {
		return &StreamOptions{IncludeUsage: true}
	}
	return nil
}

// CapabilityError refuses a request before it is sent: the model lacks a
// capability, or does not accept an option value (size, n).
type CapabilityError struct {
	Model      string
	Capability Capability // the capability missing (0 for an option refusal)
	Models     []string   // models that have Capability

	Option   string   // "size" or "n" for an option refusal
	Value    string   // the refused value
	Accepted []string // what the model accepts (sizes; for n the maximum)
	// UpTo is the MaxSide of a model that lists no sizes: it accepts auto
	// or any <width>x<height> up to UpTo x UpTo (0: not known).
	UpTo      int
	Malformed bool // Value is not a valid value at all

	ConfigPath string // config file to point at ("" = unknown)

	// Fixed names where the models come from when no config line changes
	// what they can do (the built-in demo): the refusal gives no config
	// advice then.
	Fixed string

	// ListedBy says where every model with the capability is listed, for
	// a refusal that names only the first few ("" = "`parley models`";
	// the chat says "/model").
	ListedBy string
}

// namedInRefusal is how many models a refusal names before "and N more":
// the advice that fixes it comes first and must stay readable.
const namedInRefusal = 3

func (e *CapabilityError) where() string {
	if e.ConfigPath == "" {
		return "in your parley config file"
	}
	return "in " + e.ConfigPath
}

func (e *CapabilityError) under() string {
	return fmt.Sprintf("under [[models]] name = %q %s", e.Model, e.where())
}

// Error is the refusal as one or two sentences: what is wrong, what has the
// capability, and the config line that would declare it.
func (e *CapabilityError) Error() string {
	switch {
	case e.Option == "size" && e.Malformed:
		msg := fmt.Sprintf("size %q is not <width>x<height> (like 1024x1024) or auto", e.Value)
		if accepts := e.acceptedSizes(); accepts != "" {
			msg += fmt.Sprintf("; model %q%s accepts %s", e.Model, e.of(), accepts)
		}
		return msg + "."
	case e.Option == "size":
		msg := fmt.Sprintf("model %q%s does not accept size %s; it accepts %s.", e.Model, e.of(), e.Value, e.acceptedSizes())
		switch {
		case e.Fixed != "":
			return msg
		case e.UpTo > 0:
			return msg + fmt.Sprintf(" If it takes larger sizes, raise max_side %s.", e.under())
		}
		return msg + fmt.Sprintf(" If it does, add %q to sizes %s.", e.Value, e.under())
	case e.Option == "n" && e.Malformed:
		return fmt.Sprintf("the number of images must be at least 1, not %s.", e.Value)
	case e.Option == "n":
		max := "1"
		if len(e.Accepted) > 0 {
			max = e.Accepted[0]
		}
		noun := "images"
		if max == "1" {
			noun = "image"
		}
		if e.Fixed != "" {
			return fmt.Sprintf("model %q%s makes at most %s %s per request, not %s; ask for at most %s.", e.Model, e.of(), max, noun, e.Value, max)
		}
		return fmt.Sprintf("model %q makes at most %s %s per request, not %s; ask for at most %s, or if it can make more, set max_n = %s %s.",
			e.Model, max, noun, e.Value, max, e.Value, e.under())
	}
	if e.Fixed != "" {
		return fmt.Sprintf("model %q of %s %s; %s.", e.Model, e.Fixed, e.Capability.lacks(), strings.TrimPrefix(e.others(), "otherwise "))
	}
	return fmt.Sprintf("model %q %s. If it can, add %s = true %s; %s.",
		e.Model, e.Capability.lacks(), e.Capability.ConfigKey(), e.under(), e.others())
}

// of says where a fixed model comes from (" of the built-in demo"), ""
// for the config's.
func (e *CapabilityError) of() string {
	if e.Fixed == "" {
		return ""
	}
	return " of " + e.Fixed
}

// acceptedSizes says which sizes the model accepts ("" when not known).
func (e *CapabilityError) acceptedSizes() string {
	if e.UpTo > 0 {
		return fmt.Sprintf("auto or any <width>x<height> up to %dx%d", e.UpTo, e.UpTo)
	}
	return strings.Join(e.Accepted, ", ")
}

// others names the models that have the capability: the first few, then
// how many more and where all of them are listed.
func (e *CapabilityError) others() string {
	if len(e.Models) == 0 {
		return "no model you have is known to have it"
	}
	n := min(len(e.Models), namedInRefusal)
	names := make([]string, n)
	for i, m := range e.Models[:n] {
		names[i] = escapeBreaks(m)
	}
	list := strings.Join(names, ", ")
	if more := len(e.Models) - n; more > 0 {
		where := cmp.Or(e.ListedBy, "`parley models`")
		list += fmt.Sprintf(" and %d more (%s lists them)", more, where)
	}
	return "otherwise use one of the " + e.Capability.holders() + ": " + list
}

// breakEscapes shows line breaks and tabs as `\n` and `\t`.
var breakEscapes = strings.NewReplacer("\r\n", `\n`, "\n", `\n`, "\t", `\t`)

// escapeBreaks keeps a name from the config or a gateway on one line in a
// message, the way termsafe.Line does on screen (this package cannot use
// termsafe; whoever prints the message sanitises the rest).
func escapeBreaks(s string) string {
	if !strings.ContainsAny(s, "\n\t") {
		return s
	}
	return breakEscapes.Replace(s)
}
