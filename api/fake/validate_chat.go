package fake

import (
	"encoding/base64"
	"encoding/json"
	"fmt"
	"net/http"
	"net/url"
	"slices"
	"strings"
)

// chatCall is a chat request that passed validation.
type chatCall struct {
	model        ModelSpec
	req          ChatRequest
	stream       bool
	includeUsage bool
	images       int // image parts in all messages
}

// chatParams are the request members a strict OpenAI-style gateway knows.
func chatParams() []string {
	return []string{"model", "messages", "stream", "stream_options",
		"temperature", "top_p", "n", "stop", "max_tokens", "max_completion_tokens",
		"presence_penalty", "frequency_penalty", "logit_bias", "logprobs", "top_logprobs",
		"user", "seed", "tools", "tool_choice", "parallel_tool_calls", "response_format",
		"store", "metadata", "reasoning_effort", "service_tier", "modalities", "audio", "prediction"}
}

// imagePart is an image_url found in a request, with where it was.
type imagePart struct {
	param string // "messages[0].content[1].image_url.url"
	url   string
}

func (ex *exchange) validateChat() (*chatCall, *apiError) {
	m, err := decodeJSONBody(ex.r, ex.body)
	if err != nil {
		return nil, err
	}
	if err := checkKnown(m, "", chatParams()...); err != nil {
		return nil, err
	}
	modelID, err := reqString(m, "model", "model")
	if err != nil {
		return nil, err
	}
	rawMsgs, ok := m["messages"]
	if !ok {
		return nil, missingParam("messages")
	}
	msgs, isArr := rawMsgs.([]any)
	if !isArr {
		return nil, invalidType("messages", "an array", rawMsgs)
	}
	if len(msgs) == 0 {
		return nil, badRequest("messages", "empty_array", "Invalid 'messages': empty array. Expected an array with minimum length 1, but got an empty array instead.")
	}
	var images []imagePart
	for i, v := range msgs {
		imgs, err := checkMessage(i, v)
		if err != nil {
			return nil, err
		}
		images = append(images, imgs...)
	}
	stream, err := boolean(m, "stream")
	if err != nil {
		return nil, err
	}

	spec, ok := ex.s.model(modelID)
	if !ok {
		return nil, modelNotFound(modelID)
	}
	if spec.isImageModel() {
		return nil, &apiError{status: http.StatusNotFound, typ: "invalid_request_error", param: "model",
			message: fmt.Sprintf("The model `%s` is not a chat model and thus not supported in the v1/chat/completions endpoint.", modelID)}
	}

	includeUsage, err := checkStreamOptions(m, spec, stream)
	if err != nil {
		return nil, err
	}
	if err := checkParams(m, spec); err != nil {
		return nil, err
	}
	if len(images) > 0 && !spec.Vision {
		return nil, badRequest(images[0].param, "image_input_not_supported",
			"Invalid content type. image_url is only supported by certain models: %s does not accept images. Models that do: %s.",
			modelID, quoteList(ex.s.modelsWith(func(m ModelSpec) bool { return m.Vision })))
	}
	for _, img := range images {
		if err := ex.s.checkImageURL(img); err != nil {
			return nil, err
		}
	}

	var req ChatRequest
	if err := json.Unmarshal(ex.body, &req); err != nil {
		// The generic checks above accept only what this decode reads.
		return nil, badRequest("", "", "Invalid request body: %v.", err)
	}
	return &chatCall{model: spec, req: req, stream: stream, includeUsage: includeUsage, images: len(images)}, nil
}

// checkStreamOptions enforces the spec: stream_options must be omitted for
// models that do not report usage (a null value is not "omitted"), and, as
// OpenAI has it, it is only allowed on streaming requests.
func checkStreamOptions(m map[string]any, spec ModelSpec, stream bool) (includeUsage bool, _ *apiError) {
	v, present := m["stream_options"]
	if !present {
		return false, nil
	}
	if !spec.StreamUsage {
		return false, badRequest("stream_options", "unsupported_parameter",
			"Unsupported parameter: 'stream_options' is not supported with model %s; omit it.", spec.ID)
	}
	if v == nil {
		return false, nil
	}
	if !stream {
		return false, badRequest("stream_options", "invalid_value", "The 'stream_options' parameter is only allowed when 'stream' is enabled.")
	}
	so, ok := v.(map[string]any)
	if !ok {
		return false, invalidType("stream_options", "an object", v)
	}
	if err := checkKnown(so, "stream_options.", "include_usage", "include_obfuscation"); err != nil {
		return false, err
	}
	iu, ok := so["include_usage"]
	if !ok || iu == nil {
		return false, nil
	}
	b, ok := iu.(bool)
	if !ok {
		return false, invalidType("stream_options.include_usage", "a boolean", iu)
	}
	return b, nil
}

