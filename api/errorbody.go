package api

import (
	"bytes"
	"cmp"
	"encoding/json"
	"html"
	"strings"
)

// errorBody holds what could be read from an error body.
type errorBody struct {
	Message, Code, Type, Param string
}

// parseErrorBody reads the error shapes gateways use: OpenAI's
// {"error":{"message","type","param","code"}} with code a number or a string,
// {"error":"text"}, vLLM's top-level {"object":"error","message",...},
// FastAPI's {"detail":...}, Google's [{"error":{...}}], an HTML page from a
// proxy (its <title>), or plain text. ok is false for an empty body.
func parseErrorBody(body []byte, contentType string) (eb errorBody, ok bool) {
	body = bytes.TrimSpace(body)
	if len(body) == 0 {
		return eb, false
	}
	if body[0] == '{' || body[0] == '[' {
		if eb, ok := parseJSONError(body); ok {
			return eb, true
		}
	}
	if strings.Contains(strings.ToLower(contentType), "html") || body[0] == '<' {
		if t := htmlTitle(body); t != "" {
			return errorBody{Message: t}, true
		}
		return errorBody{Message: "the gateway sent an HTML page instead of an API reply"}, true
	}
	return errorBody{Message: oneLine(string(body), 300)}, true
}

func parseJSONError(body []byte) (errorBody, bool) {
	if len(body) == 0 {
		return errorBody{}, false
	}
	if body[0] == '[' {
		// Google's shape: the error object in an array. One level only:
		// no gateway nests deeper, and unwrapping level by level would
		// parse the whole body again at every level.
		var list []json.RawMessage
		if json.Unmarshal(body, &list) != nil || len(list) == 0 {
			return errorBody{}, false
		}
		first := bytes.TrimSpace(list[0])
		if len(first) == 0 || first[0] != '{' {
			return errorBody{}, false
		}
		return parseJSONError(first)
	}
	var top struct {
		Error   json.RawMessage `json:"error"`
		Message json.RawMessage `json:"message"`
		Detail  json.RawMessage `json:"detail"`
		Code    json.RawMessage `json:"code"`
		Type    json.RawMessage `json:"type"`
		Param   json.RawMessage `json:"param"`
		Status  json.RawMessage `json:"status"`
	}
	if json.Unmarshal(body, &top) != nil {
		return errorBody{}, false
	}
	eb := errorBody{
		Message: jsonText(top.Message),
		Code:    jsonText(top.Code),
		Type:    jsonText(top.Type),
		Param:   jsonText(top.Param),
	}
	if eb.Type == "" {
		eb.Type = jsonText(top.Status)
	}
	if e := bytes.TrimSpace(top.Error); len(e) > 0 && e[0] == '{' {
		var inner struct {
			Message  json.RawMessage `json:"message"`
			Code     json.RawMessage `json:"code"`
			Type     json.RawMessage `json:"type"`
			Param    json.RawMessage `json:"param"`
			Status   json.RawMessage `json:"status"`
			Metadata struct {
				Raw json.RawMessage `json:"raw"`
			} `json:"metadata"`
		}
		if json.Unmarshal(e, &inner) == nil {
			eb.Message = cmp.Or(jsonText(inner.Message), eb.Message)
			eb.Code = cmp.Or(jsonText(inner.Code), eb.Code)
			eb.Type = cmp.Or(jsonText(inner.Type), jsonText(inner.Status), eb.Type)
			eb.Param = cmp.Or(jsonText(inner.Param), eb.Param)
			// OpenRouter puts the upstream provider's words in metadata.raw
			// behind a generic "Provider returned error".
			if raw := jsonText(inner.Metadata.Raw); raw != "" && !strings.Contains(eb.Message, raw) {
				eb.Message = strings.TrimSpace(eb.Message + ": " + oneLine(raw, 300))
			}
		}
	} else if m := jsonText(top.Error); m != "" {
		eb.Message = m
	}
	if eb.Message == "" {
		eb.Message = detailText(top.Detail)
	}
	if eb.Message == "" && eb.Code == "" && eb.Type == "" {
		return errorBody{}, false
	}
	return eb, true
}

// jsonText turns a JSON string, number or boolean into text; null, objects
// and arrays give "".
func jsonText(raw json.RawMessage) string {
	raw = bytes.TrimSpace(raw)
	if len(raw) == 0 {
		return ""
	}
	switch raw[0] {
	case '"':
		var s string
		if json.Unmarshal(raw, &s) == nil {
			return s
		}
	case '{', '[', 'n':
		return ""
	default:
		return string(raw)
	}
	return ""
}

// detailText reads FastAPI's detail: a string, or a list of {"msg": ...}.
func detailText(raw json.RawMessage) string {
	if s := jsonText(raw); s != "" {
		return s
	}
	var list []struct {
		Msg string `json:"msg"`
	}
	if json.Unmarshal(raw, &list) != nil {
		return ""
	}
	var msgs []string
	for _, d := range list {
		if d.Msg != "" {
			msgs = append(msgs, d.Msg)
		}
	}
	return strings.Join(msgs, "; ")
}

// htmlTitle returns the text of the page's <title>, unescaped and on one line.
func htmlTitle(page []byte) string {
	i := indexFoldASCII(page, "<title")
	if i < 0 {
		return ""
	}
	rest := page[i+len("<title"):]
	gt := bytes.IndexByte(rest, '>')
	if gt < 0 {
		return ""
	}
	rest = rest[gt+1:]
	end := indexFoldASCII(rest, "</title")
	if end < 0 {
		end = min(len(rest), 300)
	}
	return oneLine(html.UnescapeString(string(rest[:end])), 200)
}

// indexFoldASCII finds an ASCII needle ignoring ASCII case, without changing
// the haystack's byte offsets the way a Unicode lower-casing could.
func indexFoldASCII(s []byte, needle string) int {
	n := len(needle)
	for i := 0; i+n <= len(s); i++ {
		match := true
		for j := range n {
			c := s[i+j]
			if 'A' <= c && c <= 'Z' {
				c += 'a' - 'A'
			}
			if c != needle[j] {
				match = false
				break
			}
		}
		if match {
			return i
		}
	}
	return -1
}
