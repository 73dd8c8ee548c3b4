// Package styles is chroma's registry of colour styles, the embedded XML
// ones read at the first lookup (parley's copy; see PATCHED.md).
package styles

import (
	"embed"
	"io/fs"
	"sort"
	"sync"

	"github.com/alecthomas/chroma/v2"
)

//go:embed *.xml
var embedded embed.FS

// Registry of Styles.
//
// parley: it holds the styles given to Register; the embedded styles are
// read the first time Get is asked for a style not registered, or Names is
// called, not while the program starts, and kept apart (builtin), so that
// reading them never writes this map. Register, Get and Names may be called
// from several goroutines at once (mu).
var Registry = map[string]*chroma.Style{}

var (
	mu          sync.RWMutex
	builtin     map[string]*chroma.Style
	builtinOnce sync.Once
)

// swapoff is the one embedded style read while the program starts, since
// Fallback is read directly.
var swapoff = mustParse("swapoff.xml")

// Fallback style. Reassign to change the default fallback style.
var Fallback = swapoff

func mustParse(name string) *chroma.Style {
	r, err := embedded.Open(name)
	if err != nil {
		panic(err)
	}
	defer r.Close()
	style, err := chroma.NewXMLStyle(r)
	if err != nil {
		panic(err)
	}
	return style
}

// embeddedStyles reads the embedded styles the first time.
func embeddedStyles() map[string]*chroma.Style {
	builtinOnce.Do(func() {
		files, err := fs.ReadDir(embedded, ".")
		if err != nil {
			panic(err)
		}
		builtin = map[string]*chroma.Style{}
		for _, file := range files {
			if file.IsDir() {
				continue
			}
			style := swapoff
			if file.Name() != "swapoff.xml" {
				style = mustParse(file.Name())
			}
			builtin[style.Name] = style
		}
	})
	return builtin
}

// Register a chroma.Style.
func Register(style *chroma.Style) *chroma.Style {
	mu.Lock()
	defer mu.Unlock()
	Registry[style.Name] = style
	return style
}

// Names of all available styles.
func Names() []string {
	out := []string{}
	for name := range embeddedStyles() {
		out = append(out, name)
	}
	mu.RLock()
	for name := range Registry {
		if _, ok := builtin[name]; !ok {
			out = append(out, name)
		}
	}
	mu.RUnlock()
	sort.Strings(out)
	return out
}

// Get named style, or Fallback.
func Get(name string) *chroma.Style {
	mu.RLock()
	style, ok := Registry[name]
	mu.RUnlock()
	if ok {
		return style
	}
	if style, ok := embeddedStyles()[name]; ok {
		return style
	}
	return Fallback
}
