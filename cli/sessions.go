package cli

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"text/tabwriter"
	"time"

	"github.com/spf13/cobra"

	"parley/api"
	"parley/conversation"
	"parley/internal/bytesize"
	"parley/session"
	"parley/termsafe"
)

// sessionsCmd is `parley sessions` and its commands: they read and delete
// saved sessions, print to stdout and speak on stderr; they need no config
// and no gateway.
type sessionsCmd struct {
	env     Env
	console *console
	// priceOf gives the prices the config knows, for the sessions' costs.
	priceOf func() func(string) *api.Price
}

func (c *sessionsCmd) sessionsCommand() *cobra.Command {
	var lf listFlags
	cmd := &cobra.Command{
		Use:   "sessions",
		Short: "List, show, search, export and delete saved sessions",
		Long: `Every chat and every "parley ask" is kept as a session in
$XDG_DATA_HOME/parley (~/.local/share/parley) unless history = false is set in
the config or --no-save is given. A session id may be given by any unique
prefix (twelve characters are nearly always enough; a prefix several
sessions share lists them; the shell completes ids). Without a command,
"parley sessions" lists them.

Listings are plain text, one item per line and stable for scripts; --json gives
every field.`,
		Example: `  parley sessions
  parley sessions search "lighthouse keeper"
  parley sessions show 0190f0a1b2c3
  parley sessions export 0190f0a1b2c3 --format md -o chat.md
  parley sessions rm 0190f0a1b2c3 0190f0b7d4e5`,
		Args: sessionsArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			return c.sessionsList(cmd.Context(), lf)
		},
	}
	lf.register(cmd)
	cmd.AddCommand(c.sessionsListCommand(), c.sessionsShowCommand(), c.sessionsSearchCommand(),
		c.sessionsExportCommand(), c.sessionsRmCommand())
	return cmd
}

func sessionsArgs(_ *cobra.Command, args []string) error {
	if len(args) == 0 {
		return nil
	}
	return usagef("%q is not a sessions command; the commands are list, show, search, export and rm (see \"parley sessions --help\")", args[0])
}

// exactlyOneID checks that a command got one session id.
func exactlyOneID(cmd *cobra.Command, args []string) error {
	if len(args) == 1 {
		return nil
	}
	return usagef("%s takes one session id (any unique prefix, from \"parley sessions list\"); see \"%s --help\"", cmd.CommandPath(), cmd.CommandPath())
}

// errNoHistory says that no history database exists yet; the listing
// commands print nothing for it.
var errNoHistory = errors.New("there are no saved sessions yet")

// withStore opens the history for a sessions command and closes it after.
// A history that does not exist yet is not created by looking at it (so
// history = false keeps nothing on disk): fn is not called and the result
// is errNoHistory.
func (c *sessionsCmd) withStore(ctx context.Context, fn func(*session.Store) error) error {
	dir := session.DefaultDir(c.env.Getenv, c.env.HomeDir)
	if _, err := os.Stat(filepath.Join(dir, session.DBName)); errors.Is(err, fs.ErrNotExist) {
		return errNoHistory
	}
	s, err := openStore(ctx, c.env, c.console.knownSecrets)
	if err != nil {
		return err
	}
	defer s.Close()
	return fn(s)
}

// sessionID resolves a prefix given on the command line.
func (c *sessionsCmd) sessionID(ctx context.Context, s *session.Store, prefix string) (string, error) {
	if strings.TrimSpace(prefix) == "" {
		return "", usagef("the session id is empty; give one from \"parley sessions list\"")
	}
	return resolveSession(ctx, s, prefix)
}

type listFlags struct {
	json  bool
	limit int
}

func (f *listFlags) register(cmd *cobra.Command) {
	cmd.Flags().BoolVar(&f.json, "json", false, "print JSON instead of text")
	cmd.Flags().IntVarP(&f.limit, "limit", "n", 0, "list at most this many sessions, newest first (0: all)")
}

