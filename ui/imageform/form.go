package imageform

import (
	"fmt"
	"strconv"
	"strings"

	tea "charm.land/bubbletea/v2"

	"parley/ui/cells"
	"parley/ui/keys"
	"parley/ui/lineedit"
	"parley/ui/uictx"
)

// Ask is what the form asks for; "" and 0 leave a choice to the model
// (or, for Model, to the root's image model).
type Ask struct {
	Prompt, Model, Size string
	N                   int
}

// Options are the form's arguments.
type Options struct {
	// Ask fills the fields (what was asked last).
	Ask Ask
	// Models are the models known to generate images, shown under the
	// fields while the model is being chosen.
	Models []string
	// Sizes lists the sizes a model makes (nil: unknown).
	Sizes func(model string) []string
}

// Action is what a Result asks of the root.
type Action int

// The actions.
const (
	None Action = iota
	// Close the form (esc).
	Close
	// Submit: close the form and make the images of Result.Ask.
	Submit
)

// Result is what Update returns.
type Result struct {
	Action Action
	Ask    Ask
}

// The fields, in order.
const (
	fieldPrompt = iota
	fieldModel
	fieldSize
	fieldN
	nFields
)

// Bounds of the fields.
const (
	maxPrompt = 4000
	maxField  = 100
	maxN      = 10
)

// Form is the image form. Make it with New.
type Form struct {
	ctx    *uictx.Context
	opts   Options
	fields [nFields]lineedit.Model
	focus  int
	err    string
	w, h   int
	rev    int
	cache  viewCache
}

type viewCache struct {
	rev, gen int
	ok       bool
	box      []string
	view     string
}

// labels and placeholders of the fields.
func labels() [nFields]string { return [nFields]string{"Prompt", "Model", "Size", "How many"} }

func placeholders() [nFields]string {
	return [nFields]string{"a lighthouse at dusk, oil painting", "image_model", "the model's default", "1"}
}

// New returns the form filled with opts.Ask, the prompt focused.
func New(ctx *uictx.Context, opts Options) *Form {
	f := &Form{ctx: ctx, opts: opts}
	values := [nFields]string{opts.Ask.Prompt, opts.Ask.Model, opts.Ask.Size, ""}
	if opts.Ask.N > 0 {
		values[fieldN] = strconv.Itoa(opts.Ask.N)
	}
	ph := placeholders()
	for i := range f.fields {
		limit := maxField
		if i == fieldPrompt {
			limit = maxPrompt
		}
		f.fields[i] = lineedit.New(ctx, lineedit.Options{Placeholder: ph[i], Limit: limit})
		f.fields[i].SetValue(values[i])
		if i != fieldPrompt {
			f.fields[i].Blur()
		}
	}
	return f
}

// SetSize sets the area the form is centred in.
func (f *Form) SetSize(w, h int) {
	f.w, f.h = max(w, 0), max(h, 0)
	for i := range f.fields {
		f.fields[i].SetWidth(max(f.innerWidth()-labelWidth-1, 1))
	}
	f.rev++
}

// Hints are the form's keys.
func (f *Form) Hints() []uictx.Hint {
	km := &f.ctx.Keys
	return []uictx.Hint{{Key: "tab", Desc: "next field"}, {Key: uictx.KeyOf(km.Select, "enter"), Desc: "make images"}, {Key: uictx.KeyOf(km.Close, "esc"), Desc: "cancel"}}
}

// Update handles a key or a paste: tab and shift+tab (or down and up)
// move between the fields, enter checks and submits, esc closes, and
// every other key edits the focused field. Its action, when not nil, is a
// Result (uictx.Component).
func (f *Form) Update(msg tea.Msg) (tea.Cmd, uictx.Action) {
	res, cmd := f.update(msg)
	if res.Action == None {
		return cmd, nil
	}
	return cmd, res
}

// update is Update with its Result as it is.
func (f *Form) update(msg tea.Msg) (Result, tea.Cmd) {
	k, ok := msg.(tea.KeyPressMsg)
	if !ok {
		if _, paste := msg.(tea.PasteMsg); paste && f.fields[f.focus].Update(msg) {
			f.err = ""
			f.rev++
		}
		return Result{}, nil
	}
	defer func() { f.rev++ }()
	km := &f.ctx.Keys
	switch ks := k.Keystroke(); {
	case keys.Matches(k, km.Close) || ks == "esc":
		return Result{Action: Close}, nil
	case ks == "tab" || ks == "down":
		f.focusOn((f.focus + 1) % nFields)
	case ks == "shift+tab" || ks == "up":
		f.focusOn((f.focus + nFields - 1) % nFields)
	case keys.Matches(k, km.Select) || ks == "enter":
		ask, err := f.ask()
		if err != nil {
			f.err = err.Error()
			return Result{}, nil
		}
		return Result{Action: Submit, Ask: ask}, nil
	default:
		if f.fields[f.focus].Update(k) {
			f.err = ""
		}
	}
	return Result{}, nil
}

func (f *Form) focusOn(i int) {
	f.fields[f.focus].Blur()
	f.focus = i
	f.fields[i].Focus()
}

// ask reads the form: a prompt is needed, how many is 1 to 10, a size is
// WxH or auto. What the model accepts is the root's to check.
func (f *Form) ask() (Ask, error) {
	ask := Ask{
		Prompt: strings.TrimSpace(f.fields[fieldPrompt].Value()),
		Model:  strings.TrimSpace(f.fields[fieldModel].Value()),
		Size:   strings.ToLower(strings.TrimSpace(f.fields[fieldSize].Value())),
	}
	if ask.Prompt == "" {
		f.focusOn(fieldPrompt)
		return ask, fmt.Errorf("describe the image first: the prompt is empty")
	}
	if s := strings.TrimSpace(f.fields[fieldN].Value()); s != "" {
		n, err := strconv.Atoi(s)
		if err != nil || n < 1 || n > maxN {
			f.focusOn(fieldN)
			return ask, fmt.Errorf("how many must be a number from 1 to %d, not %q", maxN, cells.OneLine(s))
		}
		ask.N = n
	}
	if ask.Size != "" && ask.Size != "auto" {
		var w, h int
		if _, err := fmt.Sscanf(ask.Size, "%dx%d", &w, &h); err != nil || w < 1 || h < 1 || fmt.Sprintf("%dx%d", w, h) != ask.Size {
			f.focusOn(fieldSize)
			return ask, fmt.Errorf("the size is width x height in pixels, like 1024x1024 (or auto), not %q", cells.OneLine(ask.Size))
		}
	}
	return ask, nil
}
