package ui

import (
	"strings"

	"parley/chat"
	"parley/termsafe"
)

// replyImageNotes says which images a reply brought were not kept, and
// why, in one notice ("" when there is nothing to say).
func replyImageNotes(end chat.Ended) string {
	if end.Reply == nil || len(end.Reply.Images.Notes) == 0 {
		return ""
	}
	return termsafe.Sanitize(strings.Join(end.Reply.Images.Notes, "; "))
}
