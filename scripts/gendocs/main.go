// Command gendocs writes parley's man pages and shell completion scripts
// from the command tree itself, so what ships can never disagree with the
// binary: a page per command (parley.1, parley-ask.1, parley-sessions-list.1,
// …, gzipped as Debian and the BSDs install them) and the scripts that
// "parley completion bash|zsh|fish" prints. The release (.goreleaser.yaml)
// runs it before building:
//
//	go run ./scripts/gendocs -out build -version 1.2.0 -date 2026-11-29T05:40:26Z
//
// It writes OUT/man/*.1.gz and OUT/completions/{parley.bash,_parley,parley.fish},
// replacing what an earlier run left there.
package main

import (
	"bytes"
	"compress/gzip"
	"context"
	"errors"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/spf13/cobra"
	"github.com/spf13/cobra/doc"

	"parley/cli"
)

func main() {
	out := flag.String("out", "", "folder to write man/ and completions/ into (required)")
	version := flag.String("version", "", "version the man pages name (required)")
	date := flag.String("date", "", "the pages' date, RFC 3339 (the commit's, so that a rebuild is identical; required)")
	flag.Parse()
	if err := run(*out, *version, *date); err != nil {
		fmt.Fprintln(os.Stderr, "gendocs:", err)
		os.Exit(1)
	}
}

func run(out, version, date string) error {
	if out == "" || version == "" || date == "" || flag.NArg() > 0 {
		return errors.New("usage: gendocs -out DIR -version VERSION -date RFC3339 (all three are needed, nothing else)")
	}
	when, err := time.Parse(time.RFC3339, date)
	if err != nil {
		return fmt.Errorf("-date %q is not an RFC 3339 time such as 2026-11-29T05:40:26Z: %w", date, err)
	}
	man, completions := filepath.Join(out, "man"), filepath.Join(out, "completions")
	for _, dir := range []string{man, completions} {
		if err := os.RemoveAll(dir); err != nil {
			return fmt.Errorf("clearing %s: %w", dir, err)
		}
		if err := os.MkdirAll(dir, 0o755); err != nil {
			return err
		}
	}
	if err := writeManPages(man, strings.TrimPrefix(version, "v"), when.UTC()); err != nil {
		return err
	}
	return writeCompletions(completions)
}

// writeManPages writes one gzipped page per command that --help lists,
// as cobra's GenManTree chooses them (help topics such as "parley help
// config" are not commands and get none).
func writeManPages(dir, version string, date time.Time) error {
	root := cli.CommandTree()
	root.DisableAutoGenTag = true // the tag would carry the time of generation
	var walk func(cmd *cobra.Command) error
	walk = func(cmd *cobra.Command) error {
		for _, c := range cmd.Commands() {
			if !c.IsAvailableCommand() || c.IsAdditionalHelpTopicCommand() {
				continue
			}
			if err := walk(c); err != nil {
				return err
			}
		}
		header := &doc.GenManHeader{Section: "1", Date: &date, Source: "parley " + version, Manual: "User Commands"}
		var page bytes.Buffer
		if err := doc.GenMan(cmd, header, &page); err != nil {
			return fmt.Errorf("man page of %q: %w", cmd.CommandPath(), err)
		}
		name := strings.ReplaceAll(cmd.CommandPath(), " ", "-") + ".1.gz"
		return writeGzip(filepath.Join(dir, name), page.Bytes())
	}
	return walk(root)
}

// writeGzip compresses with no name or time in the header, so the same
// page always gives the same bytes.
func writeGzip(path string, data []byte) error {
	var buf bytes.Buffer
	zw, err := gzip.NewWriterLevel(&buf, gzip.BestCompression)
	if err != nil {
		return err
	}
	if _, err := zw.Write(data); err != nil {
		return err
	}
	if err := zw.Close(); err != nil {
		return err
	}
	return os.WriteFile(path, buf.Bytes(), 0o644)
}

// writeCompletions saves what "parley completion SHELL" prints, by running
// that very command, under the names each shell looks for.
func writeCompletions(dir string) error {
	for shell, name := range map[string]string{"bash": "parley.bash", "zsh": "_parley", "fish": "parley.fish"} {
		var stdout, stderr bytes.Buffer
		code := cli.Main(context.Background(), []string{"completion", shell}, cli.Env{
			Stdin: strings.NewReader(""), Stdout: &stdout, Stderr: &stderr,
			Getenv: func(string) string { return "" }, Now: time.Now,
		})
		if code != cli.ExitOK || stdout.Len() == 0 {
			return fmt.Errorf("parley completion %s exited %d: %s", shell, code, strings.TrimSpace(stderr.String()))
		}
		if err := os.WriteFile(filepath.Join(dir, name), stdout.Bytes(), 0o644); err != nil {
			return err
		}
	}
	return nil
}
