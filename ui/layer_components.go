package ui

import (
	"cmp"
	"context"
	"time"

	tea "charm.land/bubbletea/v2"

	"parley/api"
	"parley/config"
	"parley/media"
	"parley/ui/browser"
	"parley/ui/cells"
	"parley/ui/filepicker"
	"parley/ui/imageform"
	"parley/ui/preview"
	"parley/ui/uictx"
)

// The overlays of a package of their own: the sessions browser, the file
// picker and the image form. Each is a uictx.Component itself; the root
// acts on their Results by type (handleResult) and, for the picker,
// renders the previews it asks for.

// browser is the sessions browser over the history's store (current is
// the session on screen), or nil and why while history is off; its work
// stops with base or when it closes.
func (h *history) browser(ctx *uictx.Context, base context.Context, current string, now func() time.Time) (*layer, tea.Cmd, noticeResult) {
	if h.Store == nil {
		return nil, nil, noticeResult{h.off().Error(), toastInfo}
	}
	bctx, cancel := context.WithCancel(base)
	b, cmd := browser.New(ctx, browser.Options{Store: h.Store, Current: current, Now: now, Context: bctx})
	return &layer{Component: b, kind: "sessions", full: true, stop: cancel}, cmd, noticeResult{}
}

// pickerPreviewMsg brings a preview the picker asked for, rendered.
type pickerPreviewMsg struct {
	req filepicker.PreviewRequest
	r   preview.Rendered
	err error
}

// pickerPreview renders what the picker asked for, in a command: the
// file read under the image budget, then the shared renderer, into the
// cache the transcript and the image pane share.
func pickerPreview(req filepicker.PreviewRequest, cache *preview.Cache, opts preview.Options) tea.Cmd {
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
func newPickerLayer(ctx *uictx.Context, base context.Context, dir string, opts Options, pics *pictures) (layer, tea.Cmd) {
	pctx, cancel := context.WithCancel(base)
	p, cmd := filepicker.New(ctx, filepicker.Options{
		Dir: dir, Home: opts.Getenv("HOME"),
		Previews: pics.mode != preview.Off, Context: pctx,
		MaxTextBytes: cmp.Or(attachLimits(opts, pics).MaxTextBytes, int64(api.DefaultAttachMaxTextBytes)),
	})
	return layer{Component: p, kind: "files", full: true, stop: cancel}, cmd
}

// newFormLayer is the image form, filled with what was asked last.
func newFormLayer(ctx *uictx.Context, images *imageRunner, catalog *api.Catalog, listed []string, cfg *config.Config) layer {
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
	return layer{Component: f, kind: "image form"}
}

// browsed acts on what the sessions browser did: closed, opened a session
// or asked for a new conversation (each closes it), or renamed or deleted
// a session in the store, which follows on screen when it is the
// conversation shown.
func (m *Model) browsed(r browser.Result) tea.Cmd {
	switch r.Action {
	case browser.Close:
		m.layers.pop()
	case browser.Open:
		m.layers.pop()
		if r.SessionID != m.eng.Conv().ID() || r.Jump != 0 {
			return m.openSession(r.SessionID, r.Jump)
		}
	case browser.NewConversation:
		m.layers.pop()
		return m.startNewConversation()
	case browser.Renamed:
		if m.eng.Conv().ID() == r.SessionID {
			m.eng.Conv().SetTitle(r.Title)
		}
	case browser.Deleted:
		if m.eng.Conv().ID() == r.SessionID {
			// The conversation on screen is gone from the history: start
			// afresh so nothing more is written under its id.
			m.interruptStream()
			m.openConversation(m.eng.Fresh(), 0)
		}
		return m.notes.show("deleted "+cells.OneLine(r.Title), toastOK)
	}
	return nil
}