func (c *sessionsCmd) sessionsListCommand() *cobra.Command {
	var f listFlags
	cmd := &cobra.Command{
		Use:   "list",
		Short: "List sessions, newest first, one a line",
		Long: `List sessions, newest first, one a line: id, last change, message count,
cost (at the prices of the config; "-" when no reply's price is known) and
title ("(untitled)" when there is none). On a terminal a header line names the
columns: ID, UPDATED, MESSAGES, COST, TITLE.`,
		Args: noArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			return c.sessionsList(cmd.Context(), f)
		},
	}
	f.register(cmd)
	return cmd
}

type jsonMeta struct {
	ID           string `json:"id"`
	Title        string `json:"title"`
	Model        string `json:"model,omitempty"`
	SystemPrompt string `json:"system_prompt,omitempty"`
	Created      string `json:"created"`
	Updated      string `json:"updated"`
	Messages     int    `json:"messages"`
	Preview      string `json:"preview,omitempty"`
	HasDraft     bool   `json:"has_draft,omitempty"`
	// Cost is in dollars, at the prices of the config; absent when no
	// reply's price is known.
	Cost *float64 `json:"cost,omitempty"`
}

func (c *sessionsCmd) sessionsList(ctx context.Context, f listFlags) error {
	if f.limit < 0 {
		return usagef("--limit must be 0 (all) or more, not %d", f.limit)
	}
	err := c.withStore(ctx, func(s *session.Store) error {
		list, err := s.List(ctx, f.limit, 0)
		if err != nil {
			return err
		}
		costs, err := sessionCosts(ctx, s, list, c.priceOf())
		if err != nil {
			return err
		}
		if f.json {
			out := make([]jsonMeta, 0, len(list))
			for _, m := range list {
				jm := jsonMeta{ID: m.ID, Title: m.Title, Model: m.Model, SystemPrompt: m.SystemPrompt,
					Created: rfc3339(m.Created), Updated: rfc3339(m.Updated), Messages: m.Messages, Preview: m.Preview, HasDraft: m.HasDraft}
				if cost, ok := costs[m.ID]; ok {
					jm.Cost = &cost
				}
				out = append(out, jm)
			}
			return session.WriteJSON(c.env.Stdout, out)
		}
		if len(list) == 0 {
			return errNoHistory
		}
		tw := tabwriter.NewWriter(c.env.Stdout, 0, 0, 2, ' ', 0)
		if c.env.StdoutIsTerminal {
			fmt.Fprintln(tw, "ID\tUPDATED\tMESSAGES\tCOST\tTITLE")
		}
		for _, m := range list {
			cost := "-"
			if spent, ok := costs[m.ID]; ok {
				cost = api.FormatCost(spent)
			}
			fmt.Fprintf(tw, "%s\t%s\t%d\t%s\t%s\n", m.ID, shortTime(m.Updated), m.Messages, cost, listTitle(m))
		}
		return tw.Flush()
	})
	return c.emptyListing(err, f.json)
}

// emptyListing turns "no history yet" into an empty listing: [] in JSON,
// a sentence on stderr otherwise (stdout stays empty for scripts).
func (c *sessionsCmd) emptyListing(err error, asJSON bool) error {
	if !errors.Is(err, errNoHistory) {
		return err
	}
	if asJSON {
		_, err = io.WriteString(c.env.Stdout, "[]\n")
		return err
	}
	c.console.say(errNoHistory.Error())
	return nil
}

// noSession turns "no history yet" into the usage error of an id that
// matches nothing.
func noSession(err error, prefix string) error {
	if errors.Is(err, errNoHistory) {
		return usagef("no session id starts with %q: there are no saved sessions yet", strings.TrimSpace(prefix))
	}
	return err
}

// listTitle is a session's title for a one-line listing.
func listTitle(m session.Meta) string {
	t := strings.Join(strings.Fields(termsafe.Sanitize(m.Title)), " ")
	if t == "" {
		return "(untitled)"
	}
	return t
}

func shortTime(t time.Time) string {
	if t.IsZero() {
		return "-"
	}
	return t.Local().Format("2006-01-02 15:04")
}

