package fake

import (
	"net/http"
	"strconv"
)

// stream writes a streamed chat reply following the spec's lifecycle
// (role chunk, content chunks, final chunk, optional usage chunk, [DONE]),
// bent by the reply's quirks and faults.
func (ex *exchange) stream(call *chatCall, deltas []string, usage Usage) {
	rep := &ex.rep
	q := rep.Quirks
	ex.streamHeader()

	out := newBodyWriter(ex.w, rep.WriteSize)
	sse := &sseWriter{out: out, q: q}
	c := &chunker{id: ex.completionID(), created: ex.s.now().Unix(), model: call.model.ID, q: q}
	n := len(deltas)
	// Usage rides on the finishing chunk only with UsageInFinalChunk and
	// only when there is a finishing chunk.
	usageOnFinish := call.includeUsage && q.UsageInFinalChunk && !q.NoFinishReason

	sse.start()
	if q.PromptFilterFirst {
		sse.event(c.promptFilter())
	}
	roleWithText := q.RoleWithFirstText && !q.NoRoleChunk && n > 0
	if !q.NoRoleChunk && !roleWithText {
		sse.event(c.role())
	}
	if q.ChoiceWithoutDelta {
		sse.event(c.noDelta())
	}
	if !ex.streamReasoning(out, sse, c) {
		return
	}
	if !ex.faults(0, n, sse, c) {
		return
	}
	finishOnContent := q.FinishOnLastContent && !q.NoFinishReason
	for i, d := range deltas {
		if rep.Interval > 0 {
			out.flush()
			if !ex.pause(rep.Interval) {
				return
			}
		}
		last := i == n-1
		finish := ""
		var u *Usage
		if last && finishOnContent {
			finish = rep.finishReason()
			if usageOnFinish {
				u = &usage
			}
		}
		sse.event(c.content(d, i == 0 && roleWithText, finish, u))
		if out.err != nil || !ex.faults(i+1, n, sse, c) {
			return
		}
	}
	for i, tc := range rep.ToolCalls {
		sse.event(c.toolCall(i, tc, "", true))
		for _, piece := range splitRunes(tc.Arguments, rep.deltaRunes()) {
			sse.event(c.toolCall(i, tc, piece, false))
		}
	}
	if len(rep.ReplyImages) > 0 {
		sse.event(c.images(rep.ReplyImages))
	}
	if !q.NoFinishReason && !(finishOnContent && n > 0) {
		var u *Usage
		if usageOnFinish {
			u = &usage
		}
		sse.event(c.final(rep.finishReason(), u))
	}
	if (call.includeUsage && !usageOnFinish) || q.UsageChunkEmptyChoices {
		sse.event(c.usage(usage))
	}
	if !q.NoDone {
		sse.done()
	}
	out.flush()
}

// streamHeader writes the status and the headers of an event stream.
func (ex *exchange) streamHeader() {
	h := ex.w.Header()
	ex.setContentType("text/event-stream; charset=utf-8")
	setIfAbsent(h, "Cache-Control", "no-cache")
	setIfAbsent(h, "X-Accel-Buffering", "no")
	setIfAbsent(h, "X-Request-Id", "req_apitest_"+strconv.Itoa(ex.seq))
	ex.w.WriteHeader(ex.status(http.StatusOK))
}

// streamReasoning sends the reply's reasoning, paced like its text; false
// means the stream ended (the client left or a write failed).
func (ex *exchange) streamReasoning(out *bodyWriter, sse *sseWriter, c *chunker) bool {
	rep := &ex.rep
	for _, r := range rep.reasoningDeltas() {
		if rep.Interval > 0 {
			out.flush()
			if !ex.pause(rep.Interval) {
				return false
			}
		}
		sse.event(c.reasoning(r, rep.reasoningField()))
		if out.err != nil {
			return false
		}
	}
	return true
}

// faults runs the faults scripted for the point after k of n deltas; false
// means the stream is over. A fault set after more deltas than there are
// acts after the last one.
func (ex *exchange) faults(k, n int, sse *sseWriter, c *chunker) bool {
	rep := &ex.rep
	at := func(after int) bool { return k == min(after, n) }
	if rep.hasStall() && at(rep.StallAfterDeltas) {
		sse.out.flush()
		if rep.Stall <= 0 {
			ex.hold()
			return false
		}
		if !ex.pause(rep.Stall) {
			return false
		}
	}
	if rep.hasStreamError() && at(rep.ErrorAfterDeltas) {
		sse.event(c.streamError(rep))
		// OpenAI closes the stream after the error; OpenRouter and vLLM
		// still send the terminator.
		if rep.errorShape() != ErrorShapeOpenAI && !rep.Quirks.NoDone {
			sse.done()
		}
		sse.out.flush()
		return false
	}
	if rep.CutAfterDeltas > 0 && at(rep.CutAfterDeltas) {
		sse.out.flush()
		panic(http.ErrAbortHandler)
	}
	return true
}
