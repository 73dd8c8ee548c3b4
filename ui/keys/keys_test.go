package keys

import (
	"strings"
	"testing"

	tea "charm.land/bubbletea/v2"
)

// The default keys must not collide with the composer's editing keys or
// with keys legacy terminals cannot tell apart, and Load with no overrides
// must report nothing.
func TestDefaultsAreClean(t *testing.T) {
	m, problems := Load(nil)
	if len(problems) != 0 {
		t.Fatalf("defaults report problems: %q", problems)
	}
	editing := composerKeys()
	for _, s := range specs {
		b := *s.field(&m)
		if !b.Enabled() {
			t.Errorf("%s has no key by default", s.name)
		}
		for _, k := range b.Keys() {
			if nk, err := Normalize(k); err != nil || nk != k {
				t.Errorf("%s: default key %q is not in normal form (%q, %v)", s.name, k, nk, err)
			}
			if s.ctx&ctxChat == 0 || s.emptyOnly {
				continue
			}
			if what, ok := editing[k]; ok {
				t.Errorf("%s: default key %q is the composer's %q", s.name, k, what)
			}
			switch k {
			case "ctrl+i", "ctrl+m", "ctrl+h", "ctrl+[", "ctrl+s", "ctrl+z", "ctrl+\\":
				t.Errorf("%s: default key %q is one terminals swallow or confuse", s.name, k)
			}
			if Printable(k) && s.name != Help {
				t.Errorf("%s: default key %q types text", s.name, k)
			}
		}
	}
}

func press(code rune, mod tea.KeyMod, text string) tea.KeyPressMsg {
	return tea.KeyPressMsg{Code: code, Mod: mod, Text: text}
}

func TestMatchesKeystrokeAndText(t *testing.T) {
	m := Default()
	cases := []struct {
		msg  tea.KeyPressMsg
		b    string
		want bool
	}{
		{press(tea.KeyEnter, 0, ""), Send, true},
		{press(tea.KeyEnter, tea.ModShift, ""), Newline, true},
		{press(tea.KeyEnter, tea.ModAlt, ""), Newline, true},
		{press('j', tea.ModCtrl, ""), Newline, true},
		{press('3', tea.ModAlt, ""), CopyCode, true},
		// A terminal that attaches text to alt+3 still matches by keystroke.
		{press('3', tea.ModAlt, "3"), CopyCode, true},
		{press('3', 0, "3"), CopyCode, false},
		{press('?', 0, "?"), Help, false},
		{press(tea.KeyF1, 0, ""), Help, true},
		{press('c', tea.ModCtrl, ""), Interrupt, true},
		{press('q', tea.ModCtrl, ""), Quit, true},
		{press(tea.KeyPgDown, 0, ""), ScrollDown, true},
		{press(tea.KeyEscape, 0, ""), Cancel, true},
	}
	for _, c := range cases {
		b, ok := m.Binding(c.b)
		if !ok {
			t.Fatalf("no binding %s", c.b)
		}
		if got := Matches(c.msg, b); got != c.want {
			t.Errorf("Matches(%q, %s) = %v, want %v", c.msg.String(), c.b, got, c.want)
		}
	}
}

func TestNormalize(t *testing.T) {
	good := map[string]string{
		"Ctrl+O":       "ctrl+o",
		"shift+ctrl+x": "ctrl+shift+x",
		"PgDn":         "pgdown",
		"alt+Enter":    "alt+enter",
		"F12":          "f12",
		"shift+a":      "A",
		"option+t":     "alt+t",
		"ctrl++":       "ctrl++",
		"escape":       "esc",
		"?":            "?",
	}
	for in, want := range good {
		got, err := Normalize(in)
		if err != nil || got != want {
			t.Errorf("Normalize(%q) = %q, %v; want %q", in, got, err, want)
		}
	}
	for _, bad := range []string{"", "ctrl+", "hyperdrive+x", "ctrl+foo", "ctrl+i", "ctrl+m", "ctrl+h", "ctrl+[", "f99"} {
		if got, err := Normalize(bad); err == nil {
			t.Errorf("Normalize(%q) = %q, want an error", bad, got)
		}
	}
}

