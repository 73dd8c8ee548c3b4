package slash_test

import (
	"context"
	"fmt"

	tea "charm.land/bubbletea/v2"

	"parley/themes"
	"parley/ui/keys"
	"parley/ui/slash"
	"parley/ui/uictx"
)

// completionEnv is what the root hands the commands' Complete functions.
type completionEnv struct{ models []string }

// root is the smallest root model that wires the command list. Its
// composer is a string; in the chat it is the textarea, and "dispatch" is
// the root's own switch over the commands it registered.
type root struct {
	composer string
	reg      *slash.Registry[completionEnv]
	list     slash.List[completionEnv]
}

// update is the part of the root's Update that concerns commands.
func (m *root) update(msg tea.Msg) tea.Cmd {
	switch msg := msg.(type) {
	case slash.CompletionsMsg:
		res, cmd := m.list.Update(msg)
		return tea.Batch(cmd, m.apply(res))
	case tea.KeyPressMsg:
		// (The root's global keys, quit and interrupt, come first.)
		if m.list.IsOpen() {
			if res, cmd := m.list.Update(msg); res.Outcome != slash.Pass {
				return tea.Batch(cmd, m.apply(res))
			}
		}
		switch {
		case msg.Text == "/" && m.composer == "":
			m.composer = "/"
			return m.list.Open(m.composer)
		case msg.Code == tea.KeyEnter: // the list is closed: the send path
			inv, text, err := m.reg.Parse(m.composer)
			return m.apply(slash.Result{Outcome: outcome(inv, err), Invocation: inv, Text: text, Err: err})
		case msg.Code == tea.KeyBackspace && m.composer != "":
			m.composer = m.composer[:len(m.composer)-1]
		default:
			m.composer += msg.Text
		}
		return m.list.SetInput(m.composer) // after every composer edit
	}
	return nil
}

func outcome(inv slash.Invocation, err error) slash.Outcome {
	switch {
	case err != nil:
		return slash.Fail
	case inv.Name != "":
		return slash.Run
	}
	return slash.Send
}

// apply carries out what the list (or Parse) asked for.
func (m *root) apply(res slash.Result) tea.Cmd {
	switch res.Outcome {
	case slash.Replace, slash.Closed:
		m.composer = res.Text
	case slash.Run:
		m.composer = ""
		fmt.Printf("run /%s %q\n", res.Invocation.Name, res.Invocation.Args)
	case slash.Send:
		m.composer = ""
		fmt.Printf("send %q\n", res.Text)
	case slash.Fail:
		fmt.Println("error:", res.Err) // the composer keeps its text
	}
	return nil
}

// Example wires the registry and the list into a root model, then types
// "/mo", tab, "g", tab, enter; then a mistyped command; then "//" text.
// (A command's letters in order, "/nw", would run the highlighted /new.)
func Example() {
	reg := slash.NewRegistry[completionEnv]()
	err := reg.Register(
		slash.Command[completionEnv]{Name: "model", Args: "[name]", Summary: "choose model", Action: keys.ModelPicker,
			Complete: func(_ context.Context, a slash.Arg, e completionEnv) []slash.Completion {
				var all []slash.Completion
				for _, m := range e.models {
					all = append(all, slash.Completion{Value: m})
				}
				return slash.FilterCompletions(a.Word, all)
			}},
		slash.Command[completionEnv]{Name: "new", Summary: "new conversation", Action: keys.NewConversation},
	)
	if err != nil {
		panic(err)
	}
	th, _ := themes.NewSet().Get(themes.Dark)
	ctx := &uictx.Context{Theme: th, Styles: th.Styles(false), Keys: keys.Default()}
	m := &root{reg: reg, list: slash.NewList(ctx, reg)}
	m.list.SetEnv(completionEnv{models: []string{"gpt-4o", "gpt-4o-mini", "llava-13b"}})

	// runCmds plays the Bubble Tea runtime: run each command, feed its
	// message back to update.
	var runCmds func(tea.Cmd)
	runCmds = func(cmd tea.Cmd) {
		for cmd != nil {
			msg := cmd()
			if batch, ok := msg.(tea.BatchMsg); ok {
				for _, c := range batch {
					runCmds(c)
				}
				return
			}
			cmd = m.update(msg)
		}
	}
	typeKeys := func(ks ...tea.KeyPressMsg) {
		for _, k := range ks {
			runCmds(m.update(k))
		}
	}
	char := func(s string) tea.KeyPressMsg { return tea.KeyPressMsg{Code: rune(s[0]), Text: s} }
	tab := tea.KeyPressMsg{Code: tea.KeyTab}
	enter := tea.KeyPressMsg{Code: tea.KeyEnter}

	typeKeys(char("/"), char("m"), char("o"), tab)
	fmt.Printf("composer %q\n", m.composer)
	typeKeys(char("g"), tab)
	fmt.Printf("composer %q\n", m.composer)
	typeKeys(enter)
	typeKeys(char("/"), char("n"), char("w"), char("e"), enter)
	fmt.Printf("composer %q, list open %v\n", m.composer, m.list.IsOpen())
	m.composer = ""
	typeKeys(char("/"), char("/"), char("x"), enter)
	// Output:
	// composer "/model "
	// composer "/model gpt-4o"
	// run /model "gpt-4o"
	// error: unknown command /nwe; did you mean /new? Type / to see every command
	// composer "/nwe", list open true
	// send "/x"
}