func rfc3339(t time.Time) string {
	if t.IsZero() {
		return ""
	}
	return t.Local().Format(time.RFC3339)
}

func (c *sessionsCmd) sessionsShowCommand() *cobra.Command {
	var asJSON bool
	cmd := &cobra.Command{
		Use:   "show ID",
		Short: "Print a session's transcript (its active branch) as plain text",
		Long: `Print a session's transcript as plain text, or with --json its full structure
(the same as "parley sessions export --format json", images referred to where
parley keeps them).

A conversation is a tree: editing a message or regenerating a reply in the chat
keeps the earlier one as an alternative, in a branch of its own. show prints the
active branch (the one the chat opens), says how many branches there are and
which messages have alternatives ("alternative 2 of 3"); turns left out of what
the model sees are marked. "parley sessions export --all-branches" writes every
branch.`,
		Example: `  parley sessions show 0190f0a1b2c3
  parley sessions show 0190f0a1b2c3 --json > chat.json`,
		Args:              exactlyOneID,
		ValidArgsFunction: completeSessionIDs(c.env, false),
		RunE: func(cmd *cobra.Command, args []string) error {
			return c.sessionsShow(cmd.Context(), args[0], asJSON)
		},
	}
	cmd.Flags().BoolVar(&asJSON, "json", false, "print JSON instead of text")
	return cmd
}

func (c *sessionsCmd) sessionsShow(ctx context.Context, prefix string, asJSON bool) error {
	return noSession(c.withStore(ctx, func(s *session.Store) error {
		id, err := c.sessionID(ctx, s, prefix)
		if err != nil {
			return err
		}
		if asJSON {
			return s.Export(ctx, id, c.env.Stdout, session.ExportOptions{Format: session.FormatJSON})
		}
		sess, err := s.Load(ctx, id)
		if err != nil {
			return err
		}
		return writeTranscript(c.env.Stdout, sess, c.priceOf())
	}), prefix)
}

// writeTranscript prints a session's active branch as plain text, every
// line made inert for the terminal (replies are untrusted).
func writeTranscript(w io.Writer, s session.Session, price func(string) *api.Price) error {
	conv := conversation.Restore(conversation.Options{ID: s.ID}, s.Snapshot)
	msgs := conv.Messages()
	var b strings.Builder
	b.WriteString(listTitle(s.Meta) + "\n")
	head := []string{"session " + s.ID}
	if s.Model != "" {
		head = append(head, s.Model)
	}
	count := fmt.Sprintf("%d messages", len(msgs))
	if n := len(s.Snapshot.Messages); n > len(msgs) {
		count += fmt.Sprintf(" (%d in all branches)", n)
	}
	head = append(head, count, "updated "+shortTime(s.Updated))
	if c, ok := conv.Tree().Spent(price); ok {
		head = append(head, "cost "+api.FormatCost(c))
	}
	b.WriteString(strings.Join(head, " · ") + "\n")
	if n := len(conv.Tree().Branches()); n > 1 {
		b.WriteString(branchSummary(n, msgs) + "\n")
	}
	if p := strings.TrimSpace(s.SystemPrompt); p != "" {
		b.WriteString("system prompt: " + p + "\n")
	}
	if s.Role != "" {
		b.WriteString("role: " + s.Role + "\n")
	}
	if names := s.Params.Names(); len(names) > 0 {
		set := make([]string, len(names))
		for i, n := range names {
			v, _ := s.Params.Value(n)
			set[i] = n + "=" + v
		}
		b.WriteString("parameters: " + strings.Join(set, " ") + "\n")
	}
	for i, m := range msgs {
		writeTranscriptMessage(&b, i+1, m)
	}
	_, err := io.WriteString(w, termsafe.Sanitize(b.String()))
	return err
}

