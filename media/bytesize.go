package media

import "fmt"

// FormatBytes writes a byte count the way people read file sizes (decimal
// units: 1 MB = 1,000,000 bytes).
func FormatBytes(n int64) string {
	switch {
	case n < 1000:
		return fmt.Sprintf("%d B", n)
	case n < 10_000:
		return fmt.Sprintf("%.1f KB", float64(n)/1e3)
	case n < 1_000_000:
		return fmt.Sprintf("%.0f KB", float64(n)/1e3)
	case n < 1_000_000_000:
		return fmt.Sprintf("%.1f MB", float64(n)/1e6)
	}
	return fmt.Sprintf("%.1f GB", float64(n)/1e9)
}
