package media

import "parley/internal/bytesize"

// FormatBytes is bytesize.Format. It stays for the callers in package ui
// that still name it here; new code calls bytesize.Format.
func FormatBytes(n int64) string { return bytesize.Format(n) }