func TestLoadOverrides(t *testing.T) {
	m, problems := Load(map[string][]string{
		"send":         {"ctrl+j"},
		"newline":      {"enter"},
		"model_picker": {"Ctrl+Y"}, // takes copy_reply's key
		"retry":        {"ctrl+i"}, // unusable: keeps the default
		"launch":       {"f5"},     // unknown action
		"theme_picker": {"x"},      // printable
		"editor":       {"ctrl+a"}, // hides the composer's line start
	})
	if got := m.Send.Keys(); len(got) != 1 || got[0] != "ctrl+j" {
		t.Errorf("send keys = %q", got)
	}
	if got := m.Newline.Keys(); len(got) != 1 || got[0] != "enter" {
		t.Errorf("newline keys = %q", got)
	}
	if got := m.ModelPicker.Keys(); len(got) != 1 || got[0] != "ctrl+y" {
		t.Errorf("model_picker keys = %q", got)
	}
	if m.CopyReply.Enabled() {
		t.Errorf("copy_reply still has %q after model_picker took ctrl+y", m.CopyReply.Keys())
	}
	if got := m.Retry.Keys(); len(got) != 1 || got[0] != "ctrl+r" {
		t.Errorf("retry keys = %q, want the default after a bad override", got)
	}
	want := []string{"launch", "ctrl+i", "theme_picker", "ctrl+y now runs model_picker", "composer's \"line start\""}
	all := strings.Join(problems, "\n")
	for _, w := range want {
		if !strings.Contains(all, w) {
			t.Errorf("problems do not mention %q:\n%s", w, all)
		}
	}
	if len(problems) != len(want) {
		t.Errorf("got %d problems, want %d:\n%s", len(problems), len(want), all)
	}
}

func TestLoadConflictBetweenOverrides(t *testing.T) {
	m, problems := Load(map[string][]string{
		"editor": {"ctrl+o"},
		"retry":  {"ctrl+o"},
	})
	// editor comes first in help order and keeps the key.
	if !Matches(press('o', tea.ModCtrl, ""), m.Editor) || Matches(press('o', tea.ModCtrl, ""), m.Retry) {
		t.Errorf("editor %q, retry %q", m.Editor.Keys(), m.Retry.Keys())
	}
	if len(problems) < 1 || !strings.Contains(strings.Join(problems, " "), "set for both editor and retry") {
		t.Errorf("problems = %q", problems)
	}
	// model_picker lost ctrl+o to the overrides and says so.
	if m.ModelPicker.Enabled() {
		t.Errorf("model_picker still bound: %q", m.ModelPicker.Keys())
	}
}

func TestUnbindWithEmptyList(t *testing.T) {
	m, problems := Load(map[string][]string{"new_conversation": {}})
	if len(problems) != 0 || m.NewConversation.Enabled() {
		t.Errorf("new_conversation = %q (%v), problems %q", m.NewConversation.Keys(), m.NewConversation.Enabled(), problems)
	}
	for _, g := range m.Groups() {
		for _, b := range g.Bindings {
			if b.Help().Desc == "new conversation" {
				t.Errorf("unbound action still in help group %s", g.Title)
			}
		}
	}
}

func TestGroupsFollowLiveBindings(t *testing.T) {
	m, _ := Load(map[string][]string{"model_picker": {"f4"}})
	found := false
	for _, g := range m.Groups() {
		for _, b := range g.Bindings {
			if b.Help().Desc == "choose model" {
				found = true
				if b.Help().Key != "f4" {
					t.Errorf("help shows %q for model_picker, want f4", b.Help().Key)
				}
			}
		}
	}
	if !found {
		t.Fatal("model picker missing from help groups")
	}
	if got := m.CopyCode.Help().Key; got != "alt+1…9" {
		t.Errorf("copy_code help key = %q", got)
	}
}

func TestForTerminalHidesShiftEnterOnLegacyTerminals(t *testing.T) {
	m := Default()
	if got := m.ForTerminal(false).Newline.Help().Key; strings.Contains(got, "shift+enter") {
		t.Errorf("legacy help shows %q", got)
	}
	if got := m.ForTerminal(true).Newline.Help().Key; !strings.HasPrefix(got, "shift+enter") {
		t.Errorf("enhanced help shows %q", got)
	}
	// Matching is unchanged.
	if !Matches(press(tea.KeyEnter, tea.ModShift, ""), m.ForTerminal(false).Newline) {
		t.Error("shift+enter stopped matching")
	}
}

func TestCodeBlockDigit(t *testing.T) {
	for k, want := range map[string]int{"alt+1": 1, "alt+9": 9, "ctrl+g": 0, "f10": 0, "alt+0": 0, "3": 3} {
		if got := CodeBlockDigit(k); got != want {
			t.Errorf("CodeBlockDigit(%q) = %d, want %d", k, got, want)
		}
	}
}

// TestUnknownActionNamesTheRightOnes: the help overlay shows what keys do,
// not the config names, so a misspelt name gets the name it is closest to,
// and a name close to none gets the list.
func TestUnknownActionNamesTheRightOnes(t *testing.T) {
	_, problems := Load(map[string][]string{"model_pickr": {"f6"}})
	if len(problems) != 1 || !strings.Contains(problems[0], `did you mean "model_picker"?`) {
		t.Errorf("misspelt action: %q", problems)
	}
	_, problems = Load(map[string][]string{"launch_rockets": {"f6"}})
	if len(problems) != 1 {
		t.Fatalf("unknown action: %q", problems)
	}
	for _, a := range Actions() {
		if !strings.Contains(problems[0], a) {
			t.Errorf("the problem does not list the action %q: %s", a, problems[0])
		}
	}
}
