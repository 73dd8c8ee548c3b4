package filepicker

import (
	"path/filepath"
	"slices"
	"strconv"
	"strings"

	tea "charm.land/bubbletea/v2"

	"parley/internal/bytesize"
	"parley/ui/cells"
	"parley/ui/keys"
	"parley/ui/uictx"
)

// Update handles a key, a paste, the mouse wheel, a folder read or a
// preview; its action, when not nil, is a Result, what the root should do
// (uictx.Component).
func (p *Picker) Update(msg tea.Msg) (tea.Cmd, uictx.Action) {
	res, cmd := p.update(msg)
	if res.Action == None && res.Preview == nil {
		return cmd, nil
	}
	return cmd, res
}

// update is Update with its Result as it is.
func (p *Picker) update(msg tea.Msg) (Result, tea.Cmd) {
	switch msg.(type) {
	case listedMsg, sniffedMsg, peekMsg, PreviewMsg, tea.KeyPressMsg, tea.PasteMsg, tea.MouseWheelMsg:
	default:
		return Result{}, nil // not the picker's: nothing changes, the view stays cached
	}
	res, cmd := p.handle(msg)
	p.layout()
	if res.Action == None {
		res.Preview = p.previewRequest()
		cmd = tea.Batch(cmd, p.peekRequest())
	}
	return res, cmd
}

func (p *Picker) handle(msg tea.Msg) (Result, tea.Cmd) {
	switch msg := msg.(type) {
	case listedMsg:
		if msg.p == p && msg.gen == p.gen {
			return p.listed(msg)
		}
	case sniffedMsg:
		if msg.p == p && msg.gen == p.gen {
			p.applyKinds(msg.found)
			if !msg.stopped {
				return Result{}, p.sniffRest()
			}
		}
	case peekMsg:
		if msg.p == p {
			p.peekAnswered(msg)
		}
	case PreviewMsg:
		if msg.PreviewRequest == p.asked { // a late answer to an older request is dropped
			p.preview = msg
		}
	case tea.KeyPressMsg:
		return p.key(msg)
	case tea.PasteMsg:
		p.edit(msg)
	case tea.MouseWheelMsg:
		p.list.Update(msg)
	}
	return Result{}, nil
}

// listed takes a folder read: the folder's entries, or a typed path's
// file to attach, or why it failed (the folder shown stays).
func (p *Picker) listed(msg listedMsg) (Result, tea.Cmd) {
	p.loading = false
	shown := cells.OneLine(p.short(msg.dir))
	switch {
	case msg.file && msg.typed:
		if why := p.refusal(entry{name: p.short(msg.dir), kind: msg.kind, why: msg.why, size: msg.size}); why != "" {
			p.err = why
			return Result{}, nil
		}
		return Result{Action: Attach, Paths: []string{msg.dir}, Dir: filepath.Dir(msg.dir)}, nil
	case msg.file:
		p.err = shown + " is a file, not a folder"
		return Result{}, nil
	case msg.err != nil:
		p.err = readError(shown, msg.err)
		return Result{}, nil
	}
	came := ""
	if filepath.Dir(p.dir) == msg.dir {
		came = filepath.Base(p.dir) // went up: highlight the folder left
	}
	p.dir, p.err, p.note = msg.dir, "", ""
	p.sniffAt, p.peeking, p.peeked = 0, "", peekMsg{}
	if msg.truncated {
		p.note = "this folder has more than " + strconv.Itoa(p.opts.MaxEntries) + " files and folders; filter the first ones, or type a path"
	}
	if msg.typed {
		p.filter.Reset()
	}
	for i, e := range msg.entries {
		msg.entries[i].chosen = p.marked[filepath.Join(msg.dir, e.name)]
	}
	p.list.SetQuery(p.query())
	p.list.SetItems(msg.entries)
	p.list.SetCursor(0)
	if came != "" {
		p.list.Select(came)
	}
	return Result{}, p.sniffRest()
}

// key handles one key press.
func (p *Picker) key(msg tea.KeyPressMsg) (Result, tea.Cmd) {
	km := &p.ctx.Keys
	ks := msg.Keystroke()
	_, typing := p.typedPath()
	empty := p.filter.Value() == ""
	switch {
	case keys.Matches(msg, km.Close) || ks == "esc":
		return Result{Action: Close}, nil
	case keys.Matches(msg, km.Select) || ks == "enter":
		return p.enter()
	case ks == "space" && !typing:
		p.toggle()
	case (ks == "backspace" || ks == "left") && empty:
		if parent := filepath.Dir(p.dir); parent != p.dir {
			return Result{}, p.read(parent, false)
		}
	case ks == "right" && empty:
		if e, ok := p.list.Selected(); ok && e.dir {
			return Result{}, p.read(filepath.Join(p.dir, e.name), false)
		}
	case p.moved(msg):
	default:
		p.edit(msg)
	}
	return Result{}, nil
}