// branchSummary says how many branches a session has and where the
// active one has alternatives. Messages are numbered by their position on
// the active path, as they are read (the first is 1), not by the ids the
// store gives them, which count every branch.
func branchSummary(branches int, msgs []conversation.Message) string {
	var at []string
	for i, m := range msgs {
		if m.AltCount > 1 {
			at = append(at, fmt.Sprintf("message %d (%d of %d)", i+1, m.AltIndex+1, m.AltCount))
		}
	}
	return fmt.Sprintf("%d branches, this is the active one; alternatives at %s; \"parley sessions export --all-branches\" writes them all",
		branches, strings.Join(at, ", "))
}

// writeTranscriptMessage writes the message at position pos of the path.
func writeTranscriptMessage(b *strings.Builder, pos int, m conversation.Message) {
	who := "You"
	if m.Role == api.RoleAssistant {
		who = cmp.Or(strings.TrimSpace(m.Model), "Assistant")
	}
	head := who + " · " + shortTime(m.Created)
	if m.AltCount > 1 {
		head += fmt.Sprintf(" · message %d, alternative %d of %d", pos, m.AltIndex+1, m.AltCount)
	}
	fmt.Fprintf(b, "\n── %s\n", head)
	if r := strings.TrimSpace(m.Reasoning); r != "" {
		// Apart from the answer, each line marked as thinking.
		b.WriteString("[thinking]\n")
		for _, l := range strings.Split(r, "\n") {
			b.WriteString("│ " + l + "\n")
		}
	}
	if t := strings.TrimRight(m.Text, "\n"); t != "" {
		b.WriteString(t + "\n")
	}
	for _, at := range m.Attachments {
		b.WriteString(describeAttachment(at) + "\n")
	}
	switch m.State {
	case conversation.StateInterrupted:
		b.WriteString("[interrupted]\n")
	case conversation.StateFailed:
		b.WriteString("[failed: " + cmp.Or(strings.TrimSpace(m.Err), "no reason given") + "]\n")
	}
	if m.Excluded {
		b.WriteString("[left out of what the model sees]\n")
	}
}

func describeAttachment(at api.Attachment) string {
	switch {
	case at.IsText():
		lines := fmt.Sprintf("%d lines", at.Lines)
		if at.Data == nil {
			return fmt.Sprintf("[file %s: its stored copy is missing]", at.Name)
		}
		return fmt.Sprintf("[file %s: %s, %s]", at.Name, lines, bytesize.Format(int64(at.Bytes)))
	case at.Data == nil && at.URL != "":
		return "[image link: " + at.URL + "]"
	case at.Data == nil:
		return fmt.Sprintf("[image %s: its stored copy is missing]", at.Name)
	}
	return fmt.Sprintf("[image %s: %dx%d %s]", at.Name, at.Width, at.Height, at.MIME)
}

func (c *sessionsCmd) sessionsSearchCommand() *cobra.Command {
	var f listFlags
	cmd := &cobra.Command{
		Use:   "search QUERY",
		Short: "Find messages in every session: session id, message number, snippet",
		Long: `Find the messages that contain every word of QUERY, newest first, in every
session. Each word matches the words it starts, regardless of case and
accents ("wombat" finds "wombats"); "put words in quotes" to match them in a
row. Each line shows the session id, the message's number on its branch (as
"parley sessions show" numbers it) and a snippet, with a header line on a
terminal. No match is an error (exit status 1), as for grep.
Every branch of a conversation is searched (edited messages and regenerated
replies are kept as alternatives): a match in another branch than the active
one is shown by "parley sessions export --all-branches".`,
		Example: `  parley sessions search lighthouse
  parley sessions search 'light* keeper' --json`,
		Args: cobra.ArbitraryArgs,
		RunE: func(cmd *cobra.Command, args []string) error {
			return c.sessionsSearch(cmd.Context(), strings.Join(args, " "), f)
		},
	}
	cmd.Flags().BoolVar(&f.json, "json", false, "print JSON instead of text")
	cmd.Flags().IntVarP(&f.limit, "limit", "n", 20, "show at most this many matches")
	return cmd
}

