package ui

import (
	"encoding/hex"
	"fmt"
	"path/filepath"
	"strconv"
	"strings"
	"time"

	tea "charm.land/bubbletea/v2"

	"parley/api"
	"parley/conversation"
	"parley/ui/imagepane"
	"parley/ui/preview"
	"parley/ui/uictx"
)

// imagesPane is the image pane as a side pane: every image of the
// conversation (attached and made), newest first, with a large preview of
// the selected one. It can take the keys (esc gives them back to the
// composer); what it asks of the root comes back as an imageAction.
type imagesPane struct {
	p imagepane.Pane
	// on says whether previews are drawn at all (images = "off").
	on bool
	// itemsKey says which state of the conversation the items were made
	// from.
	itemsKey string
	// The selected image's preview: what it needs (the item's key, its
	// bytes and the box, set by draw), what is being made, and what is
	// shown.
	needKey  string
	need     preview.Source
	needW    int
	needH    int
	asked    string
	shownKey string
	shown    []string
	// pending is the composer's images as of the last draw, for an action
	// on one of them.
	conv    *conversation.Conversation
	pending []api.Attachment
	// The rectangle and the focus of the next draw.
	w, h    int
	focused bool
}

// imageAction is what the image pane asks of the root: act on item (its
// bytes are att), saving a copy to savePath for imagepane.Save.
type imageAction struct {
	act      imagepane.Action
	item     imagepane.Item
	att      api.Attachment
	savePath string
}

// focusComposer gives the keys back to the composer (esc in a pane).
type focusComposerResult struct{}

func newImagesPane(ctx *uictx.Context, dirs imagepane.Dirs, on bool) *imagesPane {
	return &imagesPane{p: imagepane.New(ctx, dirs), on: on}
}

func (p *imagesPane) name() string { return "images" }

func (p *imagesPane) binds(msg tea.Msg) bool {
	switch msg := msg.(type) {
	case tea.KeyPressMsg:
		return p.p.Binds(msg)
	case tea.PasteMsg:
		return p.p.PromptOpen()
	}
	return false
}

func (p *imagesPane) Hints() []uictx.Hint {
	if p.p.PromptOpen() {
		return []uictx.Hint{{Key: "enter", Desc: "save"}, {Key: "tab", Desc: "complete"}, {Key: "esc", Desc: "cancel"}}
	}
	return []uictx.Hint{
		{Key: "↑/↓", Desc: "choose"}, {Key: "a", Desc: "attach"}, {Key: "e", Desc: "edit"}, {Key: "o", Desc: "open"},
		{Key: "c", Desc: "copy path"}, {Key: "y", Desc: "copy image"}, {Key: "s", Desc: "save a copy"}, {Key: "esc", Desc: "back to the message"},
	}
}

// Update handles a key the pane binds, or a message of its save prompt.
func (p *imagesPane) Update(msg tea.Msg) (tea.Cmd, uictx.Action) {
	k, ok := msg.(tea.KeyPressMsg)
	if !ok {
		return p.p.HandleMsg(msg), nil
	}
	act, cmd := p.p.HandleKey(k)
	switch act {
	case imagepane.None:
		return cmd, nil
	case imagepane.Close:
		return cmd, focusComposerResult{}
	case imagepane.Say:
		return cmd, noticeResult{text: p.p.Said(), kind: toastInfo}
	}
	it, ok := p.p.Selected()
	if !ok {
		return cmd, nil
	}
	a, _ := findImage(p.conv, p.pending, it.Key)
	return cmd, imageAction{act: act, item: it, att: a, savePath: p.p.SavePath()}
}

// selection is the key of the selected image.
func (p *imagesPane) selection() (string, bool) {
	it, ok := p.p.Selected()
	return it.Key, ok
}

// refresh rebuilds the list when the conversation or the composer's
// attachments changed since it was made.
func (p *imagesPane) refresh(in paneInput) {
	p.conv, p.pending = in.conv, in.pending
	key := imagesKey(in.conv, in.pending)
	if key == p.itemsKey {
		return
	}
	p.itemsKey = key
	p.p.SetItems(imageItems(in.conv, in.pending, in.now, in.stored))
}

// imagesKey changes whenever an image may have come or gone.
func imagesKey(conv *conversation.Conversation, pending []api.Attachment) string {
	n := conv.Len()
	key := fmt.Sprintf("%p/%d/%d", conv, n, len(pending))
	if n > 0 {
		last := conv.At(n - 1)
		key += "/" + strconv.Itoa(last.ID) + "/" + strconv.Itoa(int(last.State)) + "/" + strconv.Itoa(len(last.Attachments))
	}
	if c := len(pending); c > 0 {
		key += "/" + pending[c-1].SHA256
	}
	return key
}

