package ui

import (
	"context"
	"fmt"
	"strconv"

	tea "charm.land/bubbletea/v2"

	"parley/ui/cells"
	"parley/ui/keys"
	"parley/ui/slash"
)

// action is one thing the user can do, declared once: the key binding it
// answers to (a keys action, whose keys and help text live in ui/keys and
// the config's [keys]), the slash command that does the same (its name,
// arguments, summary and completion), and what it does (op). The table is
// data: an action cannot change the model; the root performs its op in
// Update (perform.go), as it acts on a component's result. The registry
// of slash commands is made from this table, so a command cannot exist
// without its op; a test checks every key action of the chat has one.
type action struct {
	// key is the keys action name ("" for a command without a key).
	key string
	// cmd is the slash command (Name "" for a key without a command); its
	// Action is set from key.
	cmd slash.Command[commandEnv]
	// app: the key works whatever has the keys; with a layer open it
	// closes the layers first (opens names the layer it opens, so the key
	// closes that layer instead).
	app   bool
	opens string
	// when says whether the key applies now; otherwise it is the
	// composer's (an arrow in a composer with text moves the cursor).
	when condition
	// op is what it does.
	op op
}

// condition is when a key that is also an editing key of the composer
// is an action's.
type condition int

const (
	// always: the key is the action's.
	always condition = iota
	// whileTextEmpty: the composer holds no text.
	whileTextEmpty
	// whileNothingDrafted: the composer holds nothing (no text, no
	// attachment), no reply streams and the conversation has a message.
	whileNothingDrafted
)

// keyState is what the conditions read, taken once per key.
type keyState struct {
	textEmpty, nothingDrafted bool
}

func (st keyState) holds(c condition) bool {
	switch c {
	case always:
		return true
	case whileTextEmpty:
		return st.textEmpty
	case whileNothingDrafted:
		return st.nothingDrafted
	}
	return true
}

// call is how an action was asked for.
type call struct {
	// inv is the command line (zero for a key).
	inv slash.Invocation
	// key is the key pressed (zero for a command).
	key tea.KeyPressMsg
}

// byKey reports whether the action was asked for with a key.
func (c call) byKey() bool { return c.inv.Name == "" }

// actionTable is the chat's actions in the order keys are matched, and
// the slash command registry made from them.
type actionTable struct {
	list     []action
	commands *slash.Registry[commandEnv]
}

// newActionTable registers every action's command.
func newActionTable(list []action) actionTable {
	t := actionTable{list: list, commands: slash.NewRegistry[commandEnv]()}
	var cmds []slash.Command[commandEnv]
	for _, a := range t.list {
		if a.op == 0 {
			panic("the action " + a.key + a.cmd.Name + " does nothing")
		}
		if a.cmd.Name == "" {
			continue
		}
		c := a.cmd
		c.Action = a.key
		cmds = append(cmds, c)
	}
	if err := t.commands.Register(cmds...); err != nil {
		// The table is fixed: a mistake in it is a bug every test that
		// builds a model finds.
		panic(err)
	}
	return t
}

// forKey is the action a key press asks for now, if any.
func (t actionTable) forKey(km *keys.Map, msg tea.KeyPressMsg, st keyState) (action, bool) {
	for _, a := range t.list {
		if a.key == "" {
			continue
		}
		b, ok := km.Binding(a.key)
		if !ok || !keys.Matches(msg, b) {
			continue
		}
		if keys.Printable(keys.Matched(msg, b)) && !st.textEmpty {
			// A key that types a character acts only while there is no
			// text to type it into.
			continue
		}
		if st.holds(a.when) {
			return a, true
		}
	}
	return action{}, false
}

// appKey is the app action a key press asks for (quit, help, notices, …),
// which works whatever has the keys.
func (t actionTable) appKey(km *keys.Map, msg tea.KeyPressMsg, st keyState) (action, bool) {
	a, ok := t.forKey(km, msg, st)
	return a, ok && a.app
}

// forCommand is the action of a command line.
func (t actionTable) forCommand(name string) (action, bool) {
	for _, a := range t.list {
		if a.cmd.Name == name {
			return a, true
		}
	}
	return action{}, false
}

// runCommand runs a parsed command line. It runs in Update, like a key: a
// command is another way to press one. A command refused (an error
// notice) gets its line back in the composer, as an unknown command keeps
// it, so nothing typed is lost; one that runs on off Update (/attach,
// /export) puts it back when its result says it failed.
func (m *Model) runCommand(inv slash.Invocation) tea.Cmd {
	a, ok := m.actions.forCommand(inv.Name)
	if !ok {
		return m.notes.show("the command /"+cells.OneLine(inv.Name)+" is not handled", toastErr)
	}
	before := m.notes.gen
	cmd := m.perform(a.op, call{inv: inv})
	if kind, shown := m.notes.shownSince(before); shown && kind == toastErr {
		m.comp.keepLine(typedLine(inv))
	}
	return cmd
}

// nameArg completes a command's first word from a list.
func nameArg(list func(env commandEnv) []string) func(context.Context, slash.Arg, commandEnv) []slash.Completion {
	return func(_ context.Context, a slash.Arg, env commandEnv) []slash.Completion { return words(list(env), a) }
}

// numberArg reads a command's optional number argument (/copy 2,
// /detach 1); 0 when none was given.
func numberArg(inv slash.Invocation, what string, max int) (int, error) {
	if inv.Args == "" {
		return 0, nil
	}
	n, err := strconv.Atoi(inv.Args)
	if err != nil || n < 1 || (max > 0 && n > max) {
		if max > 0 {
			return 0, fmt.Errorf("/%s takes the number of %s, 1 to %d, not %q", inv.Name, what, max, cells.OneLine(inv.Args))
		}
		return 0, fmt.Errorf("/%s takes the number of %s, like /%s 2, not %q", inv.Name, what, inv.Name, cells.OneLine(inv.Args))
	}
	return n, nil
}
