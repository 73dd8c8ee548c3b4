package slash

import "strings"

// locateWord finds the word being completed: the last word when the text
// ends inside it, else a new word at the end. rest is the text after the
// name, starting at byte offset off of the input.
func (l *List[E]) locateWord(off int, rest string) {
	ws := splitWords(rest)
	target := word{start: len(rest), end: len(rest)}
	before := ws
	if n := len(ws); n > 0 && ws[n-1].end == len(rest) {
		target, before = ws[n-1], ws[:n-1]
	}
	c := l.reg.cmds[l.cmd]
	a := Arg{Line: strings.TrimSpace(rest), Word: target.text}
	l.valuePre, l.flagNames = "", false
	// Count the positional words before the target, skipping options and
	// their values.
	for k := 0; k < len(before); k++ {
		w := before[k].text
		if len(c.Flags) > 0 && strings.HasPrefix(w, "--") && w != "--" {
			if f, ok := c.flag(strings.ToLower(strings.TrimPrefix(w, "--"))); ok && f.Value != "" {
				if k == len(before)-1 {
					a.Flag = f.Name // the target is this option's value
				}
				k++
			}
			continue
		}
		a.Index++
	}
	if len(c.Flags) > 0 && a.Flag == "" && strings.HasPrefix(target.text, "-") {
		if name, value, eq := strings.Cut(target.text[min(2, len(target.text)):], "="); eq && strings.HasPrefix(target.text, "--") {
			a.Flag, a.Word = strings.ToLower(name), value
			l.valuePre = target.text[:len(target.text)-len(value)]
		} else {
			l.flagNames = true
		}
	}
	if a.Flag != "" {
		a.Index = 0
	}
	l.arg = a
	l.wordStart = off + target.start
}

// flagCandidates offers the options whose name starts with what was typed
// after the dashes.
func flagCandidates(flags []Flag, typed string) []Completion {
	p := strings.ToLower(strings.TrimLeft(typed, "-"))
	var out []Completion
	for _, f := range flags {
		if strings.HasPrefix(f.Name, p) {
			d := f.Usage
			if f.Value != "" {
				d = strings.TrimSpace(f.Value + "  " + f.Usage)
			}
			out = append(out, Completion{Value: "--" + f.Name, Detail: d})
		}
	}
	return out
}
