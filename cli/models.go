package cli

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"sort"
	"text/tabwriter"
	"time"

	"github.com/spf13/cobra"

	"parley/api"
	"parley/config"
	"parley/termsafe"
)

func (a *app) modelsCommand() *cobra.Command {
	return &cobra.Command{
		Use:   "models",
		Short: "List the configured models, their capabilities, and the models the gateway offers",
		Long: `List what the configuration resolves to (the config file, each provider with
its base URL and where its key comes from, each configured model with its
capabilities), then the model ids each gateway offers (GET /v1/models) with
the capabilities parley assumes for them.`,
		Args: noArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			return a.models(cmd.Context())
		},
	}
}

// listTimeout bounds GET /models: the listing is a convenience.
const listTimeout = 15 * time.Second

func (a *app) models(ctx context.Context) error {
	cfg, err := a.loadGatewayConfig("models")
	if err != nil {
		return err
	}
	out := a.env.Stdout
	// Describe never shows keys and keeps every field on its line; the whole
	// text is made inert like everything else printed.
	fmt.Fprint(out, termsafe.Sanitize(cfg.Describe()))
	known := map[string]bool{}
	for _, m := range cfg.ModelList() {
		known[m.Name] = true
	}
	if len(known) == 0 {
		fmt.Fprintln(out, "models: none configured (parley knows the capabilities of well-known names; declare others under [[models]])")
	}
	var firstErr error
	for _, p := range cfg.Providers {
		err := a.listProvider(ctx, cfg, p.Name, known)
		if err != nil && firstErr == nil {
			firstErr = err
		}
	}
	return firstErr
}

func (a *app) listProvider(ctx context.Context, cfg *config.Config, provider string, known map[string]bool) error {
	out := a.env.Stdout
	client, err := a.providerClient(cfg, provider)
	if err != nil {
		return err
	}
	ctx, cancel := context.WithTimeout(ctx, listTimeout)
	defer cancel()
	infos, err := client.ListModelInfo(ctx)
	var apiErr *api.APIError
	if errors.As(err, &apiErr) && (apiErr.StatusCode == http.StatusNotFound || apiErr.StatusCode == http.StatusMethodNotAllowed) {
		fmt.Fprintf(out, "\nThe gateway at %s does not list its models.\n", client.BaseURL())
		return nil
	}
	if err != nil {
		return fmt.Errorf("could not list the models of provider %q: %w", provider, err)
	}
	a.rememberModels(cfg, provider, infos)
	ids := api.ModelIDs(infos)
	sort.Strings(ids)
	catalog := cfg.Catalog().WithGateway(infos)
	fmt.Fprintf(out, "\nModels offered by %s (provider %q): %d\n", client.BaseURL(), provider, len(ids))
	tw := tabwriter.NewWriter(out, 2, 4, 2, ' ', 0)
	marked := false
	for _, id := range ids {
		mark := " "
		if known[id] {
			mark, marked = "*", true
		}
		// One row per id: an id with a newline must not forge the next row.
		fmt.Fprintf(tw, "%s %s\t%s\n", mark, termsafe.Line(id), catalog.Lookup(id).Caps.Summary())
	}
	tw.Flush()
	if marked {
		fmt.Fprintln(out, "(* configured)")
	}
	return nil
}