// imageItems lists every image of the conversation and of the composer
// (not the text files).
func imageItems(conv *conversation.Conversation, pending []api.Attachment, now time.Time, stored func(string) string) []imagepane.Item {
	var out []imagepane.Item
	for _, msg := range conv.Messages() {
		for _, a := range msg.Attachments {
			if len(a.Data) == 0 || a.IsText() {
				continue
			}
			it := itemFor(msg, a)
			if it.Path == "" && stored != nil && a.SHA256 != "" {
				// A sent image's file is the one the history keeps,
				// named by its hash; the image keeps its own name.
				it.Path, it.Kept = stored(a.SHA256), true
			}
			out = append(out, it)
		}
	}
	for _, a := range pending {
		if len(a.Data) == 0 || a.IsText() {
			continue
		}
		it := itemFor(conversation.Message{Role: api.RoleUser, Created: now}, a)
		it.Name = "next message: " + a.Name
		out = append(out, it)
	}
	return out
}

func itemFor(msg conversation.Message, a api.Attachment) imagepane.Item {
	it := imagepane.Item{
		Key: a.SHA256, Origin: imagepane.Attached, Name: a.Name,
		Width: a.Width, Height: a.Height, Bytes: len(a.Data), MIME: a.MIME, Created: msg.Created,
		// An attached file keeps its own path: o opens it, c copies it.
		Path: a.Path,
	}
	if msg.Role == api.RoleAssistant {
		// Made by a chat model with its reply: saved like /image's when
		// its name is the file's path.
		it.Origin, it.Model = imagepane.Generated, msg.Model
		if filepath.IsAbs(a.Name) {
			it.Path, it.Name = a.Name, ""
		}
	}
	if msg.IsImages() {
		it.Origin, it.Path, it.Name = imagepane.Generated, a.Name, ""
		it.Prompt, it.Model = msg.Text, msg.Model
		if t := msg.Image; t != nil {
			it.Size = t.Size
			if t.From != "" {
				it.Origin, it.From = imagepane.Edited, t.From
			}
		}
	}
	return it
}

// SetSize gives the pane its rectangle.
func (p *imagesPane) SetSize(w, h int) { p.w, p.h = w, h }

// show takes what the chat shows before a draw: the images it lists, and
// whether the pane has the keys.
func (p *imagesPane) show(in paneInput, focused bool) {
	p.refresh(in)
	p.focused = focused
}

// Draw draws the pane, and notes which preview the selected image needs
// (wantedPicture names it after the Update).
func (p *imagesPane) Draw() (string, int, int) {
	w, h, focused := p.w, p.h, p.focused
	p.needW, p.needH = 0, 0
	it, ok := p.p.Selected()
	if !ok {
		return p.p.Draw(w, h, nil, focused), 0, 0
	}
	_, _, pw, ph := p.p.PreviewArea(w, h)
	if it.Key != p.needKey {
		// Looked up once per selection, not on every frame: the lookup
		// walks the conversation.
		p.needKey, p.need = it.Key, preview.Source{}
		if a, ok := findImage(p.conv, p.pending, it.Key); ok {
			src := preview.Source{Data: a.Data}
			if n, err := hex.Decode(src.Sum[:], []byte(a.SHA256)); err == nil && n == len(src.Sum) {
				p.need = src
			}
		}
	}
	var lines []string
	if p.need.Data != nil && pw >= 4 && ph >= 2 && p.on {
		p.needW, p.needH = pw, ph
		if previewKey(p.need.Sum, pw, ph) == p.shownKey {
			lines = p.shown
		}
	}
	return p.p.Draw(w, h, lines, focused), 0, 0
}

// wantedPicture is the preview the pane waits for, once.
func (p *imagesPane) wantedPicture() (pictureRequest, bool) {
	if p.need.Data == nil || p.needW == 0 {
		return pictureRequest{}, false
	}
	k := previewKey(p.need.Sum, p.needW, p.needH)
	if k == p.shownKey || k == p.asked {
		return pictureRequest{}, false
	}
	p.asked = k
	return pictureRequest{key: k, src: p.need, w: p.needW, h: p.needH}, true
}

// takePicture shows a finished preview (the root has sent a kitty
// picture to the terminal first).
func (p *imagesPane) takePicture(msg panePictureMsg) {
	if p.asked == msg.key {
		p.asked = ""
	}
	if stopped(msg.err) {
		return // asked for again while it is still wanted
	}
	if msg.err != nil {
		if it, ok := p.p.Selected(); ok {
			p.p.SetPreviewError(it.Key, userSentence(msg.err))
		}
		return
	}
	p.shownKey, p.shown = msg.key, msg.r.Lines
}

func previewKey(sum [32]byte, w, h int) string {
	return fmt.Sprintf("%x/%dx%d", sum[:8], w, h)
}

// findImage finds an image of the conversation or of the composer by the
// hex SHA-256 of its bytes.
func findImage(conv *conversation.Conversation, pending []api.Attachment, key string) (api.Attachment, bool) {
	for _, a := range pending {
		if a.SHA256 == key && !a.IsText() {
			return a, true
		}
	}
	msgs := conv.Messages()
	for i := len(msgs) - 1; i >= 0; i-- {
		for _, a := range msgs[i].Attachments {
			if strings.EqualFold(a.SHA256, key) && len(a.Data) > 0 && !a.IsText() {
				return a, true
			}
		}
	}
	return api.Attachment{}, false
}
