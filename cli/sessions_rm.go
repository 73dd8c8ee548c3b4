package cli

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"io"
	"strings"

	"github.com/spf13/cobra"

	"parley/session"
	"parley/termsafe"
)

type rmFlags struct {
	yes bool
	all bool
}

func (c *sessionsCmd) sessionsRmCommand() *cobra.Command {
	var f rmFlags
	cmd := &cobra.Command{
		Use:   "rm ID...",
		Short: "Delete sessions (asks first on a terminal)",
		Long: `Delete sessions with their messages and drafts, and the stored images no other
session uses. On a terminal parley asks first; elsewhere --yes is required.
--all deletes every session.`,
		Example: `  parley sessions rm 0190f0a1b2c3
  parley sessions rm --all --yes`,
		Args:              cobra.ArbitraryArgs,
		ValidArgsFunction: completeSessionIDs(c.env, true),
		RunE: func(cmd *cobra.Command, args []string) error {
			return c.sessionsRm(cmd.Context(), args, f)
		},
	}
	cmd.Flags().BoolVarP(&f.yes, "yes", "y", false, "delete without asking")
	cmd.Flags().BoolVar(&f.all, "all", false, "delete every session")
	return cmd
}

func (c *sessionsCmd) sessionsRm(ctx context.Context, prefixes []string, f rmFlags) error {
	switch {
	case f.all && len(prefixes) > 0:
		return usagef("--all deletes every session; give either --all or session ids, not both")
	case !f.all && len(prefixes) == 0:
		return usagef("give the ids of the sessions to delete (from \"parley sessions list\"), or --all")
	case !f.yes && !c.env.StdinIsTerminal:
		return usagef("deleting needs a confirmation and stdin is not a terminal; add --yes to delete without asking")
	}
	err := c.withStore(ctx, func(s *session.Store) error {
		var ids []string
		var what string
		if f.all {
			n, err := s.Count(ctx)
			if err != nil {
				return err
			}
			if n == 0 {
				c.console.say("there are no sessions to delete")
				return nil
			}
			what = fmt.Sprintf("all %d sessions", n)
		} else {
			seen := map[string]bool{}
			var titles []string
			for _, p := range prefixes {
				id, err := c.sessionID(ctx, s, p)
				if err != nil {
					return err
				}
				if seen[id] {
					continue
				}
				seen[id] = true
				ids = append(ids, id)
				m, err := s.Get(ctx, id)
				if err != nil {
					return err
				}
				titles = append(titles, fmt.Sprintf("%q", listTitle(m)))
			}
			what = fmt.Sprintf("%s (%s)", plural(len(ids), "session"), strings.Join(titles, ", "))
		}
		if !f.yes {
			ok, err := c.confirm(ctx, "Delete "+what+"? [y/N] ")
			if err != nil {
				return err
			}
			if !ok {
				c.console.say("nothing was deleted")
				return nil
			}
		}
		var n int
		var err error
		if f.all {
			n, err = s.DeleteAll(ctx)
		} else {
			n, err = s.Delete(ctx, ids...)
		}
		if err != nil {
			return err
		}
		c.console.say("deleted " + plural(n, "session"))
		return nil
	})
	if errors.Is(err, errNoHistory) && f.all {
		c.console.say("there are no sessions to delete")
		return nil
	}
	return noSession(err, strings.Join(prefixes, " "))
}

// confirm asks a yes/no question on stderr and reads the answer from
// stdin; only "y" or "yes" is yes.
func (c *sessionsCmd) confirm(ctx context.Context, question string) (bool, error) {
	fmt.Fprint(c.env.Stderr, termsafe.Sanitize(question))
	line, err := readLine(ctx, c.env.Stdin)
	if err != nil {
		return false, err
	}
	switch strings.ToLower(strings.TrimSpace(line)) {
	case "y", "yes":
		return true, nil
	}
	return false, nil
}

// readLine reads one line, or returns when ctx ends (a read cannot be
// interrupted; the reading goroutine is left to the exiting process).
func readLine(ctx context.Context, r io.Reader) (string, error) {
	if r == nil {
		return "", nil
	}
	type result struct {
		line string
		err  error
	}
	done := make(chan result, 1)
	go func() {
		line, err := bufio.NewReader(io.LimitReader(r, 4096)).ReadString('\n')
		if err == io.EOF {
			err = nil
		}
		done <- result{line, err}
	}()
	select {
	case res := <-done:
		if res.err != nil {
			return "", fmt.Errorf("could not read the answer (%w)", res.err)
		}
		return res.line, nil
	case <-ctx.Done():
		return "", ctx.Err()
	}
}
