package config

import (
	"errors"
	"strings"
	"testing"
)

// FuzzConfigParse feeds arbitrary bytes to the loader as a config file. It
// must not panic; a refusal is a *ParseError on a line of the file, written
// as one line; an accepted file describes itself with one row per provider
// and model, whatever its names hold.
func FuzzConfigParse(f *testing.F) {
	for _, s := range []string{
		issueSample,
		"",
		"\ufeffdefault_model = \"m\"\n",
		"[[providers]]\nname = \"a\"\nbase_url = \"http://localhost:8080\"\nheaders = { \"X-T\" = \"p\" }\n[[models]]\nname = \"m\\nforged\"\nprovider = \"a\"\n",
		"image_dir = \"$HOME/${X}/p\"\nmax_retries = 3\nheader_timeout = \"5s\"\nreply_timeout = \"1m\"\nattach_max_bytes = \"1.5MiB\"\n",
		"[keys]\nquit = [\"ctrl+c\", \"ctrl+q\"]\nsend = \"enter\"\n",
		"a = [[[[[[[[[1]]]]]]]]]\n",
		"a = \"\"\"\n[[[[[[[[[[\n\"\"\"\nb = '''x'''\n",
		"models = [{name = \"x\", sizes = [\"1x1\"]}]\n",
		"[[models]]\nname = 3\n",
		"x = 1\nx = 2\n",
	} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		c := &Config{Path: "fuzz.toml", env: Env{Getenv: func(k string) string {
			if k == "X" {
				return "x"
			}
			return ""
		}, HomeDir: "/home/fuzz"}}
		err := c.parse(data)
		lines := strings.Count(string(data), "\n") + 1
		if err != nil {
			var pe *ParseError
			if !errors.As(err, &pe) {
				t.Fatalf("%T %v", err, err)
			}
			if pe.Line < 0 || pe.Line > lines || pe.Col < 0 {
				t.Fatalf("position %d:%d in a file of %d lines: %v", pe.Line, pe.Col, lines, err)
			}
			if pe.Msg == "" || strings.ContainsAny(err.Error(), "\n\r") {
				t.Fatalf("not a one-line message: %q", err)
			}
			return
		}
		if len(c.Providers) == 0 {
			c.addEnvProvider()
		}
		desc := c.Describe()
		rows := strings.Count(desc, "\n")
		if want := 1 + len(c.Providers) + len(c.ModelList()); rows != want {
			t.Fatalf("%d rows, want %d:\n%s", rows, want, desc)
		}
		if strings.ContainsAny(strings.ReplaceAll(desc, "\n", ""), "\t\r\x1b") {
			t.Fatalf("a control character in the description: %q", desc)
		}
		for _, w := range c.Warnings {
			if strings.ContainsAny(w, "\n\r") {
				t.Fatalf("a warning spans lines: %q", w)
			}
		}
	})
}
