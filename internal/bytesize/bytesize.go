// Package bytesize writes sizes for people, in one unit everywhere: the
// picker, the chips, the transcript, limits in error messages. Decimal
// units, as file managers show them (1 MB = 1,000,000 bytes).
package bytesize

import (
	"fmt"
	"strconv"
	"strings"
)

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

// Pair writes a size and the limit it passed; when the two would read the
// same ("1.0 MB" and "1.0 MB"), both are written in bytes.
func Pair(size, limit int64) (string, string) {
	s, l := Format(size), Format(limit)
	if s == l {
		return Digits(size) + " bytes", Digits(limit) + " bytes"
	}
	return s, l
}

// Digits writes n with a comma between thousands: 13,107.
func Digits(n int64) string {
	if n < 0 {
		return "-" + Digits(-n)
	}
	s := strconv.FormatInt(n, 10)
	var b strings.Builder
	for i, c := range s {
		if i > 0 && (len(s)-i)%3 == 0 {
			b.WriteByte(',')
		}
		b.WriteRune(c)
	}
	return b.String()
}
