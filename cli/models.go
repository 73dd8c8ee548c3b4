package cli

import (
	"context"
	"errors"
	"fmt"
	"parley/config"

	"net/http"
	"sort"
	"strings"
	"text/tabwriter"
	"time"

	"github.com/spf13/cobra"

	"parley/api"
	"parley/termsafe"
)

func (a *app) modelsCommand() *cobra.Command {
	return &cobra.Command{
		Use:   "models",
		Short: "List the configured models, their capabilities, and the models the gateway offers",
		Args:  usageArgs(cobra.NoArgs),
		RunE: func(cmd *cobra.Command, _ []string) error {
			return a.models(cmd.Context())
		},
	}
}

// listTimeout bounds GET /models: the listing is a convenience.
const listTimeout = 15 * time.Second

func (a *app) models(ctx context.Context) error {
	cfg, err := a.loadConfig()
	if err != nil {
		return err
	}
	out := a.env.Stdout
	catalog := cfg.Catalog()
	configured := catalog.Configured()
	known := map[string]bool{}
	if len(configured) == 0 {
		fmt.Fprintf(out, "No models configured in %s.\n", a.displayPath(cfg.Path))
	} else {
		fmt.Fprintf(out, "Configured models (%s):\n", a.displayPath(cfg.Path))
		tw := tabwriter.NewWriter(out, 2, 4, 2, ' ', 0)
		for _, m := range configured {
			known[m.Name] = true
			fmt.Fprintf(tw, "  %s\t%s\t%s\n", termsafe.Sanitize(m.Name), m.Provider, capsText(m.Caps))
		}
		tw.Flush()
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
	ids, err := client.ListModels(ctx)
	var apiErr *api.APIError
	if errors.As(err, &apiErr) && (apiErr.StatusCode == http.StatusNotFound || apiErr.StatusCode == http.StatusMethodNotAllowed) {
		fmt.Fprintf(out, "\nThe gateway at %s does not list its models.\n", client.BaseURL())
		return nil
	}
	if err != nil {
		return fmt.Errorf("could not list the models of provider %q: %w", provider, err)
	}
	sort.Strings(ids)
	catalog := cfg.Catalog()
	fmt.Fprintf(out, "\nModels offered by %s (provider %q): %d\n", client.BaseURL(), provider, len(ids))
	tw := tabwriter.NewWriter(out, 2, 4, 2, ' ', 0)
	for _, id := range ids {
		mark := " "
		if known[id] {
			mark = "*"
		}
		fmt.Fprintf(tw, "%s %s\t%s\n", mark, termsafe.Sanitize(id), capsText(catalog.Lookup(id).Caps))
	}
	tw.Flush()
	if len(known) > 0 {
		fmt.Fprintln(out, "(* configured)")
	}
	return nil
}

// capsText lists capabilities in words, e.g. "chat, vision, usage".
func capsText(c api.Capabilities) string {
	var parts []string
	if !c.ImageGeneration && !c.ImageEdit {
		parts = append(parts, "chat")
	}
	if c.Vision {
		parts = append(parts, "vision")
	}
	if c.StreamUsage {
		parts = append(parts, "usage")
	}
	if c.ImageGeneration {
		parts = append(parts, "image generation")
	}
	if c.ImageEdit {
		parts = append(parts, "image editing")
	}
	if len(c.Sizes) > 0 {
		parts = append(parts, "sizes "+strings.Join(c.Sizes, " "))
	}
	if c.ImageGeneration && c.MaxN > 1 {
		parts = append(parts, fmt.Sprintf("n ≤ %d", c.MaxN))
	}
	return strings.Join(parts, ", ")
}