type jsonHit struct {
	SessionID    string `json:"session_id"`
	SessionTitle string `json:"session_title"`
	MessageID    int    `json:"message_id"`
	// Place is the message's number on its branch, as sessions show
	// numbers it.
	Place   int    `json:"place"`
	Role    string `json:"role"`
	Created string `json:"created"`
	Snippet string `json:"snippet"`
	// Highlights are the matched words as [start, end) byte offsets into
	// Snippet.
	Highlights [][2]int `json:"highlights"`
}

func (c *sessionsCmd) sessionsSearch(ctx context.Context, query string, f listFlags) error {
	if strings.TrimSpace(query) == "" {
		return usagef("nothing to search for; give words, e.g. parley sessions search lighthouse")
	}
	if f.limit <= 0 {
		return usagef("--limit must be 1 or more, not %d", f.limit)
	}
	noMatch := fmt.Errorf("no messages match %q", strings.Join(strings.Fields(query), " "))
	err := c.withStore(ctx, func(s *session.Store) error {
		// Every word is a prefix, as in the browser: "wombat" finds
		// "wombats".
		hits, err := s.Search(ctx, session.PrefixQuery(query), f.limit)
		if err != nil {
			return err
		}
		if len(hits) == 0 {
			if f.json {
				io.WriteString(c.env.Stdout, "[]\n")
			}
			return noMatch
		}
		if f.json {
			out := make([]jsonHit, 0, len(hits))
			for _, h := range hits {
				jh := jsonHit{SessionID: h.SessionID, SessionTitle: h.SessionTitle, MessageID: h.MessageID, Place: h.Place, Role: h.Role,
					Created: rfc3339(h.Created), Highlights: [][2]int{}}
				for _, sp := range session.SplitSnippet(h.Snippet) {
					if sp.Hit {
						jh.Highlights = append(jh.Highlights, [2]int{len(jh.Snippet), len(jh.Snippet) + len(sp.Text)})
					}
					jh.Snippet += sp.Text
				}
				out = append(out, jh)
			}
			return session.WriteJSON(c.env.Stdout, out)
		}
		style := c.env.StdoutIsTerminal && c.env.Getenv("NO_COLOR") == ""
		var b strings.Builder
		if c.env.StdoutIsTerminal {
			fmt.Fprintf(&b, "%-32s  %s  %s\n", "SESSION", "MESSAGE", "SNIPPET")
		}
		for _, h := range hits {
			if c.env.StdoutIsTerminal {
				fmt.Fprintf(&b, "%-32s  %7d  ", h.SessionID, h.Place)
			} else {
				fmt.Fprintf(&b, "%s  %d  ", h.SessionID, h.Place)
			}
			// Snippets come on one line, the spaces around the matches
			// kept.
			for _, sp := range session.SplitSnippet(h.Snippet) {
				text := termsafe.Sanitize(sp.Text)
				if sp.Hit && style {
					text = "\x1b[1m" + text + "\x1b[22m"
				}
				b.WriteString(text)
			}
			b.WriteString("\n")
		}
		_, err = io.WriteString(c.env.Stdout, b.String())
		return err
	})
	if errors.Is(err, errNoHistory) {
		if f.json {
			io.WriteString(c.env.Stdout, "[]\n")
		}
		return fmt.Errorf("%w: %w", noMatch, errNoHistory)
	}
	return err
}

