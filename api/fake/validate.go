package fake

import (
	"bytes"
	"encoding/json"
	"fmt"
	"mime"
	"net/http"
	"slices"
	"strings"
)

// checkAuth requires "Authorization: Bearer <key>" (scheme case-insensitive,
// as RFC 9110 has it).
func (s *Server) checkAuth(r *http.Request) *apiError {
	if s.key == "" {
		return nil
	}
	h := r.Header.Get("Authorization")
	scheme, token, _ := strings.Cut(h, " ")
	if h == "" || !strings.EqualFold(scheme, "Bearer") || strings.TrimSpace(token) == "" {
		return &apiError{status: http.StatusUnauthorized, typ: "invalid_request_error", code: "invalid_api_key",
			message: "You didn't provide an API key. You need to provide your API key in an Authorization header using Bearer auth (i.e. Authorization: Bearer YOUR_KEY)."}
	}
	if token != s.key {
		return &apiError{status: http.StatusUnauthorized, typ: "invalid_request_error", code: "invalid_api_key",
			message: fmt.Sprintf("Incorrect API key provided: %s. You can find your API key at https://platform.openai.com/account/api-keys.", maskKey(token))}
	}
	return nil
}

// maskKey shows a key the way OpenAI echoes it: a few characters at each end.
func maskKey(k string) string {
	if len(k) < 12 {
		return strings.Repeat("*", len(k))
	}
	return k[:3] + strings.Repeat("*", len(k)-7) + k[len(k)-4:]
}

// decodeJSONBody checks the Content-Type and decodes the body into a generic
// object, numbers kept as json.Number so integers can be told from decimals.
func decodeJSONBody(r *http.Request, body []byte) (map[string]any, *apiError) {
	ct := r.Header.Get("Content-Type")
	mt, _, err := mime.ParseMediaType(ct)
	if err != nil || mt != "application/json" {
		return nil, badRequest("", "",
			"Invalid Content-Type header %q: this endpoint expects a JSON body sent with Content-Type: application/json.", ct)
	}
	dec := json.NewDecoder(bytes.NewReader(body))
	dec.UseNumber()
	var v any
	if err := dec.Decode(&v); err != nil {
		return nil, badRequest("", "", "We could not parse the JSON body of your request (%v). The API expects a JSON object.", err)
	}
	if dec.More() {
		return nil, badRequest("", "", "We could not parse the JSON body of your request (data after the JSON value). The API expects a JSON object.")
	}
	m, ok := v.(map[string]any)
	if !ok {
		return nil, badRequest("", "", "Invalid request body: expected a JSON object, but got %s.", jsonType(v))
	}
	return m, nil
}

// jsonType names the JSON type of a decoded value, for error messages.
func jsonType(v any) string {
	switch v := v.(type) {
	case nil:
		return "null"
	case string:
		return "a string"
	case bool:
		return "a boolean"
	case json.Number:
		if _, err := v.Int64(); err == nil {
			return "an integer"
		}
		return "a decimal number"
	case float64:
		return "a number"
	case []any:
		return "an array"
	case map[string]any:
		return "an object"
	default:
		return fmt.Sprintf("%T", v)
	}
}

func invalidType(param, want string, got any) *apiError {
	return badRequest(param, "invalid_type", "Invalid type for '%s': expected %s, but got %s instead.", param, want, jsonType(got))
}

func missingParam(param string) *apiError {
	return badRequest(param, "missing_required_parameter", "Missing required parameter: '%s'.", param)
}

// checkKnown refuses members a strict gateway does not know, naming the
// first in sorted order so the answer is deterministic.
func checkKnown(m map[string]any, prefix string, known ...string) *apiError {
	var unknown []string
	for k := range m {
		if !slices.Contains(known, k) {
			unknown = append(unknown, k)
		}
	}
	if len(unknown) == 0 {
		return nil
	}
	slices.Sort(unknown)
	return badRequest(prefix+unknown[0], "unknown_parameter", "Unrecognized request argument supplied: %s", prefix+unknown[0])
}

// str reads an optional string member; present is false when the key is
// absent or null.
func str(m map[string]any, key, param string) (val string, present bool, err *apiError) {
	v, ok := m[key]
	if !ok || v == nil {
		return "", false, nil
	}
	s, isStr := v.(string)
	if !isStr {
		return "", true, invalidType(param, "a string", v)
	}
	return s, true, nil
}

// reqString reads a required, non-empty string member.
func reqString(m map[string]any, key, param string) (string, *apiError) {
	s, present, err := str(m, key, param)
	switch {
	case err != nil:
		return "", err
	case !present:
		return "", missingParam(param)
	case s == "":
		return "", badRequest(param, "empty_string", "Invalid '%s': empty string. Expected a string with minimum length 1, but got an empty string instead.", param)
	}
	return s, nil
}

// boolean reads an optional boolean member (null counts as absent).
func boolean(m map[string]any, key string) (bool, *apiError) {
	v, ok := m[key]
	if !ok || v == nil {
		return false, nil
	}
	b, isBool := v.(bool)
	if !isBool {
		return false, invalidType(key, "a boolean", v)
	}
	return b, nil
}

// integer reads an optional integer member (null counts as absent).
func integer(m map[string]any, key string) (n int, present bool, err *apiError) {
	v, ok := m[key]
	if !ok || v == nil {
		return 0, false, nil
	}
	num, isNum := v.(json.Number)
	if !isNum {
		return 0, true, invalidType(key, "an integer", v)
	}
	i, perr := num.Int64()
	if perr != nil {
		return 0, true, invalidType(key, "an integer", v)
	}
	return int(i), true, nil
}
