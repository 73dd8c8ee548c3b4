package fake

import (
	"encoding/json"
	"net/http"
)

// Call is a request that passed validation, as a Responder sees it. It is
// the Responder's own copy: changing it changes nothing in the server.
type Call struct {
	// Endpoint is the path relative to /v1: "/chat/completions",
	// "/images/generations" or "/images/edits".
	Endpoint string
	Model    ModelSpec

	// Chat is the decoded chat request (chat only); Stream says whether it
	// asked for a stream.
	Chat   *ChatRequest
	Stream bool

	// Prompt, N, Width and Height describe an image request: the images to
	// answer with are N of Width x Height pixels (for an edit without a
	// size, or with "auto", the size of its first input image).
	Prompt        string
	N             int
	Width, Height int
	// Edit is the parsed form of an edit, with its input images and mask.
	Edit *EditForm
}

// Responder scripts the answer to a valid request that no queued or
// default reply scripts. It runs after validation, so it never sees a
// request the strict fake refuses, and what it returns is used like a
// queued Reply from there on: an explicit reply (Status of 300 or more,
// Body, Drop) is written as is after its Delay; otherwise the chat fields
// (Text, Deltas, Interval, faults, ...) or Images answer the request.
// Path is ignored. A Responder runs on the request's goroutine, one call
// per request, possibly concurrently.
type Responder func(Call) Reply

// consult asks the server's Responder for the reply to a validated request
// that nothing scripted. It returns true when the exchange is answered
// (an explicit reply, a drop, a client gone or a broken reply); false
// means the handler goes on with ex.rep.
func (ex *exchange) consult(c Call) (done bool) {
	if ex.scripted || ex.s.respond == nil {
		return false
	}
	if c.Chat != nil {
		// A fresh decode: the handler keeps reading its own.
		var fresh ChatRequest
		if json.Unmarshal(ex.body, &fresh) == nil {
			c.Chat = &fresh
		}
	}
	c.Model = cloneModels([]ModelSpec{c.Model})[0]
	rep := ex.s.respond(c)
	if err := rep.check(); err != nil {
		ex.fail(&apiError{status: http.StatusInternalServerError, typ: "server_error",
			message: "The Responder of the fake gateway returned an invalid reply: " + err.Error()})
		return true
	}
	ex.rep = rep.clone()
	for k, v := range ex.rep.Header {
		ex.w.Header().Set(k, v)
	}
	if !ex.pause(ex.rep.Delay) {
		return true
	}
	if ex.rep.Drop {
		panic(http.ErrAbortHandler)
	}
	if ex.rep.explicit() {
		ex.writeExplicit()
		return true
	}
	return false
}
