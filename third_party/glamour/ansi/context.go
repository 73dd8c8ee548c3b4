package ansi

import (
	"strings"
)

// RenderContext holds the current rendering options and state.
type RenderContext struct {
	options Options

	blockStack *BlockStack
	table      *TableElement
}

// NewRenderContext returns a new RenderContext.
func NewRenderContext(options Options) RenderContext {
	return RenderContext{
		options:    options,
		blockStack: &BlockStack{},
		table:      &TableElement{},
	}
}

// SanitizeHTML returns HTML content as it is written, its spaces trimmed
// when trimSpaces is set.
//
// parley's patch: upstream stripped every tag with bluemonday's strict
// policy and decoded the entities left. bluemonday and the CSS packages
// under it compile over a hundred regular expressions while every program
// that links glamour starts, and parley never wants HTML interpreted: its
// Markdown renderer turns HTML nodes into text before glamour sees them,
// and shows them as written.
func (ctx RenderContext) SanitizeHTML(s string, trimSpaces bool) string {
	if trimSpaces {
		s = strings.TrimSpace(s)
	}
	return s
}
