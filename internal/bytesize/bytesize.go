// Package bytesize writes sizes for people, in one unit everywhere: the
// picker, the chips, the transcript, limits in error messages. Decimal
// units, as file managers show them (1 MB = 1,000,000 bytes).
package bytesize

import "fmt"

// Format writes a byte count: "999 B", "1.5 KB", "245 KB", "18.4 MB",
// "3.0 GB".
func Format(n int64) string {
	switch {
	case n < 1000:
		return fmt.Sprintf("%d B", n)
	case n < 10_000:
		return fmt.Sprintf("%.1f KB", float64(n)/1e3)
	case n < 999_500:
		return fmt.Sprintf("%.0f KB", float64(n)/1e3)
	case n < 999_950_000:
		return fmt.Sprintf("%.1f MB", float64(n)/1e6)
	}
	return fmt.Sprintf("%.1f GB", float64(n)/1e9)
}
