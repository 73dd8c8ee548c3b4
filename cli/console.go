package cli

import (
	"context"
	"errors"
	"fmt"
	"io"
	"strings"

	"parley/termsafe"
)

// console is how parley speaks on stderr: one sentence per message, inert
// for the terminal, with every API key this run has seen masked. While the
// chat starts, warnings are kept for its banner instead (on stderr the full
// screen would hide them).
type console struct {
	stderr io.Writer
	getenv func(string) string
	// secrets are the API keys seen: masked in anything printed, redacted
	// in the history.
	secrets    secretSet
	collecting bool     // warn keeps warnings in collected instead of printing them
	collected  []string // warnings kept for the chat's banner
}

// report prints err as one sentence on stderr and returns its exit status.
func (c *console) report(err error) int {
	code := ExitFailure
	var ue *usageError
	switch {
	case errors.As(err, &ue):
		code = ExitUsage
	case errors.Is(err, context.Canceled):
		c.say("interrupted")
		return ExitInterrupted
	}
	c.say(err.Error())
	return code
}

// say prints one message on stderr as "parley: <Sentence.>", made inert
// for the terminal (it may quote a gateway) and with any known key masked.
// names are what the message names (model ids): one that opens it keeps
// its case.
func (c *console) say(msg string, names ...string) {
	fmt.Fprintln(c.stderr, "parley: "+sentence(termsafe.Sanitize(c.mask(msg)), names...))
}

// warn prints a problem that does not stop parley, or keeps it for the
// chat's banner while the chat starts (on stderr it would be hidden by the
// full screen).
func (c *console) warn(msg string) {
	if c.collecting {
		c.collected = append(c.collected, sentence(termsafe.Sanitize(c.mask(msg))))
		return
	}
	// "Warning" is written capitalised: a label before a colon is kept
	// as it is (it may be a path).
	c.say("Warning: " + msg)
}

// mask hides the API keys this run has seen (the environment's and every
// resolved provider key) in text about to be shown. The api package masks
// what reaches it; this also covers text from elsewhere, such as a panic.
// Keys shorter than 8 characters (test setups) are left alone rather than
// blanking ordinary words.
func (c *console) mask(s string) string {
	for _, k := range c.knownSecrets() {
		if len(k) >= 8 {
			s = strings.ReplaceAll(s, k, "[redacted]")
		}
	}
	return s
}
