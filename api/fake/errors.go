package fake

import (
	"fmt"
	"net/http"
	"strings"
)

// apiError is an error answer in the OpenAI shape
// {"error":{"message","type","param","code"}}. Empty param/code are null.
type apiError struct {
	status  int
	message string
	typ     string
	param   string
	code    string
}

func (e *apiError) body() []byte {
	type inner struct {
		Message string  `json:"message"`
		Type    string  `json:"type"`
		Param   *string `json:"param"`
		Code    *string `json:"code"`
	}
	in := inner{Message: e.message, Type: e.typ}
	if e.param != "" {
		in.Param = &e.param
	}
	if e.code != "" {
		in.Code = &e.code
	}
	return marshal(struct {
		Error inner `json:"error"`
	}{in})
}

// badRequest is a 400 invalid_request_error.
func badRequest(param, code, format string, args ...any) *apiError {
	return &apiError{status: http.StatusBadRequest, typ: "invalid_request_error",
		param: param, code: code, message: fmt.Sprintf(format, args...)}
}

func modelNotFound(id string) *apiError {
	return &apiError{status: http.StatusNotFound, typ: "invalid_request_error", param: "model",
		code:    "model_not_found",
		message: fmt.Sprintf("The model `%s` does not exist or you do not have access to it.", id)}
}

func invalidURL(method, path string) *apiError {
	return &apiError{status: http.StatusNotFound, typ: "invalid_request_error",
		message: fmt.Sprintf("Invalid URL (%s %s)", method, path)}
}

func methodNotAllowed(method, path string) *apiError {
	return &apiError{status: http.StatusMethodNotAllowed, typ: "invalid_request_error",
		message: fmt.Sprintf("Invalid method for URL (%s %s)", method, path)}
}

// statusError is the body of an explicit reply with an error status and no
// Body: what a gateway typically says for that status, unless the reply
// names its own message, type or code.
func statusError(status int, r *Reply) *apiError {
	e := &apiError{status: status, typ: "invalid_request_error"}
	switch {
	case status == http.StatusUnauthorized:
		e.message, e.code = "Incorrect API key provided.", "invalid_api_key"
	case status == http.StatusForbidden:
		e.message, e.typ = "You are not allowed to use this model.", "permission_error"
	case status == http.StatusNotFound:
		e.message = "Not found."
	case status == http.StatusTooManyRequests:
		e.message, e.typ, e.code = "Rate limit reached for requests. Please try again later.", "requests", "rate_limit_exceeded"
	case status == http.StatusServiceUnavailable:
		e.message, e.typ = "The engine is currently overloaded, please try again later.", "server_error"
	case status >= 500:
		e.message, e.typ = "The server had an error while processing your request. Sorry about that!", "server_error"
	default:
		e.message = http.StatusText(status)
		if e.message == "" {
			e.message = fmt.Sprintf("HTTP status %d.", status)
		}
	}
	if r.ErrorMessage != "" {
		e.message = r.ErrorMessage
	}
	if r.ErrorType != "" {
		e.typ = r.ErrorType
	}
	if r.ErrorCode != "" {
		e.code = r.ErrorCode
	}
	return e
}

// quoteList renders 'a', 'b', and 'c' the way OpenAI's messages list values.
func quoteList(vals []string) string {
	q := make([]string, len(vals))
	for i, v := range vals {
		q[i] = "'" + v + "'"
	}
	switch len(q) {
	case 0:
		return "(none)"
	case 1:
		return q[0]
	case 2:
		return q[0] + " and " + q[1]
	default:
		return strings.Join(q[:len(q)-1], ", ") + ", and " + q[len(q)-1]
	}
}