// edit gives a key or a paste to the filter; a typed path does not
// filter.
func (p *Picker) edit(msg tea.Msg) {
	if p.filter.Update(msg) {
		p.err = ""
		p.list.SetQuery(p.query())
	}
}

// query is the filter, or "" while a path is typed.
func (p *Picker) query() string {
	if _, ok := p.typedPath(); ok {
		return ""
	}
	return p.filter.Value()
}

// typedPath is the path the filter holds, expanded and cleaned, when it
// starts with /, ~/ or ./ (or is ~).
func (p *Picker) typedPath() (string, bool) {
	v := strings.TrimSpace(p.filter.Value())
	switch {
	case v == "~" || strings.HasPrefix(v, "~/"):
		if p.opts.Home == "" {
			return "", false
		}
		return filepath.Join(p.opts.Home, strings.TrimPrefix(v, "~")), true
	case strings.HasPrefix(v, "/"):
		return filepath.Clean(v), true
	case v == "." || strings.HasPrefix(v, "./"):
		return filepath.Join(p.dir, v), true
	}
	return "", false
}

// enter opens a typed path, or the highlighted folder, or attaches the
// chosen files, of every folder visited (the highlighted one when none
// is chosen).
func (p *Picker) enter() (Result, tea.Cmd) {
	if path, ok := p.typedPath(); ok {
		return Result{}, p.read(path, true)
	}
	e, ok := p.list.Selected()
	if ok && e.dir {
		return Result{}, p.read(filepath.Join(p.dir, e.name), false)
	}
	for _, c := range p.list.Items() {
		// Chosen before its first bytes were read, and not attachable.
		if why := p.refusal(c); c.chosen && why != "" {
			p.err = why
			return Result{}, nil
		}
	}
	var paths []string
	for path := range p.marked {
		paths = append(paths, path)
	}
	if len(paths) == 0 && ok {
		if why := p.refusal(e); why != "" {
			p.err = why
			return Result{}, nil
		}
		paths = []string{filepath.Join(p.dir, e.name)}
	}
	if len(paths) == 0 {
		return Result{}, nil
	}
	slices.Sort(paths)
	return Result{Action: Attach, Paths: paths, Dir: p.dir}, nil
}

// toggle marks or unmarks the highlighted file and moves down; a file
// that cannot be attached is not marked, and the status line says why.
func (p *Picker) toggle() {
	e, ok := p.list.Selected()
	if !ok || e.dir {
		return
	}
	path := filepath.Join(p.dir, e.name)
	if why := p.refusal(e); why != "" && !p.marked[path] {
		p.err = why
		return
	}
	e.chosen = !p.marked[path]
	if e.chosen {
		p.marked[path] = true
	} else {
		delete(p.marked, path)
	}
	p.list.SetItem(p.list.SelectedIndex(), e)
	p.list.Move(1)
}

// moved gives a key to the list; when the cursor leaves the row, what was
// said about the row is gone too.
func (p *Picker) moved(msg tea.KeyPressMsg) bool {
	before := p.list.Cursor()
	if !p.list.Update(msg) {
		return false
	}
	if p.list.Cursor() != before {
		p.err = ""
	}
	return true
}

// refusal says in one sentence why e cannot be attached, or "": it is
// neither an image nor text (from its first bytes), or a text file over
// Options.MaxTextBytes. A file not looked at yet is left to the attach.
func (p *Picker) refusal(e entry) string {
	name := cells.OneLine(e.name)
	limit := p.opts.MaxTextBytes
	switch {
	case !e.kind.attachable():
		return name + " cannot be attached: " + e.why
	case e.kind == kindText && limit > 0 && e.size > limit:
		return name + " cannot be attached: it is a text file of " + bytesize.Format(e.size) +
			", more than parley sends of one (" + bytesize.Format(limit) + ", attach_max_text_bytes in the config); attach a part of it or raise the limit"
	}
	return ""
}

// short writes a path under home with "~".
func (p *Picker) short(path string) string {
	home := p.opts.Home
	if home != "" && (path == home || strings.HasPrefix(path, home+string(filepath.Separator))) {
		return "~" + path[len(home):]
	}
	return path
}
