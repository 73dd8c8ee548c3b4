package cli

import (
	"github.com/spf13/cobra"

	"parley/config"
	"parley/internal/demo"
)

// checkDemoFlags refuses a demo pace without --demo, or one the demo
// cannot keep, before anything starts.
func (a *app) checkDemoFlags(cmd *cobra.Command, _ []string) error {
	f := cmd.Flags().Lookup("demo-dps")
	if f == nil || !f.Changed {
		return nil
	}
	if !a.demo {
		return usagef("--demo-dps sets the pace of the built-in demo; add --demo")
	}
	if a.demoDPS > demo.MaxDeltasPerSecond {
		return usagef("--demo-dps %g is too fast; the demo streams at most %d deltas per second", a.demoDPS, demo.MaxDeltasPerSecond)
	}
	return nil
}

// useDemo starts the built-in demo gateway (once per invocation) and
// points cfg at it: its provider and models replace the ones of the config
// file and of OPENAI_BASE_URL/OPENAI_API_KEY, none of which is read or
// shown; the file's other settings (theme, keys, timeouts) still apply.
func (a *app) useDemo(cfg *config.Config) error {
	if a.gateway == nil {
		g, err := demo.Start(demo.Options{DeltasPerSecond: a.demoDPS})
		if err != nil {
			return err
		}
		a.gateway = g
	}
	cfg.ApplyOverride(a.gateway.Override())
	return nil
}

// closeDemo stops the demo gateway when this invocation ends, ending any
// reply it is still sending.
func (a *app) closeDemo() {
	if a.gateway != nil {
		a.gateway.Close()
	}
}
