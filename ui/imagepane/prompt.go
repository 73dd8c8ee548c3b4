package imagepane

import (
	"context"
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"time"
	"unicode"

	tea "charm.land/bubbletea/v2"

	"parley/internal/homepath"
	"parley/termsafe"
	"parley/ui/keys"
	"parley/ui/lineedit"
	"parley/ui/slash"
	"parley/ui/uictx"
)

// completeTimeout bounds one tab completion: a hung file system leaves
// the prompt usable and the answer is dropped.
const completeTimeout = 2 * time.Second

// maxPromptRunes bounds what the prompt holds (a paste of a whole file
// is not a path).
const maxPromptRunes = 4096

// savePrompt is the one-line "save a copy to" prompt, a ui/lineedit (its
// value is one clean line), with path completion on tab.
type savePrompt struct {
	key   string // the image being saved
	name  string // its default file name
	edit  lineedit.Model
	label string // the edit's prompt as last drawn
	err   string // why enter did nothing, or that nothing completes

	// Candidates of the last completion with several answers; tab again
	// steps through them while the value is one that tab put there.
	cands    []slash.Completion
	candIdx  int    // -1 before the first step
	candLast string // the value tab left

	cancel context.CancelFunc // the running completion
}

// completedMsg brings a completion's candidates to HandleMsg.
type completedMsg struct {
	seq   uint64
	input string
	items []slash.Completion
}

func (sp *savePrompt) stop() {
	if sp.cancel != nil {
		sp.cancel()
		sp.cancel = nil
	}
}

// openPrompt opens the prompt for it, prefilled with the suggested folder
// and the image's name.
func (p *Pane) openPrompt(it Item) tea.Cmd {
	name := fileName(it)
	v := name
	if p.dirs.Save != "" {
		v = homepath.Short(filepath.Join(p.dirs.Save, name), p.dirs.Home)
	}
	ed := lineedit.New(p.ctx, lineedit.Options{Limit: maxPromptRunes})
	ed.SetValue(v)
	p.prompt = &savePrompt{key: it.Key, name: name, edit: ed, candIdx: -1}
	if p.dirs.Save == "" {
		return nil
	}
	// The proposal must be a file that does not exist yet (the image's
	// own file is usually in that very folder): the folder is looked at
	// in a command, and the name replaced unless the user typed since.
	dir, home, key, shown := p.dirs.Save, p.dirs.Home, it.Key, v
	return func() tea.Msg {
		return proposedMsg{key: key, shown: shown, value: homepath.Short(freeName(dir, name), home)}
	}
}

// proposedMsg brings a save path that does not exist yet.
type proposedMsg struct{ key, shown, value string }

// maxProposals bounds the names tried ("name-2.png" … "name-99.png").
const maxProposals = 99

// freeName is dir/name, or dir/name-2.ext, -3 … when that exists.
func freeName(dir, name string) string {
	ext := filepath.Ext(name)
	stem := strings.TrimSuffix(name, ext)
	for i := 1; i <= maxProposals; i++ {
		n := name
		if i > 1 {
			n = stem + "-" + strconv.Itoa(i) + ext
		}
		p := filepath.Join(dir, n)
		if _, err := os.Lstat(p); errors.Is(err, fs.ErrNotExist) {
			return p
		}
	}
	return filepath.Join(dir, name)
}

// promptKey handles a key while the save prompt is open: esc, enter and
// tab are the prompt's; every other key edits the path (ui/lineedit's
// readline keys), so letters type rather than act.
func (p *Pane) promptKey(msg tea.KeyPressMsg) (tea.Cmd, uictx.Action) {
	sp := p.prompt
	k := msg.Keystroke()
	switch {
	case k == "esc" || keys.Matches(msg, p.ctx.Keys.Close):
		p.closePrompt()
		return nil, nil
	case k == "enter":
		v := strings.TrimSpace(sp.edit.Value())
		if v == "" {
			sp.err = "Type where to save the copy, for example ~/Pictures/" + sp.name + "."
			return nil, nil
		}
		path, why := p.expand(v, sp.name)
		if why != "" {
			sp.err = why
			return nil, nil
		}
		idx := p.index(sp.key)
		p.closePrompt()
		if idx < 0 {
			return nil, nil
		}
		return nil, p.chosen(Save, p.items[idx], path)
	case k == "tab":
		return p.complete(), nil
	}
	sp.update(msg)
	return nil, nil
}

