package themes

// Names of the built-in themes, and the pseudo-theme that picks dark or
// light from the terminal background.
const (
	Auto           = "auto"
	Dark           = "dark"
	Light          = "light"
	HighContrast   = "high-contrast"
	Nord           = "nord"
	Gruvbox        = "gruvbox"
	SolarizedLight = "solarized-light"
)

// Builtins returns the built-in themes, in the order pickers list them. Each
// call returns fresh values; callers may modify them.
func Builtins() []Theme {
	return []Theme{darkTheme(), lightTheme(), highContrastTheme(), nordTheme(), gruvboxTheme(), solarizedLightTheme()}
}

// darkTheme is parley's own dark palette: soft blue accent, cool neutrals.
func darkTheme() Theme {
	return Theme{
		Name: Dark, Dark: true, Source: "builtin",
		Text: "#d4d4d8", Muted: "#a1a1aa", Subtle: "#71717a", Accent: "#7aa2f7",
		Border: "#3f3f46", BorderFocus: "#7aa2f7", Surface: "#27272a",
		UserLabel: "#7dcfff", UserText: "#e4e4e7", AssistantLabel: "#bb9af7",
		Error: "#f7768e", Warning: "#e0af68", Success: "#9ece6a", Info: "#7dcfff",
		Selection: "#3d59a1", SelectionText: "#ffffff", Control: "#ff9e64",
		Heading: "#7aa2f7", Link: "#7dcfff", Quote: "#a1a1aa", InlineCode: "#ff9e64", InlineCodeBg: "#2f2f35",
		Syntax: Syntax{
			Text: "", Comment: "#7a7f99", Keyword: "#bb9af7", Type: "#2ac3de", String: "#9ece6a",
			Number: "#ff9e64", Function: "#7aa2f7", Builtin: "#7dcfff", Operator: "#89ddff", Punctuation: "#a9b1d6",
			Constant: "#ff9e64", Tag: "#f7768e", Attribute: "#e0af68", Decorator: "#e0af68",
			Deleted: "#f7768e", Inserted: "#9ece6a", Error: "#f7768e",
		},
	}
}

// lightTheme is parley's own light palette, with the contrast of common
// code-hosting light themes.
func lightTheme() Theme {
	return Theme{
		Name: Light, Dark: false, Source: "builtin",
		Text: "#24292f", Muted: "#57606a", Subtle: "#8c959f", Accent: "#0969da",
		Border: "#d0d7de", BorderFocus: "#0969da", Surface: "#eaeef2",
		UserLabel: "#0550ae", UserText: "#1f2328", AssistantLabel: "#8250df",
		Error: "#cf222e", Warning: "#9a6700", Success: "#1a7f37", Info: "#0969da",
		Selection: "#0969da", SelectionText: "#ffffff", Control: "#bc4c00",
		Heading: "#0550ae", Link: "#0969da", Quote: "#57606a", InlineCode: "#953800", InlineCodeBg: "#eff1f3",
		Syntax: Syntax{
			Text: "", Comment: "#6e7781", Keyword: "#cf222e", Type: "#953800", String: "#0a3069",
			Number: "#0550ae", Function: "#8250df", Builtin: "#0550ae", Operator: "#cf222e", Punctuation: "#24292f",
			Constant: "#0550ae", Tag: "#116329", Attribute: "#0550ae", Decorator: "#8250df",
			Deleted: "#82071e", Inserted: "#116329", Error: "#cf222e",
		},
	}
}

// highContrastTheme uses white on the (assumed black) background, saturated
// bright colours and no low-contrast greys.
func highContrastTheme() Theme {
	return Theme{
		Name: HighContrast, Dark: true, Source: "builtin",
		Text: "#ffffff", Muted: "#e4e4e4", Subtle: "#c6c6c6", Accent: "#ffff00",
		Border: "#c6c6c6", BorderFocus: "#ffff00", Surface: "#000000",
		UserLabel: "#00ffff", UserText: "#ffffff", AssistantLabel: "#ff87ff",
		Error: "#ff5f5f", Warning: "#ffff00", Success: "#5fff5f", Info: "#00ffff",
		Selection: "#ffff00", SelectionText: "#000000", Control: "#ff8700",
		Heading: "#ffff00", Link: "#00ffff", Quote: "#e4e4e4", InlineCode: "#5fff5f", InlineCodeBg: "",
		Syntax: Syntax{
			Text: "", Comment: "#c6c6c6", Keyword: "#ff87ff", Type: "#00ffff", String: "#5fff5f",
			Number: "#ffff00", Function: "#87d7ff", Builtin: "#00ffff", Operator: "#ffffff", Punctuation: "#ffffff",
			Constant: "#ffff00", Tag: "#ff87ff", Attribute: "#ffff00", Decorator: "#ffaf00",
			Deleted: "#ff5f5f", Inserted: "#5fff5f", Error: "#ff5f5f",
		},
	}
}

