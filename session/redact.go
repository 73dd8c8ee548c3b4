package session

import "strings"

// redactedKey replaces an API key in stored text, as everywhere else parley
// masks one.
const redactedKey = "[redacted]"

// minSecret is the shortest secret redacted: shorter "keys" (a local
// gateway's "ollama") are ordinary words.
const minSecret = 8

// redactor replaces the API keys known so far (Options.Secrets) in what
// the store is about to write.
type redactor struct {
	secrets func() []string
}

// redact replaces every configured API key in text about to be stored
// (Options.Secrets): a key typed or pasted into a message, a draft or a
// system prompt never reaches the database or its search index. The
// request to the gateway still carries what the user typed.
func (k redactor) redact(text string) string {
	if k.secrets == nil || text == "" {
		return text
	}
	for _, k := range k.secrets() {
		if len(k) >= minSecret && strings.Contains(text, k) {
			text = strings.ReplaceAll(text, k, redactedKey)
		}
	}
	return text
}
