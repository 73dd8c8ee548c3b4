package cli

import "github.com/spf13/cobra"

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
  theme = "auto"                      # dark, light, high-contrast, nord, gruvbox, solarized-light
  mouse = false                       # mouse-wheel scrolling in the chat
  system_prompt = "Answer briefly."
  max_history_messages = 0            # 0 sends the whole conversation
  history = true                      # keep sessions in $XDG_DATA_HOME/parley (see parley sessions)
  auto_title = false                  # ask the model for a short session title

  [[providers]]
  name = "openai"
  base_url = "https://api.openai.com/v1"
  api_key_env = "OPENAI_API_KEY"      # or: api_key_cmd = "pass show openai"
  headers = { "X-Title" = "parley" }  # extra request headers
  # proxy = "http://proxy.example:3128"

  [[models]]
  name = "llava"
  vision = true                       # declares what a model can do

  [keys]
  send = ["enter"]

The README lists every key with its default.`,
	}
}