// update gives a key or a paste to the editor; candidates and errors
// belong to the old value.
func (sp *savePrompt) update(msg tea.Msg) {
	if sp.edit.Update(msg) {
		sp.err, sp.cands, sp.candIdx = "", nil, -1
	}
}

// complete starts a path completion of the value, or steps to the next
// candidate when tab put the value there.
func (p *Pane) complete() tea.Cmd {
	sp := p.prompt
	v := sp.edit.Value()
	if len(sp.cands) > 1 && v == sp.candLast {
		sp.candIdx = (sp.candIdx + 1) % len(sp.cands)
		sp.edit.SetValue(sp.cands[sp.candIdx].Value)
		sp.candLast = sp.edit.Value()
		return nil
	}
	sp.stop()
	ctx, cancel := context.WithTimeout(context.Background(), completeTimeout)
	sp.cancel = cancel
	p.compSeq++
	seq := p.compSeq
	opt := slash.PathOptions{Dir: p.dirs.Work, Home: p.dirs.Home}
	return func() tea.Msg {
		defer cancel()
		return completedMsg{seq: seq, input: v, items: slash.CompletePath(ctx, v, opt)}
	}
}

// handleMsg takes the pane's own messages (completions and proposals of
// the save prompt) and a paste while the prompt is open. Other messages
// are ignored.
func (p *Pane) handleMsg(msg tea.Msg) tea.Cmd {
	switch msg := msg.(type) {
	case completedMsg:
		p.completed(msg)
	case proposedMsg:
		if sp := p.prompt; sp != nil && sp.key == msg.key && sp.edit.Value() == msg.shown {
			sp.edit.SetValue(msg.value)
		}
	case tea.PasteMsg:
		if p.prompt != nil {
			p.prompt.update(msg)
		}
	}
	return nil
}

// completed applies a completion's answer, unless the value changed or a
// newer one was asked for meanwhile.
func (p *Pane) completed(msg completedMsg) {
	sp := p.prompt
	if sp == nil || msg.seq != p.compSeq || sp.edit.Value() != msg.input {
		return
	}
	sp.cancel = nil
	switch len(msg.items) {
	case 0:
		sp.err = "Nothing here starts with that."
	case 1:
		sp.edit.SetValue(msg.items[0].Value)
		sp.cands = nil
	default:
		if pre := commonPrefix(msg.items); len(pre) > len(msg.input) {
			sp.edit.SetValue(pre)
		} else {
			sp.edit.SetPosition(len([]rune(msg.input)))
		}
		sp.cands, sp.candIdx, sp.candLast = msg.items, -1, sp.edit.Value()
	}
}

// commonPrefix is the longest prefix, in whole runes, of every
// candidate's value.
func commonPrefix(items []slash.Completion) string {
	pre := []rune(items[0].Value)
	for _, c := range items[1:] {
		cr := []rune(c.Value)
		n := 0
		for n < len(pre) && n < len(cr) && pre[n] == cr[n] {
			n++
		}
		pre = pre[:n]
	}
	return string(pre)
}

// expand turns what the user typed into the path to write, or says why
// it cannot.
func (p *Pane) expand(v, name string) (string, string) {
	dirOnly := strings.HasSuffix(v, "/") || v == "~"
	v = slash.ExpandHome(v, p.dirs.Home)
	if strings.HasPrefix(v, "~") {
		return "", "Only ~/ (your home folder) is expanded here; type the full path instead."
	}
	if dirOnly {
		v = filepath.Join(v, name)
	}
	if !filepath.IsAbs(v) && p.dirs.Work != "" {
		v = filepath.Join(p.dirs.Work, v)
	}
	return filepath.Clean(v), ""
}

// fileName is the name a saved copy gets by default: the image's name
// with anything unsafe in a file name made "_", and an extension matching
// its format when it has none.
func fileName(it Item) string {
	name := it.DisplayName()
	var b strings.Builder
	for _, r := range name {
		if r == '/' || r == '\\' || unicode.IsControl(r) || !termsafe.IsClean(string(r)) {
			r = '_'
		}
		b.WriteRune(r)
	}
	name = strings.TrimLeft(b.String(), ".")
	if name == "" {
		name = "image"
	}
	if filepath.Ext(name) == "" {
		name += extFor(it.MIME)
	}
	return name
}

func extFor(mime string) string {
	switch mime {
	case "image/jpeg":
		return ".jpg"
	case "image/webp":
		return ".webp"
	case "image/gif":
		return ".gif"
	}
	return ".png"
}
