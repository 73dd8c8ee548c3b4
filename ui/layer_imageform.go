package ui

import (
	"fmt"
	"strconv"
	"strings"

	"charm.land/bubbles/v2/textinput"
	tea "charm.land/bubbletea/v2"
	"charm.land/lipgloss/v2"

	"parley/api"
	"parley/ui/cells"
	"parley/ui/uictx"
)

// imageFormLayer is /image as a small form: prompt, model, size and n,
// remembered between uses. Enter makes the images; the same checks as
// /image run first, and a refusal is shown in the form, which stays open.
type imageFormLayer struct {
	ctx    *uictx.Context
	fields [4]textinput.Model
	focus  int
	w, h   int
	err    string
	// models are the models that can generate; sizes what each accepts.
	models []string
	sizes  func(model string) []string
}

const (
	formPrompt = iota
	formModel
	formSize
	formN
)

var formLabels = [4]string{"Prompt", "Model", "Size", "How many"}

// openImageForm opens the form, filled with what was asked last.
func (m *Model) openImageForm() tea.Cmd {
	l := &imageFormLayer{ctx: m.ctx}
	last := m.images.lastAsk
	model := last.model
	if model == "" {
		model = m.images.model(m.catalog, m.opts.Config, api.CapImageGeneration)
	}
	values := [4]string{last.prompt, model, last.size, ""}
	if last.n > 0 {
		values[formN] = strconv.Itoa(last.n)
	}
	placeholders := [4]string{"a lighthouse at dusk, oil painting", "image_model", "the model's default", "1"}
	for i := range l.fields {
		ti := textinput.New()
		ti.Prompt = ""
		ti.Placeholder = placeholders[i]
		ti.CharLimit = 100
		if i == formPrompt {
			ti.CharLimit = 4000
		}
		ti.SetValue(values[i])
		l.fields[i] = ti
	}
	cat := m.catalog.WithListed(m.gateway.models)
	l.models = cat.ModelsWith(api.CapImageGeneration)
	l.sizes = func(model string) []string { return cat.Lookup(model).Caps.Sizes }
	m.layers.push(l)
	return l.fields[formPrompt].Focus()
}

func (l *imageFormLayer) name() string { return "image form" }
func (l *imageFormLayer) full() bool   { return false }
func (l *imageFormLayer) setSize(w, h int) {
	l.w, l.h = w, h
	for i := range l.fields {
		l.fields[i].SetWidth(max(l.innerWidth()-12, 4))
	}
}

func (l *imageFormLayer) innerWidth() int { return max(min(l.w-4, 72), 20) }

func (l *imageFormLayer) hints() []uictx.Hint {
	return []uictx.Hint{{Key: "tab", Desc: "next field"}, {Key: "enter", Desc: "make images"}, {Key: keyOf(l.ctx.Keys.Close), Desc: "cancel"}}
}

func (l *imageFormLayer) update(msg tea.Msg) (tea.Cmd, result) {
	k, ok := msg.(tea.KeyPressMsg)
	if !ok {
		var cmd tea.Cmd
		l.fields[l.focus], cmd = l.fields[l.focus].Update(msg)
		return cmd, nil
	}
	switch k.Keystroke() {
	case "esc":
		return nil, closeLayer{}
	case "tab", "down":
		return l.move(1), nil
	case "shift+tab", "up":
		return l.move(-1), nil
	case "enter":
		ask, err := l.ask()
		if err != nil {
			l.err = err.Error()
			return nil, nil
		}
		return nil, imagesAsked{ask: ask}
	}
	l.err = ""
	var cmd tea.Cmd
	l.fields[l.focus], cmd = l.fields[l.focus].Update(msg)
	return cmd, nil
}

func (l *imageFormLayer) move(d int) tea.Cmd {
	l.fields[l.focus].Blur()
	l.focus = (l.focus + d + len(l.fields)) % len(l.fields)
	return l.fields[l.focus].Focus()
}

// ask reads the form: a prompt is needed, n is 1–10, a size is WxH or
// auto. What the model accepts is checked by startImages, as for /image.
func (l *imageFormLayer) ask() (imageAsk, error) {
	ask := imageAsk{
		prompt: strings.TrimSpace(l.fields[formPrompt].Value()),
		model:  strings.TrimSpace(l.fields[formModel].Value()),
		size:   strings.ToLower(strings.TrimSpace(l.fields[formSize].Value())),
	}
	if ask.prompt == "" {
		l.focusOn(formPrompt)
		return ask, fmt.Errorf("describe the image first: the prompt is empty")
	}
	if s := strings.TrimSpace(l.fields[formN].Value()); s != "" {
		n, err := strconv.Atoi(s)
		if err != nil || n < 1 || n > 10 {
			l.focusOn(formN)
			return ask, fmt.Errorf("how many must be a number from 1 to 10, not %q", cells.OneLine(s))
		}
		ask.n = n
	}
	if ask.size != "" && ask.size != "auto" {
		var w, h int
		if _, err := fmt.Sscanf(ask.size, "%dx%d", &w, &h); err != nil || w < 1 || h < 1 || fmt.Sprintf("%dx%d", w, h) != ask.size {
			l.focusOn(formSize)
			return ask, fmt.Errorf("the size is width x height in pixels, like 1024x1024 (or auto), not %q", cells.OneLine(ask.size))
		}
	}
	return ask, nil
}

func (l *imageFormLayer) focusOn(i int) {
	l.fields[l.focus].Blur()
	l.focus = i
	l.fields[i].Focus()
}

func (l *imageFormLayer) draw() (string, int, int) {
	st := l.ctx.Styles
	iw := l.innerWidth()
	var lines []string
	add := func(s string) { lines = append(lines, cells.Fit(s, iw)) }
	add(st.OverlayTitle.Render("Make images"))
	add("")
	for i, f := range l.fields {
		label := fmt.Sprintf("%-10s", formLabels[i])
		if i == l.focus {
			label = st.Accent.Bold(true).Render(label)
		} else {
			label = st.Muted.Render(label)
		}
		add(label + " " + f.View())
	}
	add("")
	model := strings.TrimSpace(l.fields[formModel].Value())
	switch {
	case l.focus == formModel || model == "":
		if len(l.models) > 0 {
			add(st.Muted.Render("can generate: " + cells.OneLine(strings.Join(l.models, ", "))))
		} else {
			add(st.Muted.Render("no model is known to generate; type one the gateway offers"))
		}
	case len(l.sizes(model)) > 0:
		add(st.Muted.Render(cells.OneLine(model) + " makes " + strings.Join(l.sizes(model), ", ")))
	default:
		add("")
	}
	if l.err != "" {
		for _, line := range strings.Split(cellsWrap(l.err, iw), "\n") {
			add(st.Error.Render(line))
		}
	}
	box := lipgloss.NewStyle().Border(lipgloss.RoundedBorder()).
		BorderForeground(st.Overlay.GetBorderTopForeground()).Padding(0, 1).
		Render(strings.Join(lines, "\n"))
	bw := lipgloss.Width(box)
	return box, max((l.w-bw)/2, 0), max((l.h-lipgloss.Height(box))/2, 0)
}
