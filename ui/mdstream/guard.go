package mdstream

import (
	gast "github.com/yuin/goldmark/ast"
	"github.com/yuin/goldmark/renderer"
	"github.com/yuin/goldmark/util"
)

// guardedRenderer is glamour's node renderer with every node function
// wrapped by a guard check, so that a render can be stopped between nodes.
// glamour writes its whole output at the end of the document, so this is
// the only place a long render can be interrupted.
type guardedRenderer struct {
	inner renderer.NodeRenderer
	g     *guard
}

func (gr guardedRenderer) RegisterFuncs(reg renderer.NodeRendererFuncRegisterer) {
	gr.inner.RegisterFuncs(guardedRegisterer{reg: reg, g: gr.g})
}

type guardedRegisterer struct {
	reg renderer.NodeRendererFuncRegisterer
	g   *guard
}

func (gr guardedRegisterer) Register(k gast.NodeKind, f renderer.NodeRendererFunc) {
	g := gr.g
	gr.reg.Register(k, func(w util.BufWriter, src []byte, n gast.Node, entering bool) (gast.WalkStatus, error) {
		if err := g.check(); err != nil {
			return gast.WalkStop, err
		}
		return f(w, src, n, entering)
	})
}
