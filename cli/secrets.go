package cli

import (
	"slices"
	"strings"
	"sync"
)

// secretSet is the API keys this run has seen: masked in anything printed
// and redacted in anything stored. Clients are built off the chat's Update
// goroutine while the store writes on its own, hence the lock.
type secretSet struct {
	mu   sync.Mutex
	keys []string
}

func (s *secretSet) add(keys ...string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	for _, k := range keys {
		if k = strings.TrimSpace(k); k != "" && !slices.Contains(s.keys, k) {
			s.keys = append(s.keys, k)
		}
	}
}

func (s *secretSet) list() []string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return slices.Clone(s.keys)
}

// knownSecrets is every key known so far: the environment's, the config's
// and every resolved provider key.
func (c *console) knownSecrets() []string {
	return append([]string{strings.TrimSpace(c.getenv("OPENAI_API_KEY"))}, c.secrets.list()...)
}
