package cli

import (
	"fmt"
	"io"
	"strings"

	"github.com/spf13/cobra"

	"parley/ui/cells"
)

// helpWidth is the most columns a line of help takes: help is read in
// terminals of 80 columns too, where a longer line breaks mid-phrase.
const helpWidth = 80

// writeUsage writes a command's usage as cobra's default template does,
// within helpWidth: a command's summary and a flag's usage wrap under
// their own start instead of running past the edge. The texts parley
// writes itself (Long, Example) are held to the width by
// TestHelpFitsEightyColumns.
func writeUsage(c *cobra.Command) error {
	w := c.OutOrStderr()
	fmt.Fprint(w, "Usage:")
	if c.Runnable() {
		fmt.Fprintf(w, "\n  %s", c.UseLine())
	}
	if c.HasAvailableSubCommands() {
		fmt.Fprintf(w, "\n  %s [command]", c.CommandPath())
	}
	if c.HasExample() {
		fmt.Fprintf(w, "\n\nExamples:\n%s", c.Example)
	}
	if c.HasAvailableSubCommands() {
		fmt.Fprint(w, "\n\nAvailable Commands:")
		for _, sub := range c.Commands() {
			if sub.IsAvailableCommand() || sub.Name() == "help" {
				listed(w, sub.Name(), sub.NamePadding(), sub.Short)
			}
		}
	}
	if c.HasAvailableLocalFlags() {
		fmt.Fprint(w, "\n\nFlags:\n", strings.TrimRight(c.LocalFlags().FlagUsagesWrapped(helpWidth), " \n"))
	}
	if c.HasAvailableInheritedFlags() {
		fmt.Fprint(w, "\n\nGlobal Flags:\n", strings.TrimRight(c.InheritedFlags().FlagUsagesWrapped(helpWidth), " \n"))
	}
	if c.HasHelpSubCommands() {
		fmt.Fprint(w, "\n\nAdditional help topics:")
		for _, sub := range c.Commands() {
			if sub.IsAdditionalHelpTopicCommand() {
				listed(w, sub.CommandPath(), sub.CommandPathPadding(), sub.Short)
			}
		}
	}
	if c.HasAvailableSubCommands() {
		fmt.Fprintf(w, "\n\nUse \"%s [command] --help\" for more information about a command.", c.CommandPath())
	}
	fmt.Fprintln(w)
	return nil
}

// listed writes one row of a list of commands: the name padded to pad,
// and the summary wrapped within helpWidth under its own first column.
func listed(w io.Writer, name string, pad int, summary string) {
	indent := 2 + max(pad, len(name)) + 1
	fmt.Fprintf(w, "\n  %-*s %s", max(pad, len(name)), name, strings.Join(cells.Wrap(summary, helpWidth-indent), "\n"+strings.Repeat(" ", indent)))
}
