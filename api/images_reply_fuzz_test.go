package api

import (
	"bytes"
	"encoding/base64"
	"encoding/json"
	"errors"
	"io"
	"strconv"
	"strings"
	"testing"
	"unicode/utf8"
)

// FuzzReadImageReply feeds arbitrary bytes to the streaming image reply
// reader. It must not panic, must give the same result whether the body
// comes whole with its length or in arbitrary pieces without it, must keep
// no more image bytes than the body holds, must refuse a body over its
// limit, and, for valid JSON within its limits, must agree with a second
// reading of the same rules on top of encoding/json (refImageReply).
func FuzzReadImageReply(f *testing.F) {
	png := base64.StdEncoding.EncodeToString([]byte("\x89PNG\r\n\x1a\nfuzz"))
	for _, s := range []string{
		`{"created":1700000000,"data":[{"b64_json":"` + png + `","revised_prompt":"a cat"}]}`,
		`{"data":[{"url":"https://example.com/a.png"},{"b64_json":"` + png + `"}]}`,
		`{"data":[{"url":"data:image/png;base64,` + png + `"}]}`,
		`{"data":[null,{"b64_json":null,"url":null}],"created":"x"}`,
		`{"data":[{"b64_json":"aGk\u003d","revised_prompt":"\ud83d\ude00 \u00e9"}]}`,
		`{"data":[{"b64_json":"aGk-_w"}]}`,
		`{"error":{"message":"content policy","type":"invalid_request_error"}}`,
		`{"data":null}`,
		`{"data":{}}`,
		`{"data":[1]}`,
		`[{"data":[]}]`,
		`{"data":[{"url":"data:image/png,abc"}]}`,
		`{"data":[{"url":"data:` + strings.Repeat("x", 300) + `;base64,aGk="}]}`,
		`{"data":[{"revised_prompt":"\ud800\u0041"}]}`,
		"{\"data\" : [ { \"b64_json\" : \"aG\\nk=\" } ] , \"x\":[true,false,-1.5e3,{}]}\n",
		`{"data":[{"b64_json":"aGk="}]} x`,
		`{"data":[{"b64_json":"aGk`,
	} {
		f.Add([]byte(s), uint8(1), uint16(7), uint16(3))
	}
	f.Fuzz(func(t *testing.T, in []byte, want uint8, cut1, cut2 uint16) {
		w := int(want % 4)
		limit := int64(len(in)) + 16
		whole, wholeHead, wholeErr := readImageReply(bytes.NewReader(in), w, limit, int64(len(in)))
		cuts := []int{int(cut1), int(cut1) + int(cut2)}
		split, splitHead, splitErr := readImageReply(&splitReader{in: in, cuts: cuts}, w, limit, -1)
		if (wholeErr == nil) != (splitErr == nil) {
			t.Fatalf("read whole: %v; read in pieces cut at %v: %v", wholeErr, cuts, splitErr)
		}
		if wholeErr == nil {
			if d := replyDiff(whole, split); d != "" || !bytes.Equal(wholeHead, splitHead) {
				t.Fatalf("read whole and in pieces cut at %v differ: %s (heads %q, %q)", cuts, d, wholeHead, splitHead)
			}
			kept := 0
			for _, img := range whole.Data {
				kept += len(img.File)
			}
			if kept > len(in) {
				t.Fatalf("%d image bytes kept from a %d-byte body", kept, len(in))
			}
		}
		if len(in) > 0 {
			if _, _, err := readImageReply(bytes.NewReader(in), w, int64(len(in))-1, -1); err == nil {
				t.Fatalf("a %d-byte body was read with a limit of %d", len(in), len(in)-1)
			}
		}
		ref, ok := refImageReply(in, max(w, 1), limit)
		if !ok {
			return
		}
		switch {
		case ref.fails && wholeErr == nil:
			t.Fatalf("the reference refuses %q; the reader took it", in)
		case !ref.fails && wholeErr != nil:
			t.Fatalf("the reference takes %q; the reader refused it: %v", in, wholeErr)
		case ref.fails:
			return
		}
		if d := replyDiff(&ref.reply, whole); d != "" {
			t.Fatalf("the reference and the reader differ on %q: %s", in, d)
		}
		if ref.sawData != (wholeHead == nil) {
			t.Fatalf("%q: data array %v, but the reader kept head %q", in, ref.sawData, wholeHead)
		}
	})
}

// replyDiff describes the first difference between two replies ("" when
// there is none).
func replyDiff(a, b *ImageReply) string {
	if a.Created != b.Created || a.Dropped != b.Dropped || len(a.Data) != len(b.Data) {
		return "created " + strconv.FormatInt(a.Created, 10) + " vs " + strconv.FormatInt(b.Created, 10) +
			", dropped " + strconv.Itoa(a.Dropped) + " vs " + strconv.Itoa(b.Dropped) +
			", images " + strconv.Itoa(len(a.Data)) + " vs " + strconv.Itoa(len(b.Data))
	}
	for i := range a.Data {
		x, y := a.Data[i], b.Data[i]
		if !bytes.Equal(x.File, y.File) || x.URL != y.URL || x.RevisedPrompt != y.RevisedPrompt {
			return "image " + strconv.Itoa(i+1) + ": " + strconv.Quote(string(x.File)) + " " + strconv.Quote(x.URL) + " " +
				strconv.Quote(x.RevisedPrompt) + " vs " + strconv.Quote(string(y.File)) + " " + strconv.Quote(y.URL) + " " +
				strconv.Quote(y.RevisedPrompt)
		}
	}
	return ""
}

// refResult is what refImageReply makes of a body.
type refResult struct {
	reply   ImageReply
	sawData bool // the body has a data array
	fails   bool // the reader must refuse the body
}