func (c *sessionsCmd) sessionsExportCommand() *cobra.Command {
	var format, out string
	var force, all bool
	cmd := &cobra.Command{
		Use:   "export ID",
		Short: "Write a session as Markdown or JSON",
		Long: `Write a session as Markdown (--format md) or JSON (--format json). Without
--format, a -o path ending in .json gets JSON, as the chat's /export does, and
anything else Markdown.

With -o PATH the export is written to PATH and its images are copied into a
folder next to it (for chat.md: chat-images/) and referred to by relative
paths, so the files can be moved or shared together. Without -o it goes to
stdout and images are referred to where parley keeps them.

An export holds the active branch of the conversation (the one the chat opens;
messages with alternatives are marked "alternative 2 of 3"). With
--all-branches it holds every branch: in Markdown a section per branch
("Branch 2 of 3", the active one marked), each going on from the message where
it leaves a branch written above it, so the messages they share are written
once (the section says how many it shares, and with which branch); in JSON
every message once, with the id of the message it follows ("parent") and the
last message of the active branch ("active_leaf").

An existing file (or link) at PATH is never replaced unless --force is given,
and a link there is never followed: --force replaces the link itself. The files
are readable by you only, like the history. Terminal control characters in
replies are written as visible placeholders in Markdown.`,
		Example: `  parley sessions export 0190f0a1b2c3 -o chat.md
  parley sessions export 0190f0a1b2c3 -o chat.md --force
  parley sessions export 0190f0a1b2c3 --all-branches -o every-branch.md
  parley sessions export 0190f0a1b2c3 --format json > chat.json`,
		Args:              exactlyOneID,
		ValidArgsFunction: completeSessionIDs(c.env, false),
		RunE: func(cmd *cobra.Command, args []string) error {
			f, err := exportFormat(format, cmd.Flags().Changed("format"), out)
			if err != nil {
				return err
			}
			opts := session.ExportOptions{Format: f, Force: force, AllBranches: all}
			return c.sessionsExport(cmd.Context(), args[0], out, opts)
		},
	}
	cmd.Flags().StringVarP(&format, "format", "f", "", "md or json (default: json for a -o path ending in .json, else md)")
	cmd.Flags().StringVarP(&out, "output", "o", "", "write to this file, images next to it (default: stdout)")
	cmd.Flags().BoolVar(&force, "force", false, "replace the file at the -o path (and images of an earlier export beside it)")
	cmd.Flags().BoolVar(&all, "all-branches", false, "write every branch of the conversation, not only the active one")
	return cmd
}

// exportFormat is the format an export is written in: --format when
// given, else the -o path's (.json: JSON, as the chat's /export; anything
// else Markdown). A given format a path's extension contradicts is
// refused: the file would lie about what it holds.
func exportFormat(format string, given bool, out string) (string, error) {
	ext := strings.ToLower(filepath.Ext(out))
	isJSON := ext == ".json"
	isMD := ext == ".md" || ext == ".markdown"
	if !given {
		if isJSON {
			return session.FormatJSON, nil
		}
		return session.FormatMarkdown, nil
	}
	format = strings.ToLower(strings.TrimSpace(format))
	switch {
	case format != session.FormatMarkdown && format != session.FormatJSON:
		return "", usagef("--format must be md or json, not %q", format)
	case format == session.FormatMarkdown && isJSON, format == session.FormatJSON && isMD:
		return "", usagef("--format %s does not fit the path %s; leave out --format to write what its extension says, or give a path ending in .%s", format, out, format)
	}
	return format, nil
}

func (c *sessionsCmd) sessionsExport(ctx context.Context, prefix, out string, opts session.ExportOptions) error {
	format := opts.Format
	return noSession(c.withStore(ctx, func(s *session.Store) error {
		id, err := c.sessionID(ctx, s, prefix)
		if err != nil {
			return err
		}
		if out != "" {
			err := s.ExportFile(ctx, id, out, opts)
			var pe *fs.PathError
			if errors.Is(err, fs.ErrExist) && errors.As(err, &pe) {
				return usagef("%s exists already and was left alone; give another path, or add --force to replace it", pe.Path)
			}
			if nf := (*session.NoFolderError)(nil); errors.As(err, &nf) {
				return usagef("the folder %s does not exist, so nothing was exported; create it first, or give -o a path in a folder that exists", nf.Dir)
			}
			return err
		}
		if !c.env.StdoutIsTerminal || format == session.FormatJSON {
			// JSON is written with every terminal control escaped.
			return s.Export(ctx, id, c.env.Stdout, opts)
		}
		var b strings.Builder
		if err := s.Export(ctx, id, &b, opts); err != nil {
			return err
		}
		_, err = io.WriteString(c.env.Stdout, termsafe.Sanitize(b.String()))
		return err
	}), prefix)
}
