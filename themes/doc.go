// Package themes turns named colour roles into everything parley draws
// with: lipgloss styles for the interface (Theme.Styles), a glamour style
// with a matching chroma palette for Markdown (Theme.Glamour,
// Theme.NewRenderer), and the list of themes a user can pick (Set):
// built-ins (dark, light, high-contrast, nord, gruvbox, solarized-light)
// and user themes from TOML files (LoadDir).
//
// NO_COLOR is a parameter (noColor), never read from the environment here:
// styles then carry no colour at all, while bold, italic, underline, faint
// and reverse keep focus, selection and turn states visible.
//
// With 16 colours (TERM=xterm, the Linux console) the nearest of the 16
// is often unreadable (grey becomes dark blue on black): Theme.ForProfile
// maps every role to a 16-colour index that keeps its text readable on
// its background in the common default palettes (Readable16).
package themes