// refImageReply applies readImageReply's documented rules to a body that
// encoding/json decodes. ok is false when the body is outside what the
// reference can judge: not valid JSON or UTF-8, a key twice in one object
// (encoding/json keeps the last, the stream reader sees both), nesting or
// numbers past the reader's limits.
func refImageReply(in []byte, want int, limit int64) (r refResult, ok bool) {
	if !json.Valid(in) || !utf8.Valid(in) || !withinReplyLimits(in) {
		return r, false
	}
	in = bytes.TrimSpace(in)
	if in[0] != '{' {
		return r, true
	}
	var top map[string]json.RawMessage
	if json.Unmarshal(in, &top) != nil {
		return r, false
	}
	if c := top["created"]; len(c) > 0 && (c[0] == '-' || c[0] >= '0' && c[0] <= '9') {
		r.reply.Created, _ = strconv.ParseInt(string(c), 10, 64)
	}
	data := top["data"]
	switch {
	case len(data) == 0 || string(data) == "null":
		return r, true
	case data[0] != '[':
		r.fails = true
		return r, true
	}
	r.sawData = true
	var entries []json.RawMessage
	if json.Unmarshal(data, &entries) != nil {
		return r, false
	}
	for i, e := range entries {
		switch {
		case i >= want:
			r.reply.Dropped++
		case string(e) == "null":
			r.reply.Data = append(r.reply.Data, GeneratedImage{})
		case e[0] != '{':
			r.fails = true
			return r, true
		default:
			img, err := refEntry(e, limit)
			if err != nil {
				r.fails = true
				return r, true
			}
			r.reply.Data = append(r.reply.Data, img)
		}
	}
	return r, true
}

// refEntry reads one image object.
func refEntry(e json.RawMessage, limit int64) (GeneratedImage, error) {
	var m map[string]json.RawMessage
	if err := json.Unmarshal(e, &m); err != nil {
		return GeneratedImage{}, err
	}
	str := func(key string) (string, bool) {
		v := m[key]
		var s string
		if len(v) == 0 || v[0] != '"' || json.Unmarshal(v, &s) != nil {
			return "", false
		}
		return s, true
	}
	var img GeneratedImage
	if s, ok := str("b64_json"); ok && s != "" {
		file, err := refBase64(s, limit)
		if err != nil {
			return img, err
		}
		img.File = file
	}
	if s, ok := str("url"); ok {
		data, isData := strings.CutPrefix(s, "data:")
		switch {
		case !isData && len(s) > maxReplyURL:
			return img, errors.New("link too long")
		case !isData:
			img.URL = s
		default:
			meta, b64, comma := strings.Cut(data, ",")
			if !comma || len("data:")+len(meta) > maxDataURIMeta || !strings.HasSuffix(meta, ";base64") {
				return img, errors.New("bad data URI")
			}
			file, err := refBase64(b64, limit)
			if err != nil {
				return img, err
			}
			if img.File == nil {
				img.File = file
			}
		}
	}
	if s, ok := str("revised_prompt"); ok {
		img.RevisedPrompt = s[:min(len(s), maxRevisedPrompt)]
	}
	return img, nil
}

// refBase64 decodes Base64 the way image replies may carry it: white space
// anywhere, the standard or the URL-safe alphabet (not both), padding
// optional but right when present, no stray bits, and not empty.
func refBase64(s string, limit int64) ([]byte, error) {
	s = strings.Map(func(r rune) rune {
		if r == ' ' || r == '\n' || r == '\r' || r == '\t' {
			return -1
		}
		return r
	}, s)
	core := strings.TrimRight(s, "=")
	pad := len(s) - len(core)
	switch {
	case pad > 2, pad > 0 && len(s)%4 != 0, len(core)%4 == 1, core == "":
		return nil, errors.New("bad padding or length")
	case strings.ContainsAny(core, "-_") && strings.ContainsAny(core, "+/"):
		return nil, errors.New("mixed alphabets")
	}
	core = strings.NewReplacer("-", "+", "_", "/").Replace(core)
	out, err := base64.RawStdEncoding.Strict().DecodeString(core)
	if err != nil || int64(len(out)) > limit {
		return nil, errors.New("bad Base64")
	}
	return out, nil
}

// withinReplyLimits reports whether a valid JSON document has no key twice
// in one object, nests at most maxReplyDepth-4 levels and has no number
// longer than maxReplyNumber characters.
func withinReplyLimits(in []byte) bool {
	dec := json.NewDecoder(bytes.NewReader(in))
	dec.UseNumber()
	type frame struct {
		object    bool
		keys      map[string]bool
		expectKey bool
	}
	var stack []*frame
	for {
		tok, err := dec.Token()
		if err == io.EOF {
			return true
		}
		if err != nil {
			return false
		}
		var top *frame
		if len(stack) > 0 {
			top = stack[len(stack)-1]
		}
		if top != nil && top.object && top.expectKey {
			if d, ok := tok.(json.Delim); ok && d == '}' {
				stack = stack[:len(stack)-1]
				continue
			}
			key, _ := tok.(string)
			if top.keys[key] {
				return false
			}
			top.keys[key] = true
			top.expectKey = false
			continue
		}
		if top != nil && top.object {
			top.expectKey = true
		}
		switch v := tok.(type) {
		case json.Delim:
			switch v {
			case '{':
				stack = append(stack, &frame{object: true, keys: map[string]bool{}, expectKey: true})
			case '[':
				stack = append(stack, &frame{})
			default:
				stack = stack[:len(stack)-1]
			}
			if len(stack) > maxReplyDepth-4 {
				return false
			}
		case json.Number:
			if len(v) > maxReplyNumber {
				return false
			}
		}
	}
}
