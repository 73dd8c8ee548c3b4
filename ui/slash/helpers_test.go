package slash

import (
	"context"
	"strings"
	"testing"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"

	"parley/themes"
	"parley/ui/keys"
	"parley/ui/uictx"
)

// env is the completion environment the tests hand the list, as the root
// will: the lists its commands complete from.
type env struct {
	models []string
	themes []string
	dir    string
	home   string
}

func valuesOf(vs []string) []Completion {
	out := make([]Completion, len(vs))
	for i, v := range vs {
		out[i] = Completion{Value: v}
	}
	return out
}

// testCommands is a registry shaped like the chat's: key-table actions as
// commands, free text, flags, paths.
func testCommands(t testing.TB) *Registry[env] {
	t.Helper()
	r := NewRegistry[env]()
	err := r.Register(
		Command[env]{Name: "model", Args: "[name]", Summary: "choose model", Action: keys.ModelPicker,
			Complete: func(_ context.Context, a Arg, e env) []Completion {
				return FilterCompletions(a.Word, valuesOf(e.models))
			}},
		Command[env]{Name: "theme", Args: "[name]", Summary: "choose theme", Action: keys.ThemePicker,
			Complete: func(_ context.Context, a Arg, e env) []Completion {
				return FilterCompletions(a.Word, valuesOf(e.themes))
			}},
		Command[env]{Name: "new", Summary: "new conversation", Action: keys.NewConversation},
		Command[env]{Name: "retry", Summary: "retry / regenerate", Action: keys.Retry},
		Command[env]{Name: "copy", Args: "[n]", Summary: "copy reply, or code block n", Action: keys.CopyReply},
		Command[env]{Name: "system", Args: "[text]", Summary: "show or set the system prompt"},
		Command[env]{Name: "help", Summary: "keys and commands", Action: keys.Help},
		Command[env]{Name: "quit", Aliases: []string{"q", "exit"}, Summary: "quit", Action: keys.Quit},
		Command[env]{Name: "attach", Args: "PATH…", Summary: "attach images",
			Complete: func(ctx context.Context, a Arg, e env) []Completion {
				return CompletePath(ctx, a.Word, PathOptions{Dir: e.dir, Home: e.home})
			}},
		Command[env]{Name: "image", Args: "PROMPT [options]", Summary: "generate an image",
			Flags: []Flag{
				{Name: "n", Value: "N", Usage: "how many images"},
				{Name: "size", Value: "WxH", Usage: "pixel size"},
				{Name: "model", Value: "NAME", Usage: "image model"},
			},
			Complete: func(_ context.Context, a Arg, e env) []Completion {
				switch a.Flag {
				case "model":
					return FilterCompletions(a.Word, valuesOf(e.models))
				case "size":
					return FilterCompletions(a.Word, valuesOf([]string{"1024x1024", "1024x1536", "1536x1024"}))
				}
				return nil
			}},
	)
	if err != nil {
		t.Fatal(err)
	}
	return r
}

// testCtx is a UI context with the built-in dark theme (or NO_COLOR) and
// the default keys.
func testCtx(t testing.TB, noColor bool) *uictx.Context {
	t.Helper()
	th, ok := themes.NewSet().Get(themes.Dark)
	if !ok {
		t.Fatal("no dark theme")
	}
	return &uictx.Context{Width: 80, Height: 24, Theme: th, Styles: th.Styles(noColor), NoColor: noColor, Keys: keys.Default()}
}

func testEnv() env {
	return env{
		models: []string{"gpt-4o", "gpt-4o-mini", "claude-sonnet", "llava-13b"},
		themes: []string{"auto", "dark", "light", "dracula"},
	}
}

// newTestList is an open-ready list over the test commands.
func newTestList(t testing.TB) List[env] {
	t.Helper()
	l := NewList(testCtx(t, false), testCommands(t))
	l.SetEnv(testEnv())
	return l
}

// press builds the key press a terminal sends for a keystroke name such as
// "up", "ctrl+p", "enter", "esc", "tab", "shift+tab" or "a".
func press(name string) tea.KeyPressMsg {
	var mod tea.KeyMod
	for {
		switch {
		case strings.HasPrefix(name, "ctrl+"):
			mod |= tea.ModCtrl
			name = strings.TrimPrefix(name, "ctrl+")
			continue
		case strings.HasPrefix(name, "alt+"):
			mod |= tea.ModAlt
			name = strings.TrimPrefix(name, "alt+")
			continue
		case strings.HasPrefix(name, "shift+"):
			mod |= tea.ModShift
			name = strings.TrimPrefix(name, "shift+")
			continue
		}
		break
	}
	special := map[string]rune{
		"up": tea.KeyUp, "down": tea.KeyDown, "left": tea.KeyLeft, "right": tea.KeyRight,
		"enter": tea.KeyEnter, "esc": tea.KeyEscape, "tab": tea.KeyTab, "backspace": tea.KeyBackspace,
		"pgup": tea.KeyPgUp, "pgdown": tea.KeyPgDown,
	}
	if c, ok := special[name]; ok {
		return tea.KeyPressMsg{Code: c, Mod: mod}
	}
	r := []rune(name)
	k := tea.KeyPressMsg{Code: r[0], Mod: mod}
	if mod&(tea.ModCtrl|tea.ModAlt) == 0 {
		k.Text = name
	}
	return k
}

// run executes a command the list returned (a Complete call) and feeds its
// message back, as the Bubble Tea runtime and the root would.
func run(t testing.TB, l *List[env], cmd tea.Cmd) Result {
	t.Helper()
	if cmd == nil {
		return Result{}
	}
	msg := cmd()
	cm, ok := msg.(CompletionsMsg)
	if !ok {
		t.Fatalf("command returned %T, want CompletionsMsg", msg)
	}
	res, next := l.Update(cm)
	if next != nil {
		res2 := run(t, l, next)
		if res2.Outcome != Pass {
			return res2
		}
	}
	return res
}

// typeInto opens the list and sets the composer text, running any
// completion it asks for.
func typeInto(t testing.TB, l *List[env], text string) {
	t.Helper()
	if !l.IsOpen() {
		run(t, l, l.Open(text))
		return
	}
	run(t, l, l.SetInput(text))
}

// plain strips styles from a rendered view.
func plain(s string) string { return ansi.Strip(s) }

// requireArea fails unless view is exactly h lines of exactly w cells.
func requireArea(t testing.TB, view string, w, h int) {
	t.Helper()
	lines := strings.Split(view, "\n")
	if len(lines) != h {
		t.Fatalf("view has %d lines, want %d:\n%s", len(lines), h, plain(view))
	}
	for i, l := range lines {
		if got := ansi.StringWidth(l); got != w {
			t.Fatalf("line %d is %d cells wide, want %d: %q", i, got, w, plain(l))
		}
	}
}

// cursor is the highlighted row of the list shown.
func (l List[E]) cursor() int {
	if l.mode == modeArgs {
		return l.candList.Cursor()
	}
	return l.names.Cursor()
}
