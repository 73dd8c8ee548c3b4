package config

import (
	"strconv"
	"strings"
)

// The TOML library reports positions for syntax errors only, and for keys
// of repeated [[tables]] it keeps just the last occurrence. positions is a
// light scan of the source that records where every key and table header
// is, under paths such as "models[1].max_n", so semantic errors and unknown
// keys can name their exact line. It understands what config files contain
// (headers, dotted and quoted keys, strings of all four kinds, arrays that
// span lines, comments); a key it cannot place falls back to its parent.

type pos struct{ line, col int }

type positions map[string]pos

// at returns the position of path, else of its nearest ancestor.
func (p positions) at(path string) pos {
	for path != "" {
		if q, ok := p[path]; ok {
			return q
		}
		i := strings.LastIndexAny(path, ".[")
		if i < 0 {
			break
		}
		path = path[:i]
	}
	return pos{}
}

func indexPositions(src string) positions {
	ps := positions{}
	counts := map[string]int{} // array-of-tables path -> entries so far
	current := ""              // path of the table being filled
	// resolve turns key parts into a path, adding the index of the latest
	// entry to every part that is an array of tables.
	resolve := func(base string, parts []string) string {
		p := base
		for _, k := range parts {
			if p != "" {
				p += "."
			}
			p += k
			if n := counts[p]; n > 0 {
				p += "[" + strconv.Itoa(n-1) + "]"
			}
		}
		return p
	}
	var s scanState
	for i, line := range strings.Split(src, "\n") {
		lineNo := i + 1
		rest := strings.TrimRight(line, "\r")
		if s.multi != "" || s.depth > 0 {
			s.scanValue(rest) // continuation of a string or array: no keys here
			continue
		}
		trimmed := strings.TrimLeft(rest, " \t")
		col := len(rest) - len(trimmed) + 1
		switch {
		case trimmed == "" || trimmed[0] == '#':
			continue
		case strings.HasPrefix(trimmed, "[["):
			parts, _ := parseKey(trimmed[2:])
			if len(parts) == 0 {
				continue
			}
			arr := resolve("", parts[:len(parts)-1])
			if arr != "" {
				arr += "."
			}
			arr += parts[len(parts)-1]
			counts[arr]++
			current = arr + "[" + strconv.Itoa(counts[arr]-1) + "]"
			ps[current] = pos{lineNo, col}
		case trimmed[0] == '[':
			parts, _ := parseKey(trimmed[1:])
			if len(parts) == 0 {
				continue
			}
			current = resolve("", parts)
			if _, seen := ps[current]; !seen {
				ps[current] = pos{lineNo, col}
			}
		default:
			parts, after := parseKey(trimmed)
			if len(parts) == 0 || !strings.HasPrefix(strings.TrimLeft(after, " \t"), "=") {
				continue
			}
			key := resolve(current, parts)
			if _, seen := ps[key]; !seen {
				ps[key] = pos{lineNo, col}
			}
			v := strings.TrimLeft(after, " \t")
			s.scanValue(v[1:])
		}
	}
	return ps
}

// parseKey reads a dotted key (bare, "basic" or 'literal' parts) from the
// start of s and returns the parts and what follows.
func parseKey(s string) ([]string, string) {
	var parts []string
	for {
		s = strings.TrimLeft(s, " \t")
		if s == "" {
			return parts, s
		}
		switch s[0] {
		case '"', '\'':
			q := s[0]
			var b strings.Builder
			i := 1
			for ; i < len(s) && s[i] != q; i++ {
				if q == '"' && s[i] == '\\' && i+1 < len(s) {
					i++
				}
				b.WriteByte(s[i])
			}
			if i >= len(s) {
				return nil, ""
			}
			parts = append(parts, b.String())
			s = s[i+1:]
		default:
			i := 0
			for i < len(s) && isBareKeyChar(s[i]) {
				i++
			}
			if i == 0 {
				return parts, s
			}
			parts = append(parts, s[:i])
			s = s[i:]
		}
		t := strings.TrimLeft(s, " \t")
		if !strings.HasPrefix(t, ".") {
			return parts, s
		}
		s = t[1:]
	}
}

func isBareKeyChar(c byte) bool {
	return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '_' || c == '-'
}

// scanState follows strings and brackets across lines.
type scanState struct {
	multi string // `"""` or `'''` while inside a multi-line string
	depth int    // open [ and { of a value
}

func (s *scanState) scanValue(v string) {
	for i := 0; i < len(v); i++ {
		if s.multi != "" {
			j := strings.Index(v[i:], s.multi)
			if j < 0 {
				return
			}
			i += j + len(s.multi) - 1
			s.multi = ""
			continue
		}
		switch c := v[i]; c {
		case '#':
			return
		case '[', '{':
			s.depth++
		case ']', '}':
			if s.depth > 0 {
				s.depth--
			}
		case '"', '\'':
			delim := strings.Repeat(string(c), 3)
			if strings.HasPrefix(v[i:], delim) {
				s.multi = delim
				i += 2
				continue
			}
			for i++; i < len(v) && v[i] != c; i++ {
				if c == '"' && v[i] == '\\' {
					i++
				}
			}
		}
	}
}
