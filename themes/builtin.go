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
// Every text colour reaches 4.5:1 on black and on the surface, in 24-bit
// and 256 colours (TestBuiltinsTextContrast); the subtle grey is lifted
// just enough to.
func darkTheme() Theme {
	return Theme{
		Name: Dark, Dark: true, Source: "builtin",
		Text: "#d4d4d8", Muted: "#a1a1aa", Subtle: "#74747d", Accent: "#7aa2f7",
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
// code-hosting light themes. The subtle and comment greys, the accent,
// success and warning are darkened just enough to reach 4.5:1 on white and
// on the surface, in 24-bit and 256 colours (TestBuiltinsTextContrast).
func lightTheme() Theme {
	return Theme{
		Name: Light, Dark: false, Source: "builtin",
		Text: "#24292f", Muted: "#57606a", Subtle: "#73777d", Accent: "#1068d6",
		Border: "#d0d7de", BorderFocus: "#1068d6", Surface: "#eaeef2",
		UserLabel: "#0550ae", UserText: "#1f2328", AssistantLabel: "#8250df",
		Error: "#cf222e", Warning: "#936200", Success: "#1c722f", Info: "#1068d6",
		Selection: "#1068d6", SelectionText: "#ffffff", Control: "#bc4c00",
		Heading: "#0550ae", Link: "#1068d6", Quote: "#57606a", InlineCode: "#953800", InlineCodeBg: "#eff1f3",
		Syntax: Syntax{
			Text: "", Comment: "#6a727c", Keyword: "#cf222e", Type: "#953800", String: "#0a3069",
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
// aurora. Nord's dimmer colours fall below 4.5:1 on its own background
// (nord0) and on the status bar (nord1), so its greys, most of its aurora
// and two of its frost colours are lifted, and the selection darkened, as
// little as reaches it in 24-bit and 256 colours (TestBuiltinsTextContrast).
func nordTheme() Theme {
	return Theme{
		Name: Nord, Dark: true, Source: "builtin",
		Text: "#d8dee9", Muted: "#aab1be", Subtle: "#8e9cb5", Accent: "#8ac3d3",
		Border: "#4c566a", BorderFocus: "#8ac3d3", Surface: "#3b4252",
		UserLabel: "#8fbcbb", UserText: "#e5e9f0", AssistantLabel: "#c393b4",
		Error: "#e29b9d", Warning: "#ebcb8b", Success: "#a7c390", Info: "#9bb0ca",
		Selection: "#4c6f9a", SelectionText: "#eceff4", Control: "#e49c85",
		Heading: "#8ac3d3", Link: "#9bb0ca", Quote: "#aab1be", InlineCode: "#e49c85", InlineCodeBg: "#3b4252",
		Syntax: Syntax{
			Text: "", Comment: "#8e9cb5", Keyword: "#81a1c1", Type: "#8fbcbb", String: "#a3be8c",
			Number: "#c393b4", Function: "#88c0d0", Builtin: "#81a1c1", Operator: "#81a1c1", Punctuation: "#eceff4",
			Constant: "#c393b4", Tag: "#81a1c1", Attribute: "#8fbcbb", Decorator: "#d18a73",
			Deleted: "#e27e87", Inserted: "#a3be8c", Error: "#e27e87",
		},
	}
}

// gruvboxTheme follows the gruvbox dark palette: warm, retro, high
// saturation. The grey, the red and the blue are lifted as little as
// reaches 4.5:1 on bg0 and on the status bar (bg1), in 24-bit and 256
// colours (TestBuiltinsTextContrast); the red of errors, which sits on the
// status bar, more than the red of code.
func gruvboxTheme() Theme {
	return Theme{
		Name: Gruvbox, Dark: true, Source: "builtin",
		Text: "#ebdbb2", Muted: "#bdae93", Subtle: "#9b8c7d", Accent: "#fabd2f",
		Border: "#504945", BorderFocus: "#fabd2f", Surface: "#3c3836",
		UserLabel: "#86a99c", UserText: "#fbf1c7", AssistantLabel: "#d3869b",
		Error: "#ff795f", Warning: "#fabd2f", Success: "#b8bb26", Info: "#86a99c",
		Selection: "#665c54", SelectionText: "#fbf1c7", Control: "#fe8019",
		Heading: "#fabd2f", Link: "#86a99c", Quote: "#bdae93", InlineCode: "#fe8019", InlineCodeBg: "#3c3836",
		Syntax: Syntax{
			Text: "", Comment: "#9b8c7d", Keyword: "#ff4f38", Type: "#fabd2f", String: "#b8bb26",
			Number: "#d3869b", Function: "#8ec07c", Builtin: "#fe8019", Operator: "#8ec07c", Punctuation: "#bdae93",
			Constant: "#d3869b", Tag: "#8ec07c", Attribute: "#fabd2f", Decorator: "#fe8019",
			Deleted: "#ff4f38", Inserted: "#b8bb26", Error: "#ff4f38",
		},
	}
}

// solarizedLightTheme follows the Solarized palette on its light base.
// Solarized's accents and greys are made for less contrast than 4.5:1 on
// base3 and base2 (its blue measured 3.4, its yellow 3.0), so each is
// darkened as little as reaches it in 24-bit and 256 colours
// (TestBuiltinsTextContrast), the interface's more than the code's where
// they sit on the status bar; the text grey also keeps a step above the
// muted one (TestBuiltinsKeepTheirGreyTiers).
func solarizedLightTheme() Theme {
	return Theme{
		Name: SolarizedLight, Dark: false, Source: "builtin",
		Text: "#485b62", Muted: "#54676e", Subtle: "#6b7272", Accent: "#046ea9",
		Border: "#93a1a1", BorderFocus: "#046ea9", Surface: "#eee8d5",
		UserLabel: "#24726b", UserText: "#073642", AssistantLabel: "#646abb",
		Error: "#c22f2a", Warning: "#846400", Success: "#5f7000", Info: "#046ea9",
		Selection: "#046ea9", SelectionText: "#fdf6e3", Control: "#d72f00",
		Heading: "#d72f00", Link: "#046ea9", Quote: "#54676e", InlineCode: "#c22476", InlineCodeBg: "#eee8d5",
		Syntax: Syntax{
			Text: "", Comment: "#6b7272", Keyword: "#6f7200", Type: "#926b00", String: "#24726b",
			Number: "#cf2d7d", Function: "#0172c8", Builtin: "#d72f00", Operator: "#6f7200", Punctuation: "#586e75",
			Constant: "#646abb", Tag: "#0172c8", Attribute: "#926b00", Decorator: "#d72f00",
			Deleted: "#d72e2c", Inserted: "#6f7200", Error: "#d72e2c",
		},
	}
}
