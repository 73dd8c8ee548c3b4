//go:build !unix

package termprobe

import "os"

// CellSize is a cell's size in pixels where the system says it; this
// system does not (sixel pictures then take the default cell size).
func CellSize(*os.File) (w, h int, ok bool) { return 0, 0, false }
