// Package fake is a fake gateway: a real HTTP server on loopback that
// speaks the chat-completions, image-generation and image-edit interface of
// the spec, strictly, and that can be scripted. parley's built-in demo
// (internal/demo) serves it, so it links neither testing nor
// net/http/httptest: the tests reach it through api/apitest, which adds
// what only tests need (a server per test, the request log, a client).
//
// It never imports parley's api package; it has its own copy of the wire
// shapes, so it is a second, independent reading of the spec.
//
// # Unscripted behaviour
//
//   - POST /v1/chat/completions answers "You said: <last user text>", as one
//     JSON reply or, with "stream": true, as the spec's stream: a role chunk,
//     content chunks of DefaultDeltaRunes runes, a final chunk with an empty
//     delta and finish_reason "stop", a usage chunk with empty choices only
//     when stream_options.include_usage is true, then data: [DONE].
//   - POST /v1/images/generations and /v1/images/edits answer n real PNGs of
//     the requested size (b64_json, or data[].url served under /files/).
//   - GET /v1/models lists the catalog (DefaultModels unless WithModels).
//
// Requests are validated like a strict real gateway and refused in the
// OpenAI error shape {"error":{"message","type","param","code"}}: a missing
// or wrong bearer key (401 invalid_api_key), a JSON body without
// Content-Type: application/json, malformed JSON, missing or unknown
// members (400), an unknown model (404 model_not_found), image parts for a
// model without vision, data URIs whose media type is not the real format,
// stream_options for a model that does not report usage, response_format,
// sizes or counts a model does not take (ModelSpec.MaxSide bounds free
// sizes, MaxEditSide edit inputs), a mask whose size differs from the image,
// sampling parameters of the wrong type or out of OpenAI's ranges, and the
// parameters a model refuses (ModelSpec.RejectParams; max_tokens for a
// model with MaxCompletionTokens) (400).
//
// # Scripting
//
// Enqueue queues replies consumed in order by the next requests (a Reply
// with Path only by requests to that endpoint); SetDefault sets the reply
// used when the queue has none. A Reply scripts the text and how it is cut
// into deltas, the stream framing quirks real gateways have (Quirks), faults
// (a cut connection, a stall, an error inside the stream in the OpenAI,
// OpenRouter or vLLM shape), reasoning sent before the answer the three
// ways gateways send it (Reply.Reasoning and ReasoningAs: delta and
// message reasoning_content, reasoning, or <think> in the content, with
// reasoning_tokens in the usage), or an explicit status, headers and body that
// are written without looking at the request. An Observer hears every
// request before validation (apitest logs them with it):
//
//	srv, err := fake.Listen()
//	if err != nil {
//		return err
//	}
//	defer srv.Close()
//	srv.Enqueue(
//		fake.Reply{Status: 429, Header: map[string]string{"Retry-After": "0"}},
//		fake.Reply{Text: "Hello!", DeltaRunes: 2, Quirks: fake.Quirks{
//			LineEnding: "\r\n", CommentsBefore: 300, NoDone: true,
//		}},
//	)
//	// ... point a client at srv.URL() with key fake.DefaultAPIKey ...
//
// A Responder (WithResponder) scripts the answer from the request itself:
// it sees every request that passed validation and that no queued or
// default reply scripts (the chat messages, an image request's prompt, n
// and size, an edit's images) and returns the Reply to use. parley's
// built-in demo (internal/demo) gives its models their behaviour this way.
//
// The fakegateway command (api/fake/fakegateway) serves the same fake on
// an address for trying parley by hand.
package fake
