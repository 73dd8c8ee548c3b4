package demo

import (
	"strings"
	"time"

	"parley/api/fake"
)

// runesPerDelta is how much text one streamed delta carries: about one
// token of a real model.
const runesPerDelta = 4

// slowStall is how long demo-slow stops sending: longer than the 15 s
// after which the chat says that no data arrives.
const slowStall = 20 * time.Second

// slowStallAfter is how many deltas demo-slow sends before it stalls.
const slowStallAfter = 12

// respond gives each demo model its behaviour. It runs only for requests
// the strict fake validated, so the request is well formed and fits the
// model's capabilities.
func (g *Gateway) respond(c fake.Call) fake.Reply {
	switch c.Model.ID {
	case ModelChat:
		return g.stream(chatAnswer(lastUserText(c.Chat)))
	case ModelEcho:
		return g.stream(echoAnswer(c.Chat))
	case ModelVision:
		return g.stream(describeImages(c.Chat))
	case ModelThink:
		return g.thinkReply(c.Chat)
	case ModelFiles:
		return g.stream(describeFiles(c.Chat))
	case ModelSlow:
		r := g.stream(slowAnswer)
		r.StallAfterDeltas, r.Stall = slowStallAfter, slowStall
		return r
	case ModelLong:
		return g.stream(longAnswer())
	case ModelFail:
		return g.fail(c)
	case ModelImage:
		if c.Edit != nil {
			return edit(c)
		}
		return generate(c.Prompt, c.N, c.Width, c.Height)
	}
	// Every model of the catalog is handled above; the fake's own answer
	// is the safe fallback should one be added without a case.
	return fake.Reply{}
}

// stream answers with text at the demo's pace.
func (g *Gateway) stream(text string) fake.Reply {
	return fake.Reply{Text: text, DeltaRunes: runesPerDelta, Interval: g.pace}
}

// lastUserText is the text of the last user message ("" when there is none).
func lastUserText(req *fake.ChatRequest) string {
	if m := lastUser(req); m != nil {
		return strings.TrimSpace(m.Content.PlainText())
	}
	return ""
}

func lastUser(req *fake.ChatRequest) *fake.Message {
	if req == nil {
		return nil
	}
	for i := len(req.Messages) - 1; i >= 0; i-- {
		if req.Messages[i].Role == "user" {
			return &req.Messages[i]
		}
	}
	return nil
}

// quote shows what the user wrote on one line, shortened, for a reply to
// repeat: line breaks become spaces and at most maxQuote runes are kept.
func quote(s string) string {
	const maxQuote = 120
	s = strings.Join(strings.Fields(s), " ")
	if r := []rune(s); len(r) > maxQuote {
		s = string(r[:maxQuote-1]) + "…"
	}
	return s
}

// echoAnswer repeats the last user message, saying how many images came
// with it.
func echoAnswer(req *fake.ChatRequest) string {
	m := lastUser(req)
	if m == nil {
		return "There is no message of yours to repeat."
	}
	text := strings.TrimSpace(m.Content.PlainText())
	n := len(m.Content.ImageURLs())
	switch {
	case n > 0 && text == "":
		return "You sent " + plural(n, "image", "images") + " and no text."
	case n > 0:
		return text + "\n\n(with " + plural(n, "image", "images") + ")"
	case text == "":
		return "Your message was empty."
	}
	return text
}
