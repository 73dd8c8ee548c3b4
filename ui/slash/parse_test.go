package slash

import (
	"errors"
	"slices"
	"strings"
	"testing"

	"parley/ui/keys"
)

func TestParseMessagesAndLiterals(t *testing.T) {
	r := testCommands(t)
	for in, want := range map[string]string{
		"hello":          "hello",
		" /model":        " /model", // not at the start: a message
		"//model":        "/model",
		"//":             "/",
		"// not a thing": "/ not a thing",
		"":               "",
	} {
		inv, send, err := r.Parse(in)
		if err != nil || inv.Name != "" || send != want {
			t.Errorf("Parse(%q) = %+v, %q, %v; want a message %q", in, inv, send, err, want)
		}
	}
}

func TestParseCommands(t *testing.T) {
	r := testCommands(t)
	cases := []struct {
		in         string
		name, args string
		argv       []string
	}{
		{"/model", "model", "", nil},
		{"/model gpt-4o", "model", "gpt-4o", []string{"gpt-4o"}},
		{"/Model  gpt-4o  ", "model", "gpt-4o", []string{"gpt-4o"}},
		{"/q", "quit", "", nil},
		{"/EXIT", "quit", "", nil},
		{"/copy 12", "copy", "12", []string{"12"}},
		// Free text keeps its exact form in Args, quotes and apostrophes too.
		{`/system You're a "careful" reviewer.`, "system", `You're a "careful" reviewer.`, []string{"You're", "a", "careful", "reviewer."}},
		{"/system line one\nline two", "system", "line one\nline two", []string{"line", "one", "line", "two"}},
		{`/attach "My Pictures/a b.png" c.png`, "attach", `"My Pictures/a b.png" c.png`, []string{"My Pictures/a b.png", "c.png"}},
		// A command without flags leaves dashes alone.
		{"/system --be terse", "system", "--be terse", []string{"--be", "terse"}},
	}
	for _, c := range cases {
		inv, send, err := r.Parse(c.in)
		if err != nil || send != "" {
			t.Errorf("Parse(%q): send %q, err %v", c.in, send, err)
			continue
		}
		if inv.Name != c.name || inv.Args != c.args || !slices.Equal(inv.Argv, c.argv) || !slices.Equal(inv.Positional, c.argv) {
			t.Errorf("Parse(%q) = %+v; want %s %q %q", c.in, inv, c.name, c.args, c.argv)
		}
		if inv.Flags != nil {
			t.Errorf("Parse(%q): a command without flags got %v", c.in, inv.Flags)
		}
	}
	inv, _, _ := r.Parse("/copy 3")
	if inv.Usage != "/copy [n]" {
		t.Errorf("usage = %q", inv.Usage)
	}
}

func TestParseFlagsOfACommand(t *testing.T) {
	r := testCommands(t)
	inv, _, err := r.Parse(`/image "a red fox" in snow --n 2 --size=1024x1536 --model gpt-image-1`)
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(inv.Positional, []string{"a red fox", "in", "snow"}) {
		t.Errorf("positional = %q", inv.Positional)
	}
	if n, err := inv.Flags.Int("n", 1, 1, 10); n != 2 || err != nil {
		t.Errorf("n = %d, %v", n, err)
	}
	if w, h, err := inv.Flags.Size("size"); w != 1024 || h != 1536 || err != nil {
		t.Errorf("size = %dx%d, %v", w, h, err)
	}
	if got := inv.Flags.String("model"); got != "gpt-image-1" {
		t.Errorf("model = %q", got)
	}
	// "--" ends the options: the prompt may start with dashes.
	inv, _, err = r.Parse("/image --n 1 -- --n is a flag")
	if err != nil || !slices.Equal(inv.Positional, []string{"--n", "is", "a", "flag"}) || inv.Flags.String("n") != "1" {
		t.Errorf("after --: %+v, %v", inv, err)
	}
}

func TestParseErrors(t *testing.T) {
	r := testCommands(t)
	cases := []struct{ in, want string }{
		{"/modle", "unknown command /modle; did you mean /model? Type / to see every command"},
		{"/mod gpt-4o", "unknown command /mod; did you mean /model?"}, // a prefix
		{"/th", "did you mean /theme?"},
		{"/exti", "did you mean /quit?"}, // through an alias, named by the command
		{"/usr/bin/env is broken", "unknown command /usr/bin/env; type / to see every command, or start with // to send text that begins with /"},
		{"/", "a slash alone is not a command"},
		{"/ model", "a slash alone is not a command"},
		{"/image", "/image is missing its arguments; write /image PROMPT [options]"},
		{"/image --n 2", "/image is missing its arguments"},
		{"/attach", "/attach is missing its arguments; write /attach PATH…"},
		{"/image fox --siez 10x10", "/image: --siez is not an option here; did you mean --size?"},
		{"/image fox --colour red", "/image: --colour is not an option here; the options are --n N, --size WxH, --model NAME"},
		{"/image fox --n", "/image: --n needs a value, like --n N"},
		{"/image fox --n --size 1x1", "/image: --n needs a value, like --n N"},
		{"/image fox --n=", "/image: --n needs a value"},
		{"/image fox --n 1 --n 2", "/image: --n is given twice; give it once"},
	}
	for _, c := range cases {
		inv, send, err := r.Parse(c.in)
		if err == nil {
			t.Errorf("Parse(%q) = %+v, %q; want an error", c.in, inv, send)
			continue
		}
		if !strings.Contains(err.Error(), c.want) {
			t.Errorf("Parse(%q) error %q, want it to contain %q", c.in, err, c.want)
		}
		if strings.Count(err.Error(), "\n") > 0 {
			t.Errorf("Parse(%q) error spans lines: %q", c.in, err)
		}
	}
	_, _, err := r.Parse("/modle")
	var ue *UnknownError
	if !errors.As(err, &ue) || ue.Name != "modle" || ue.Suggestion != "model" {
		t.Errorf("unknown command error = %#v", err)
	}
}

