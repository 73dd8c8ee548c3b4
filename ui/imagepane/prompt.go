package imagepane

import (
	"context"
	"path/filepath"
	"strings"
	"time"
	"unicode"

	tea "charm.land/bubbletea/v2"

	"parley/termsafe"
	"parley/ui/keys"
	"parley/ui/slash"
)

// completeTimeout bounds one tab completion: a hung file system leaves
// the prompt usable and the answer is dropped.
const completeTimeout = 2 * time.Second

// maxPromptRunes bounds what the prompt holds (a paste of a whole file
// is not a path).
const maxPromptRunes = 4096

// savePrompt is the one-line "save a copy to" prompt. Its value holds only
// clean text (termsafe.IsClean, no tabs or line breaks), so it is drawn
// as it is.
type savePrompt struct {
	key   string // the image being saved
	name  string // its default file name
	value []rune
	cur   int    // cursor, in runes
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
func (p *Pane) openPrompt(it Item) {
	name := fileName(it)
	v := name
	if p.dirs.Save != "" {
		v = shortHome(filepath.Join(p.dirs.Save, name), p.dirs.Home)
	}
	p.prompt = &savePrompt{key: it.Key, name: name, value: []rune(v), cur: len([]rune(v)), candIdx: -1}
}

// SavePath is the absolute (when the folders are known), cleaned path the
// user chose in the save prompt; set when HandleKey returns Save. "~" is
// expanded, a relative path starts in Dirs.Work, and a path ending in "/"
// gets the image's name.
func (p *Pane) SavePath() string { return p.savePath }

// promptKey handles a key while the save prompt is open.
func (p *Pane) promptKey(msg tea.KeyPressMsg) (Action, tea.Cmd) {
	sp := p.prompt
	k := msg.Keystroke()
	switch {
	case k == "esc" || keys.Matches(msg, p.ctx.Keys.Close):
		p.closePrompt()
		return None, nil
	case k == "enter":
		v := strings.TrimSpace(string(sp.value))
		if v == "" {
			sp.err = "Type where to save the copy, for example ~/Pictures/" + sp.name + "."
			return None, nil
		}
		path, why := p.expand(v, sp.name)
		if why != "" {
			sp.err = why
			return None, nil
		}
		p.savePath = path
		p.closePrompt()
		return Save, nil
	case k == "tab":
		return None, p.complete()
	case k == "left" || k == "ctrl+b":
		sp.cur = max(sp.cur-1, 0)
	case k == "right" || k == "ctrl+f":
		sp.cur = min(sp.cur+1, len(sp.value))
	case k == "home" || k == "ctrl+a":
		sp.cur = 0
	case k == "end" || k == "ctrl+e":
		sp.cur = len(sp.value)
	case k == "backspace" || k == "ctrl+h":
		if sp.cur > 0 {
			sp.edit(sp.cur-1, sp.cur, "")
		}
	case k == "delete" || k == "ctrl+d":
		if sp.cur < len(sp.value) {
			sp.edit(sp.cur, sp.cur+1, "")
		}
	case k == "ctrl+u":
		sp.edit(0, sp.cur, "")
	case k == "ctrl+k":
		sp.edit(sp.cur, len(sp.value), "")
	case k == "ctrl+w" || k == "alt+backspace":
		sp.edit(wordStart(sp.value, sp.cur), sp.cur, "")
	case msg.Text != "" && msg.Mod&^(tea.ModShift|tea.ModCapsLock) == 0:
		sp.edit(sp.cur, sp.cur, msg.Text)
	}
	return None, nil
}

// edit replaces value[from:to] with the clean part of text and puts the
// cursor after it; candidates and errors belong to the old value.
func (sp *savePrompt) edit(from, to int, text string) {
	ins := []rune(cleanInput(text))
	ins = ins[:min(len(ins), max(maxPromptRunes-(len(sp.value)-(to-from)), 0))]
	v := make([]rune, 0, len(sp.value)-(to-from)+len(ins))
	v = append(v, sp.value[:from]...)
	v = append(v, ins...)
	v = append(v, sp.value[to:]...)
	sp.value, sp.cur = v, from+len(ins)
	sp.err, sp.cands, sp.candIdx = "", nil, -1
}

// cleanInput keeps the runes of typed or pasted text that can be shown
// and typed safely: no control characters, no bidi controls, no line
// breaks or tabs.
func cleanInput(s string) string {
	if termsafe.IsClean(s) && !strings.ContainsAny(s, "\t\n\r") {
		return s
	}
	var b strings.Builder
	for _, r := range s {
		if unicode.IsControl(r) || !termsafe.IsClean(string(r)) {
			continue
		}
		b.WriteRune(r)
	}
	return b.String()
}

// wordStart is where ctrl+w deletes back to: over separators, then to
// the previous "/" or space.
func wordStart(v []rune, cur int) int {
	i := cur
	for i > 0 && (v[i-1] == '/' || v[i-1] == ' ') {
		i--
	}
	for i > 0 && v[i-1] != '/' && v[i-1] != ' ' {
		i--
	}
	return i
}

// complete starts a path completion of the value, or steps to the next
// candidate when tab put the value there.
func (p *Pane) complete() tea.Cmd {
	sp := p.prompt
	v := string(sp.value)
	if len(sp.cands) > 1 && v == sp.candLast {
		sp.candIdx = (sp.candIdx + 1) % len(sp.cands)
		sp.set(sp.cands[sp.candIdx].Value)
		sp.candLast = string(sp.value)
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

// set replaces the whole value and puts the cursor at its end.
func (sp *savePrompt) set(v string) {
	sp.value = []rune(v)
	sp.cur = len(sp.value)
}

// HandleMsg takes the pane's own messages (completions of the save
// prompt) and a paste while the prompt is open. Other messages are
// ignored.
func (p *Pane) HandleMsg(msg tea.Msg) tea.Cmd {
	switch msg := msg.(type) {
	case completedMsg:
		p.completed(msg)
	case tea.PasteMsg:
		if p.prompt != nil {
			p.prompt.edit(p.prompt.cur, p.prompt.cur, msg.Content)
		}
	}
	return nil
}

// completed applies a completion's answer, unless the value changed or a
// newer one was asked for meanwhile.
func (p *Pane) completed(msg completedMsg) {
	sp := p.prompt
	if sp == nil || msg.seq != p.compSeq || string(sp.value) != msg.input {
		return
	}
	sp.cancel = nil
	switch len(msg.items) {
	case 0:
		sp.err = "Nothing here starts with that."
	case 1:
		sp.set(msg.items[0].Value)
		sp.cands = nil
	default:
		if pre := commonPrefix(msg.items); len(pre) > len(msg.input) {
			sp.set(pre)
		} else {
			sp.cur = len(sp.value)
		}
		sp.cands, sp.candIdx, sp.candLast = msg.items, -1, string(sp.value)
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

// shortHome writes a path under home with "~".
func shortHome(path, home string) string {
	if home != "" && (path == home || strings.HasPrefix(path, home+string(filepath.Separator))) {
		return "~" + path[len(home):]
	}
	return path
}
