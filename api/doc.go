// Package api is parley's client of the gateway interface: the request and
// reply types of the spec, a server-sent-event reader, streaming and
// non-streaming chat, image generation and editing, errors with retries and
// timeouts, image attachments, and the model catalog with capabilities.
//
// It imports nothing else of parley's, so every other package can build on it.
package api
