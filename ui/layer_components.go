package ui

import (
	"cmp"
	"context"
	"time"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/colorprofile"

	"parley/api"
	"parley/config"
	"parley/media"
	"parley/ui/browser"
	"parley/ui/filepicker"
	"parley/ui/imageform"
	"parley/ui/preview"
	"parley/ui/uictx"
)

// The layers that wrap a component of its own package: the sessions
// browser, the file picker and the image form. Each adapter only turns the
// component's typed result into the root's.

// browserLayer is the sessions browser (ui/browser). Its work stops with
// cancel when it closes.
type browserLayer struct {
	b      *browser.Browser
	cancel context.CancelFunc
}

func (l *browserLayer) name() string             { return "sessions" }
func (l *browserLayer) full() bool               { return true }
func (l *browserLayer) setSize(w, h int)         { l.b.SetSize(w, h) }
func (l *browserLayer) draw() (string, int, int) { return l.b.View(), 0, 0 }
func (l *browserLayer) hints() []uictx.Hint      { return l.b.Hints() }

func (l *browserLayer) update(msg tea.Msg) (tea.Cmd, result) {
	res, cmd := l.b.Update(msg)
	switch res.Action {
	case browser.Close:
		l.cancel()
		return cmd, closeLayer{}
	case browser.Open:
		l.cancel()
		return cmd, sessionChosen{id: res.SessionID, jump: res.Jump}
	case browser.NewConversation:
		l.cancel()
		return cmd, newConversationAsked{}
	case browser.Renamed:
		return cmd, sessionRenamed{id: res.SessionID, title: res.Title}
	case browser.Deleted:
		return cmd, sessionDeleted{id: res.SessionID, title: res.Title}
	}
	return cmd, nil
}

// browser is the sessions browser over the history's store (current is
// the session on screen), or nil and why while history is off; its work
// stops with base or when it closes.
func (h *history) browser(ctx *uictx.Context, base context.Context, current string, now func() time.Time) (*browserLayer, tea.Cmd, noticeResult) {
	if h.Store == nil {
		return nil, nil, noticeResult{h.off().Error(), toastInfo}
	}
	bctx, cancel := context.WithCancel(base)
	b, cmd := browser.New(ctx, browser.Options{Store: h.Store, Current: current, Now: now, Context: bctx})
	return &browserLayer{b: b, cancel: cancel}, cmd, noticeResult{}
}

// pickerLayer is the image file picker of /attach (ui/filepicker). The
// previews it asks for are made by the root's one renderer, into the
// cache the transcript and the image pane share.
type pickerLayer struct {
	p       *filepicker.Picker
	cancel  context.CancelFunc
	cache   *preview.Cache
	options preview.Options
}

func (l *pickerLayer) name() string             { return "files" }
func (l *pickerLayer) full() bool               { return true }
func (l *pickerLayer) setSize(w, h int)         { l.p.SetSize(w, h) }
func (l *pickerLayer) draw() (string, int, int) { return l.p.View(), 0, 0 }
func (l *pickerLayer) hints() []uictx.Hint      { return l.p.Hints() }

// pickerPreviewMsg brings a preview the picker asked for, rendered.
type pickerPreviewMsg struct {
	req filepicker.PreviewRequest
	r   preview.Rendered
	err error
}

func (l *pickerLayer) update(msg tea.Msg) (tea.Cmd, result) {
	if pm, ok := msg.(pickerPreviewMsg); ok {
		// A kitty picture reaches the terminal before the frame that
		// shows it: the root sends it (kittyPicture).
		res, cmd := l.p.Update(filepicker.PreviewMsg{PreviewRequest: pm.req, Lines: pm.r.Lines, Err: pm.err})
		return tea.Batch(cmd, l.preview(res)), kittyPicture{r: pm.r}
	}
	res, cmd := l.p.Update(msg)
	switch res.Action {
	case filepicker.Close:
		l.cancel()
		return cmd, closeLayer{}
	case filepicker.Attach:
		l.cancel()
		return cmd, filesChosen{paths: res.Paths, dir: res.Dir}
	}
	return tea.Batch(cmd, l.preview(res)), nil
}

// preview renders what the picker asked for, in a command: the file read
// under the image budget, then the shared renderer.
func (l *pickerLayer) preview(res filepicker.Result) tea.Cmd {
	if res.Preview == nil {
		return nil
	}
	req, cache, opts := *res.Preview, l.cache, l.options
	return func() tea.Msg {
		data, err := media.ReadImageFile(req.Path, media.MaxFileBytes)
		if err != nil {
			return pickerPreviewMsg{req: req, err: err}
		}
		r, err := cache.Render(preview.NewSource(data), req.W, req.H, opts)
		return pickerPreviewMsg{req: req, r: r, err: err}
	}
}

// pickerFolderMsg brings the folder the file picker opens in, found in a
// command (a state file and folders are read).
type pickerFolderMsg struct{ dir string }

// findPickerFolder finds where the picker opens (/attach without a path):
// where the last attach was made, or the screenshots folder.
func findPickerFolder(getenv func(string) string, workDir string) tea.Cmd {
	return func() tea.Msg { return pickerFolderMsg{dir: pickerStart(getenv, workDir)} }
}

// newPickerLayer opens the picker in dir; the picker's work stops with
// base or when it closes.
func newPickerLayer(ctx *uictx.Context, base context.Context, dir string, opts Options, pics *pictures, profile colorprofile.Profile) (*pickerLayer, tea.Cmd) {
	pctx, cancel := context.WithCancel(base)
	p, cmd := filepicker.New(ctx, filepicker.Options{
		Dir: dir, Home: opts.Getenv("HOME"),
		Previews: pics.mode != preview.Off, Context: pctx,
		MaxTextBytes: cmp.Or(attachLimits(opts, pics).MaxTextBytes, int64(api.DefaultAttachMaxTextBytes)),
	})
	return &pickerLayer{p: p, cancel: cancel, cache: pics.cache, options: pics.options(ctx, profile)}, cmd
}

// formLayer is the image form (ui/imageform): prompt, model, size and how
// many; enter makes the images as /image would.
type formLayer struct{ f *imageform.Form }

func (l *formLayer) name() string             { return "image form" }
func (l *formLayer) full() bool               { return false }
func (l *formLayer) setSize(w, h int)         { l.f.SetSize(w, h) }
func (l *formLayer) draw() (string, int, int) { return l.f.Box() }
func (l *formLayer) hints() []uictx.Hint      { return l.f.Hints() }

func (l *formLayer) update(msg tea.Msg) (tea.Cmd, result) {
	res, cmd := l.f.Update(msg)
	switch res.Action {
	case imageform.Close:
		return cmd, closeLayer{}
	case imageform.Submit:
		a := res.Ask
		return cmd, imagesAsked{ask: imageAsk{prompt: a.Prompt, model: a.Model, size: a.Size, n: a.N}}
	}
	return cmd, nil
}

// newFormLayer is the image form, filled with what was asked last.
func newFormLayer(ctx *uictx.Context, images *imageRunner, catalog *api.Catalog, listed []string, cfg *config.Config) *formLayer {
	last := images.lastAsk
	model := last.model
	if model == "" {
		model = images.model(catalog, cfg, api.CapImageGeneration)
	}
	cat := catalog.WithListed(listed)
	f := imageform.New(ctx, imageform.Options{
		Ask:    imageform.Ask{Prompt: last.prompt, Model: model, Size: last.size, N: last.n},
		Models: cat.ModelsWith(api.CapImageGeneration),
		Sizes:  func(model string) []string { return cat.Lookup(model).Caps.Sizes },
	})
	return &formLayer{f: f}
}