// A hostile or pasted name never reaches the screen raw, nor at length.
func TestParseUnknownNameIsSanitised(t *testing.T) {
	r := testCommands(t)
	_, _, err := r.Parse("/x\x1b]52;c;aGk=\x07" + strings.Repeat("y", 100))
	if err == nil || strings.ContainsAny(err.Error(), "\x1b\x07") {
		t.Fatalf("error carries control characters: %q", err)
	}
	if !strings.Contains(err.Error(), "…") || len(err.Error()) > 200 {
		t.Errorf("long name not shortened: %q", err)
	}
}

func TestFlagValues(t *testing.T) {
	f := Flags{"n": "x", "big": "20", "size": "big", "zero": "0x10", "ok": "512×512", "caps": "256X128"}
	if _, err := f.Int("n", 1, 1, 10); err == nil || err.Error() != `--n must be a whole number, like --n 1, not "x"` {
		t.Errorf("Int error = %v", err)
	}
	if _, err := f.Int("big", 1, 1, 10); err == nil || err.Error() != "--big must be from 1 to 10, not 20" {
		t.Errorf("range error = %v", err)
	}
	if n, err := f.Int("absent", 4, 1, 10); n != 4 || err != nil {
		t.Errorf("default = %d, %v", n, err)
	}
	if _, _, err := f.Size("size"); err == nil || !strings.Contains(err.Error(), "WIDTHxHEIGHT") {
		t.Errorf("Size error = %v", err)
	}
	if _, _, err := f.Size("zero"); err == nil || !strings.Contains(err.Error(), "from 1 to 65535") {
		t.Errorf("zero side = %v", err)
	}
	if w, h, err := f.Size("ok"); w != 512 || h != 512 || err != nil {
		t.Errorf("× size = %dx%d %v", w, h, err)
	}
	if w, h, err := f.Size("caps"); w != 256 || h != 128 || err != nil {
		t.Errorf("X size = %dx%d %v", w, h, err)
	}
	if w, h, err := f.Size("absent"); w != 0 || h != 0 || err != nil {
		t.Errorf("absent size = %dx%d %v", w, h, err)
	}
	if !f.Has("n") || f.Has("absent") {
		t.Error("Has is wrong")
	}
}

func TestParseFlagsSwitches(t *testing.T) {
	specs := []Flag{{Name: "all", Usage: "everything"}, {Name: "mask", Value: "PATH"}}
	f, pos, err := ParseFlags([]string{"--all", "x", "-y", "--MASK", "m.png"}, specs)
	if err != nil || f.String("all") != "true" || f.String("mask") != "m.png" || !slices.Equal(pos, []string{"x", "-y"}) {
		t.Errorf("ParseFlags = %v %q %v", f, pos, err)
	}
	if _, _, err := ParseFlags([]string{"--all=yes"}, specs); err == nil || err.Error() != "--all takes no value; write just --all" {
		t.Errorf("switch with a value: %v", err)
	}
	if _, _, err := ParseFlags([]string{"--x"}, nil); err == nil || !strings.Contains(err.Error(), "takes none") {
		t.Errorf("no flags at all: %v", err)
	}
}

func TestRegisterRefusesMistakes(t *testing.T) {
	ok := Command[env]{Name: "fine", Summary: "fine"}
	cases := map[string][]Command[env]{
		"must be lower-case":     {{Name: "Bad", Summary: "x"}},
		"starting with a letter": {{Name: "9lives", Summary: "x"}},
		"registered twice":       {ok, {Name: "other", Aliases: []string{"fine"}, Summary: "x"}},
		"has no summary":         {{Name: "quiet"}},
		"not an action":          {{Name: "go", Summary: "x", Action: "launch"}},
		"declared twice":         {{Name: "img", Summary: "x", Flags: []Flag{{Name: "n"}, {Name: "n"}}}},
		"flag name":              {{Name: "img", Summary: "x", Flags: []Flag{{Name: "--n"}}}},
	}
	for want, cmds := range cases {
		r := NewRegistry[env]()
		err := r.Register(cmds...)
		if err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("Register(%v) = %v, want %q", cmds, err, want)
		}
		if len(r.Commands()) != 0 {
			t.Errorf("a refused call added %d commands", len(r.Commands()))
		}
	}
	r := NewRegistry[env]()
	if err := r.Register(ok); err != nil {
		t.Fatal(err)
	}
	if err := r.Register(Command[env]{Name: "fine", Summary: "again"}); err == nil {
		t.Error("a name taken by an earlier call was accepted")
	}
}

func TestLookupAndOrder(t *testing.T) {
	r := testCommands(t)
	c, ok := r.Lookup("EXIT")
	if !ok || c.Name != "quit" || c.Action != keys.Quit {
		t.Errorf("Lookup(EXIT) = %+v, %v", c, ok)
	}
	if _, ok := r.Lookup("nope"); ok {
		t.Error("Lookup found a command that does not exist")
	}
	var names []string
	for _, c := range r.Commands() {
		names = append(names, c.Name)
	}
	if !slices.Equal(names[:3], []string{"model", "theme", "new"}) {
		t.Errorf("order = %q", names)
	}
}
