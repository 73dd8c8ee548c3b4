// Package chat is parley's chat engine: it runs the turns of one
// conversation, for the full-screen chat and for `parley ask` alike. It
// owns the conversation and its listeners, the gateway clients (one per
// model, built off the caller's goroutine), the replies in flight (one,
// or a compare's several: each its stream, read into its pump, its
// cancel and its stats), what a send waits for, and the outcome of the
// last turn.
//
// The engine decides, its owner presents: the engine reports what
// happened as data (a reply that ended and how, its usage and rate, the
// messages left out of a request, what a send waits for) and never words
// a notice or draws. It imports no UI package. An Engine is not safe for
// concurrent use: its owner (the chat's Update, or ask's goroutine) calls
// it, and each goroutine reading a stream talks to it only through its
// reply's pump.
package chat
