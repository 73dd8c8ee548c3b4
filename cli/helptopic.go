package cli

import (
	"fmt"
	"strings"

	"github.com/spf13/cobra"

	"parley/internal/demo"
	"parley/ui/cells"
)

// configHelpTopic is "parley help config": the configuration file at a glance.
func configHelpTopic() *cobra.Command {
	return &cobra.Command{
		Use:   "config",
		Short: "How to configure gateways, models, themes and keys",
		Long: `parley reads $XDG_CONFIG_HOME/parley/config.toml (~/.config/parley/config.toml),
or the file named by PARLEY_CONFIG or --config. Without a file, OPENAI_BASE_URL
(default https://api.openai.com/v1) and OPENAI_API_KEY define the gateway.

  default_model = "gpt-4o"
  image_model = "gpt-image-1"
  image_dir = "~/Pictures/parley"
  # theme: auto, dark, light, high-contrast, nord, gruvbox, solarized-light
  theme = "auto"
  mouse = false                       # mouse-wheel scrolling in the chat
  system_prompt = "Answer briefly."
  max_history_messages = 0            # 0 sends the whole conversation
  max_reply_bytes = "8MiB"            # a longer reply stops there, kept so far
  history = true                      # keep sessions in $XDG_DATA_HOME/parley
  auto_title = false                  # ask the model for a short session title
  attach_max_text_bytes = "256KB"     # the largest text file (refused, not cut)
  attach_max_text_total = "1MB"       # the text files of one message together
  # a region screenshot; without {file} the command writes a PNG on stdout
  screenshot_cmd = "grim -g \"$(slurp)\" {file}"
  screenshots_dir = "~/Pictures/Screenshots"     # where /attach latest looks

  [[providers]]
  name = "openai"
  base_url = "https://api.openai.com/v1"
  api_key_env = "OPENAI_API_KEY"      # or: api_key_cmd = "pass show openai"
  headers = { "X-Title" = "parley" }  # extra request headers
  # proxy = "http://proxy.example:3128"

  [[models]]
  name = "llava"
  vision = true                       # declares what a model can do
  params = { temperature = 0.7, max_tokens = 500, top_p = 0.9 }
  # also: reasoning_effort = "low", seed = 1, stop = ["###"],
  # presence_penalty = 0.0, frequency_penalty = 0.0

  [[models]]
  name = "my-reasoner"
  max_tokens_field = "max_completion_tokens"   # a model that refuses max_tokens

  [[roles]]                           # /role NAME in the chat, --role NAME
  name = "reviewer"
  system_prompt = "Review code tersely."
  model = "gpt-4o"                    # optional
  params = { temperature = 0.2 }      # optional, over the model's params

  [keys]
  send = ["enter"]

The README lists every key with its default.`,
	}
}

// demoHelpTopic is "parley help demo": the built-in demo and its models.
func demoHelpTopic() *cobra.Command {
	// The models and what each shows, the text wrapped under itself
	// within helpWidth.
	name := 0
	for _, m := range demo.Models() {
		name = max(name, len(m.Name))
	}
	indent := 2 + name + 3
	var models strings.Builder
	for _, m := range demo.Models() {
		fmt.Fprintf(&models, "  %-*s   %s\n", name, m.Name, strings.Join(cells.Wrap(m.Shows, helpWidth-indent), "\n"+strings.Repeat(" ", indent)))
	}
	return &cobra.Command{
		Use:   "demo",
		Short: "Try parley without a gateway: the built-in demo and its models",
		Long: `--demo, a flag of every command, starts a gateway inside parley on 127.0.0.1
and uses it instead of the configured ones: no account is needed and nothing
leaves this machine. OPENAI_BASE_URL, OPENAI_API_KEY and the config file's
providers and models are ignored (and no key is read); the rest of the config
file (theme, keys, timeouts) still applies. The chat says "demo" in its status
bar and the demo is kept out of your history. The demo keeps nothing: the
images it makes (parley image, /image in the chat) go to a temporary folder it
names, not to image_dir.

The demo models:

` + models.String() + `
  parley --demo                          chat with demo-chat
  parley --demo -m demo-vision           paste an image path, then ask
  parley --demo -m demo-think            reasoning shown apart, then folded
  parley ask --demo "hello"              one reply on stdout
  parley ask --demo -m demo-files -a notes.md "what is in it?"
  parley image --demo -n 2 "red kite"    PNGs saved to a temporary folder
  parley image --demo --edit in.png "make it blue"
  parley models --demo                   the models and what they can do`,
	}
}
