package session

import "strings"

// redactedKey replaces an API key in stored text, as everywhere else parley
// masks one.
const redactedKey = "[redacted]"

// minSecret is the shortest secret redacted: shorter "keys" (a local
// gateway's "ollama") are ordinary words.
const minSecret = 8

// redact replaces every configured API key in text about to be stored
// (Options.Secrets): a key typed or pasted into a message, a draft or a
// system prompt never reaches the database or its search index. The
// request to the gateway still carries what the user typed.
func (s *Store) redact(text string) string {
	if s.secrets == nil || text == "" {
		return text
	}
	for _, k := range s.secrets() {
		if len(k) >= minSecret && strings.Contains(text, k) {
			text = strings.ReplaceAll(text, k, redactedKey)
		}
	}
	return text
}