// nordTheme follows the Nord palette: polar night, snow storm, frost and
// aurora.
func nordTheme() Theme {
	return Theme{
		Name: Nord, Dark: true, Source: "builtin",
		Text: "#d8dee9", Muted: "#a5adba", Subtle: "#7b88a1", Accent: "#88c0d0",
		Border: "#4c566a", BorderFocus: "#88c0d0", Surface: "#3b4252",
		UserLabel: "#8fbcbb", UserText: "#e5e9f0", AssistantLabel: "#b48ead",
		Error: "#bf616a", Warning: "#ebcb8b", Success: "#a3be8c", Info: "#81a1c1",
		Selection: "#5e81ac", SelectionText: "#eceff4", Control: "#d08770",
		Heading: "#88c0d0", Link: "#81a1c1", Quote: "#a5adba", InlineCode: "#d08770", InlineCodeBg: "#3b4252",
		Syntax: Syntax{
			Text: "", Comment: "#7b88a1", Keyword: "#81a1c1", Type: "#8fbcbb", String: "#a3be8c",
			Number: "#b48ead", Function: "#88c0d0", Builtin: "#81a1c1", Operator: "#81a1c1", Punctuation: "#eceff4",
			Constant: "#b48ead", Tag: "#81a1c1", Attribute: "#8fbcbb", Decorator: "#d08770",
			Deleted: "#bf616a", Inserted: "#a3be8c", Error: "#bf616a",
		},
	}
}

// gruvboxTheme follows the gruvbox dark palette: warm, retro, high
// saturation.
func gruvboxTheme() Theme {
	return Theme{
		Name: Gruvbox, Dark: true, Source: "builtin",
		Text: "#ebdbb2", Muted: "#bdae93", Subtle: "#928374", Accent: "#fabd2f",
		Border: "#504945", BorderFocus: "#fabd2f", Surface: "#3c3836",
		UserLabel: "#83a598", UserText: "#fbf1c7", AssistantLabel: "#d3869b",
		Error: "#fb4934", Warning: "#fabd2f", Success: "#b8bb26", Info: "#83a598",
		Selection: "#665c54", SelectionText: "#fbf1c7", Control: "#fe8019",
		Heading: "#fabd2f", Link: "#83a598", Quote: "#bdae93", InlineCode: "#fe8019", InlineCodeBg: "#3c3836",
		Syntax: Syntax{
			Text: "", Comment: "#928374", Keyword: "#fb4934", Type: "#fabd2f", String: "#b8bb26",
			Number: "#d3869b", Function: "#8ec07c", Builtin: "#fe8019", Operator: "#8ec07c", Punctuation: "#bdae93",
			Constant: "#d3869b", Tag: "#8ec07c", Attribute: "#fabd2f", Decorator: "#fe8019",
			Deleted: "#fb4934", Inserted: "#b8bb26", Error: "#fb4934",
		},
	}
}

// solarizedLightTheme follows the Solarized palette on its light base.
func solarizedLightTheme() Theme {
	return Theme{
		Name: SolarizedLight, Dark: false, Source: "builtin",
		Text: "#586e75", Muted: "#657b83", Subtle: "#93a1a1", Accent: "#268bd2",
		Border: "#93a1a1", BorderFocus: "#268bd2", Surface: "#eee8d5",
		UserLabel: "#2aa198", UserText: "#073642", AssistantLabel: "#6c71c4",
		Error: "#dc322f", Warning: "#b58900", Success: "#859900", Info: "#268bd2",
		Selection: "#268bd2", SelectionText: "#fdf6e3", Control: "#cb4b16",
		Heading: "#cb4b16", Link: "#268bd2", Quote: "#657b83", InlineCode: "#d33682", InlineCodeBg: "#eee8d5",
		Syntax: Syntax{
			Text: "", Comment: "#93a1a1", Keyword: "#859900", Type: "#b58900", String: "#2aa198",
			Number: "#d33682", Function: "#268bd2", Builtin: "#cb4b16", Operator: "#859900", Punctuation: "#586e75",
			Constant: "#6c71c4", Tag: "#268bd2", Attribute: "#b58900", Decorator: "#cb4b16",
			Deleted: "#dc322f", Inserted: "#859900", Error: "#dc322f",
		},
	}
}
