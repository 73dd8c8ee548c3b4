package config

import "fmt"

// ParseError is a problem with the config file: malformed TOML, a value of
// the wrong type, or a setting that makes no sense. Line and Col are 1-based
// and 0 when unknown.
type ParseError struct {
	Path      string
	Line, Col int
	Msg       string // what is wrong and what to do
}

// Error reads "<file>:<line>:<col>: <what is wrong>", the form editors jump to.
func (e *ParseError) Error() string {
	switch {
	case e.Line > 0 && e.Col > 0:
		return fmt.Sprintf("%s:%d:%d: %s", e.Path, e.Line, e.Col, e.Msg)
	case e.Line > 0:
		return fmt.Sprintf("%s:%d: %s", e.Path, e.Line, e.Msg)
	}
	return fmt.Sprintf("%s: %s", e.Path, e.Msg)
}
