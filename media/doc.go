// Package media handles image bytes for parley: it names a file's format
// from its content, reads dimensions from headers, decodes under a budget
// of decoded bytes shared by the images decoded at once (and refuses JPEGs
// of too many scans), stops a decode when its context ends, applies EXIF
// orientation, scales with a Catmull-Rom filter, re-encodes, and saves
// generated images without ever replacing a file. It imports nothing else
// of parley's, so the gateway client and the terminal previews can both
// build on it.
package media