func checkMessage(i int, v any) ([]imagePart, *apiError) {
	at := fmt.Sprintf("messages[%d]", i)
	msg, ok := v.(map[string]any)
	if !ok {
		return nil, invalidType(at, "an object", v)
	}
	if err := checkKnown(msg, at+".", "role", "content", "name", "tool_calls", "tool_call_id", "refusal", "function_call", "audio"); err != nil {
		return nil, err
	}
	role, err := reqString(msg, "role", at+".role")
	if err != nil {
		return nil, err
	}
	roles := []string{"system", "developer", "user", "assistant", "tool"}
	if !slices.Contains(roles, role) {
		return nil, badRequest(at+".role", "invalid_value", "Invalid value: '%s'. Supported values are: %s.", role, quoteList(roles))
	}
	content, present := msg["content"]
	switch c := content.(type) {
	case string:
		return nil, nil
	case nil:
		if role == "assistant" {
			return nil, nil // an assistant turn may carry only tool calls
		}
		if present {
			return nil, invalidType(at+".content", "one of a string or an array of content parts", content)
		}
		return nil, missingParam(at + ".content")
	case []any:
		if len(c) == 0 {
			return nil, badRequest(at+".content", "empty_array", "Invalid '%s.content': empty array. Expected an array with minimum length 1, but got an empty array instead.", at)
		}
		var images []imagePart
		for j, p := range c {
			img, err := checkPart(fmt.Sprintf("%s.content[%d]", at, j), p)
			if err != nil {
				return nil, err
			}
			if img != nil {
				if role != "user" {
					return nil, badRequest(img.param, "invalid_value", "Image URLs are only allowed for messages with role 'user', but this message with role '%s' contains an image URL.", role)
				}
				images = append(images, *img)
			}
		}
		return images, nil
	default:
		return nil, invalidType(at+".content", "one of a string or an array of content parts", content)
	}
}

// checkPart checks one content part; it returns the image of an image part.
func checkPart(at string, v any) (*imagePart, *apiError) {
	p, ok := v.(map[string]any)
	if !ok {
		return nil, invalidType(at, "an object", v)
	}
	typ, err := reqString(p, "type", at+".type")
	if err != nil {
		return nil, err
	}
	switch typ {
	case "text":
		if err := checkKnown(p, at+".", "type", "text"); err != nil {
			return nil, err
		}
		t, ok := p["text"]
		if !ok {
			return nil, missingParam(at + ".text")
		}
		if _, isStr := t.(string); !isStr {
			return nil, invalidType(at+".text", "a string", t)
		}
		return nil, nil
	case "image_url":
		if err := checkKnown(p, at+".", "type", "image_url"); err != nil {
			return nil, err
		}
		iu, ok := p["image_url"]
		if !ok {
			return nil, missingParam(at + ".image_url")
		}
		obj, isObj := iu.(map[string]any)
		if !isObj {
			return nil, invalidType(at+".image_url", "an object", iu)
		}
		if err := checkKnown(obj, at+".image_url.", "url", "detail"); err != nil {
			return nil, err
		}
		u, err := reqString(obj, "url", at+".image_url.url")
		if err != nil {
			return nil, err
		}
		if d, present, err := str(obj, "detail", at+".image_url.detail"); err != nil {
			return nil, err
		} else if present && d != "auto" && d != "low" && d != "high" {
			return nil, badRequest(at+".image_url.detail", "invalid_value", "Invalid value: '%s'. Supported values are: 'auto', 'low', and 'high'.", d)
		}
		return &imagePart{param: at + ".image_url.url", url: u}, nil
	default:
		return nil, badRequest(at+".type", "invalid_value", "Invalid value: '%s'. Supported values are: 'text' and 'image_url'.", typ)
	}
}

// checkImageURL accepts a public http(s) URL (not fetched) or a base64 data
// URI whose declared media type is the real format of its bytes.
func (s *Server) checkImageURL(img imagePart) *apiError {
	u := img.url
	if strings.HasPrefix(u, "http://") || strings.HasPrefix(u, "https://") {
		if pu, err := url.Parse(u); err != nil || pu.Host == "" {
			return badRequest(img.param, "invalid_image_url", "Invalid image URL: %q is not a valid http(s) URL.", u)
		}
		return nil
	}
	rest, ok := strings.CutPrefix(u, "data:")
	if !ok {
		return badRequest(img.param, "invalid_image_url", "Invalid image URL: expected an http(s) URL or a data URI of the form data:<mime_type>;base64,<base64_data>.")
	}
	meta, data, ok := strings.Cut(rest, ",")
	mediaType, isB64 := strings.CutSuffix(meta, ";base64")
	if !ok || !isB64 {
		return badRequest(img.param, "invalid_image_url", "Invalid image data URI: expected data:<mime_type>;base64,<base64_data>.")
	}
	mediaType = strings.ToLower(mediaType)
	supported := []string{mimePNG, mimeJPEG, mimeGIF, mimeWEBP}
	if !slices.Contains(supported, mediaType) {
		return badRequest(img.param, "invalid_image_format", "Invalid MIME type %q in the image data URI. Supported types: %s.", mediaType, quoteList(supported))
	}
	raw, err := base64.StdEncoding.DecodeString(data)
	if err != nil {
		return badRequest(img.param, "invalid_base64", "Invalid base64 image data: %v.", err)
	}
	if int64(len(raw)) > s.maxImage {
		return badRequest(img.param, "image_too_large", "The image is too large: %d bytes, the limit is %d bytes.", len(raw), s.maxImage)
	}
	actual := sniffImage(raw)
	switch {
	case actual == "":
		return badRequest(img.param, "invalid_image_format", "The image data is not a PNG, JPEG, GIF or WEBP image.")
	case actual != mediaType:
		return badRequest(img.param, "invalid_image_format", "The image data URI declares %s, but the bytes are %s. The media type must match the real image format.", mediaType, actual)
	}
	if _, _, err := imageInfo(raw); err != nil {
		return badRequest(img.param, "invalid_image", "The image could not be decoded: %v.", err)
	}
	if actual == mimeGIF {
		if n, err := gifFrames(raw); err != nil || n > 1 {
			return badRequest(img.param, "invalid_image", "Animated or broken GIFs are not supported; send a single-frame image.")
		}
	}
	return nil
}
