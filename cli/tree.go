package cli

import (
	"time"

	"github.com/spf13/cobra"
)

// CommandTree is parley's command tree as the binary has it, completion
// command included, attached to no terminal, file or gateway, for the
// release's man page generator (scripts/gendocs): it is there to be
// described, not run.
func CommandTree() *cobra.Command {
	a := newApp(Env{Getenv: func(string) string { return "" }, Now: time.Now})
	root := a.rootCommand()
	checkCompletionCommand(root)
	return root
}
