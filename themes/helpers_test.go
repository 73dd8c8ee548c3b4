package themes

import (
	"fmt"
	"strconv"
	"strings"
)

// sgrParams returns the parameter lists of all SGR sequences in s.
func sgrParams(s string) [][]string {
	var out [][]string
	for {
		i := strings.Index(s, "\x1b[")
		if i < 0 {
			return out
		}
		s = s[i+2:]
		j := strings.IndexFunc(s, func(r rune) bool { return r >= 0x40 && r <= 0x7e })
		if j < 0 {
			return out
		}
		if s[j] == 'm' {
			out = append(out, strings.Split(s[:j], ";"))
		}
		s = s[j+1:]
	}
}

// colourSGR returns the first SGR that sets a foreground, background or
// underline colour, or "".
func colourSGR(s string) string {
	for _, ps := range sgrParams(s) {
		for _, p := range ps {
			head, _, _ := strings.Cut(p, ":")
			n, err := strconv.Atoi(head)
			if err != nil {
				continue
			}
			if (n >= 30 && n <= 38) || (n >= 40 && n <= 48) || n == 58 || (n >= 90 && n <= 97) || (n >= 100 && n <= 107) {
				return strings.Join(ps, ";")
			}
		}
	}
	return ""
}

// hasBackground reports whether s contains an SGR that sets a background.
// The red, green and blue of an extended colour (38;2;107;…) are values,
// not parameters of their own.
func hasBackground(s string) bool {
	for _, ps := range sgrParams(s) {
		for i := 0; i < len(ps); i++ {
			head, _, _ := strings.Cut(ps[i], ":")
			n, err := strconv.Atoi(head)
			if err != nil {
				continue
			}
			if (n >= 40 && n <= 48) || (n >= 100 && n <= 107) {
				return true
			}
			if (n == 38 || n == 58) && head == ps[i] && i+1 < len(ps) {
				switch ps[i+1] {
				case "5":
					i += 2
				case "2":
					i += 4
				}
			}
		}
	}
	return false
}

// hasAttr reports whether some SGR in s sets attribute n (1 bold, 7 reverse…)
// as a parameter of its own (not as part of a colour).
func hasAttr(s string, n string) bool {
	for _, ps := range sgrParams(s) {
		for i := 0; i < len(ps); i++ {
			switch ps[i] {
			case "38", "48", "58":
				if i+1 < len(ps) && ps[i+1] == "5" {
					i += 2
				} else if i+1 < len(ps) && ps[i+1] == "2" {
					i += 4
				}
				continue
			case n:
				return true
			}
		}
	}
	return false
}

// fgCode is the truecolor foreground SGR fragment for a "#rrggbb" colour.
func fgCode(c Color) string {
	var r, g, b int
	fmt.Sscanf(string(c), "#%02x%02x%02x", &r, &g, &b)
	return fmt.Sprintf("38;2;%d;%d;%d", r, g, b)
}

func bgCode(c Color) string {
	return "4" + fgCode(c)[1:]
}
