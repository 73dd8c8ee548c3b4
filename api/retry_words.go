package api

import "strings"

// withoutRetryTime drops the sentences of a gateway's message that say
// when to try again ("Retry after 1 second.", "Please try again in 6ms."),
// for an error that names the moment itself: the gateway's relative time
// was true when it answered, parley's "try again after 04:05:37" is the
// same moment read off the clock, and two times read as a contradiction.
// What else the gateway said stays word for word.
func withoutRetryTime(msg string) string {
	var kept []string
	for rest := msg; rest != ""; {
		end := sentenceEnd(rest)
		s := rest[:end]
		rest = rest[end:]
		if !saysWhenToRetry(s) {
			kept = append(kept, strings.TrimSpace(s))
		}
	}
	return strings.Join(kept, " ")
}

// sentenceEnd returns the length of the first sentence of s: up to and
// including a '.', '!' or '?' followed by a space or the end.
func sentenceEnd(s string) int {
	for i := 0; i < len(s); i++ {
		if (s[i] == '.' || s[i] == '!' || s[i] == '?') && (i+1 == len(s) || s[i+1] == ' ') {
			return i + 1
		}
	}
	return len(s)
}

// saysWhenToRetry reports a sentence that only tells when to try again.
func saysWhenToRetry(s string) bool {
	s = strings.ToLower(strings.TrimSpace(s))
	s = strings.TrimPrefix(s, "please ")
	return strings.HasPrefix(s, "retry after ") || strings.HasPrefix(s, "retry in ") ||
		strings.HasPrefix(s, "try again in ") || strings.HasPrefix(s, "try again after ") ||
		strings.HasPrefix(s, "try again later")
}
