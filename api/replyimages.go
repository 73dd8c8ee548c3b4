package api

import (
	"bytes"
	"encoding/base64"
	"encoding/json"
	"errors"
	"fmt"
	"strings"

	"parley/internal/bytesize"
	"parley/media"
)

// ReplyImage is an image a chat model sent with its reply: an entry of
// message.images or delta.images, as OpenRouter sends them for the chat
// models that make images ({"type":"image_url","image_url":{"url":
// "data:image/png;base64,…"}}). Data is the file's bytes, whose header was
// checked (a known format, real dimensions, a decoding cost within
// media.DecodeBudget) but whose pixels were not decoded; nil when the image
// was not kept, and Refused then says why, in words that follow "the
// reply's image N " ("is not an image").
type ReplyImage struct {
	Data    []byte
	Info    media.Info
	Refused string
}

// Bounds of a reply's images. An image travels inside one event, which
// the SSE reader already caps (sseMaxEvent); these bound what a reply
// keeps in all.
const (
	// MaxReplyImages is how many images of one reply are kept; more are
	// refused without being decoded.
	MaxReplyImages = 8
	// maxReplyImageBytes bounds one image's bytes, checked from the
	// length of its Base64 before it is decoded.
	maxReplyImageBytes = 16 << 20
	// maxReplyImagesBytes bounds the images of one reply together.
	maxReplyImagesBytes = 64 << 20
)

// replyImageBudget counts the images of one reply against the bounds.
type replyImageBudget struct {
	count int
	bytes int64
}

// decode reads the images entries of one delta or message (raw: a JSON
// array, or nothing), liberal in the entry's shape: {"image_url":{"url":…}},
// {"image_url":"…"}, {"url":…}, {"b64_json":…} or a bare string. An entry
// that is no image comes back refused, never as an error of the stream:
// the reply's text is worth keeping whatever its pictures are.
func (b *replyImageBudget) decode(raw json.RawMessage) []ReplyImage {
	raw = bytes.TrimSpace(raw)
	if len(raw) == 0 || raw[0] != '[' {
		return nil
	}
	var entries []json.RawMessage
	if json.Unmarshal(raw, &entries) != nil {
		return []ReplyImage{{Refused: "is not in a form parley reads (the images field is not a list of images)"}}
	}
	out := make([]ReplyImage, 0, len(entries))
	for _, e := range entries {
		if img, ok := b.one(e); ok {
			out = append(out, img)
		}
	}
	return out
}

// one reads one entry; ok is false for a null entry.
func (b *replyImageBudget) one(e json.RawMessage) (ReplyImage, bool) {
	src, ok := imageSource(e)
	if !ok {
		return ReplyImage{}, false
	}
	b.count++
	if b.count > MaxReplyImages {
		return ReplyImage{Refused: fmt.Sprintf("was not kept: parley keeps at most %d images of a reply", MaxReplyImages)}, true
	}
	payload, isData := dataPayload(src)
	switch {
	case src == "":
		return ReplyImage{Refused: "has no data"}, true
	case isHTTPURL(src):
		return ReplyImage{Refused: "came as a link, not inside the reply, and parley keeps only images sent inside it"}, true
	case !isData:
		return ReplyImage{Refused: "is not a base64 data URI (data:<type>;base64,…) nor Base64 data"}, true
	}
	size := int64(base64.StdEncoding.DecodedLen(len(payload)))
	switch {
	case size > maxReplyImageBytes:
		return ReplyImage{Refused: fmt.Sprintf("is larger than parley keeps of a reply's image (%s)", bytesize.Format(maxReplyImageBytes))}, true
	case b.bytes+size > maxReplyImagesBytes:
		return ReplyImage{Refused: fmt.Sprintf("was not kept: the reply's images pass the %s parley keeps of one reply", bytesize.Format(maxReplyImagesBytes))}, true
	}
	data, err := decodeBase64(payload)
	if err != nil {
		return ReplyImage{Refused: fmt.Sprintf("has invalid Base64 data (%v)", err)}, true
	}
	b.bytes += int64(len(data))
	info, err := media.Inspect(data)
	var (
		be *media.BudgetError
		se *media.ScansError
	)
	if err == nil {
		err = info.Check(media.DecodeBudget)
	}
	switch {
	case err == nil:
		return ReplyImage{Data: data, Info: info}, true
	case errors.As(err, &be):
		return ReplyImage{Refused: "is " + be.Detail()}, true
	case errors.As(err, &se):
		return ReplyImage{Refused: "is " + se.Detail()}, true
	case errors.Is(err, media.ErrNotImage):
		if what := media.DescribeContent(data); what != "" {
			return ReplyImage{Refused: "is not an image (it looks like " + what + ")"}, true
		}
		return ReplyImage{Refused: "is not a PNG, JPEG, WEBP or GIF image"}, true
	}
	return ReplyImage{Refused: fmt.Sprintf("is a damaged %s image (%v)", info.Format.Name(), err)}, true
}

// imageSource finds the URL or Base64 of an images entry; ok is false for
// null.
func imageSource(e json.RawMessage) (string, bool) {
	e = bytes.TrimSpace(e)
	if len(e) == 0 || string(e) == "null" {
		return "", false
	}
	var s string
	if json.Unmarshal(e, &s) == nil {
		return s, true
	}
	var w struct {
		ImageURL json.RawMessage `json:"image_url"`
		URL      string          `json:"url"`
		B64      string          `json:"b64_json"`
	}
	if json.Unmarshal(e, &w) != nil {
		return "", true
	}
	if u := bytes.TrimSpace(w.ImageURL); len(u) > 0 && string(u) != "null" {
		if json.Unmarshal(u, &s) == nil {
			return s, true
		}
		var inner struct {
			URL string `json:"url"`
		}
		_ = json.Unmarshal(u, &inner)
		return inner.URL, true
	}
	if w.URL != "" {
		return w.URL, true
	}
	return w.B64, true
}

// dataPayload returns the Base64 of a data URI, or src itself when it is
// bare Base64 (as b64_json carries it).
func dataPayload(src string) (string, bool) {
	if rest, ok := strings.CutPrefix(src, "data:"); ok {
		meta, payload, ok := strings.Cut(rest, ",")
		if !ok || !strings.HasSuffix(strings.ToLower(meta), ";base64") {
			return "", false
		}
		return payload, true
	}
	if strings.Contains(src, ":") {
		return "", false
	}
	return src, src != ""
}

// ReplyImages reads the images of choices[0].message (nil when there are
// none), within the same bounds as a stream's.
func (r *ChatResponse) ReplyImages() []ReplyImage {
	if r == nil || len(r.Choices) == 0 {
		return nil
	}
	var b replyImageBudget
	return b.decode(r.Choices[0].Images)
}
