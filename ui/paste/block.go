package paste

import (
	"fmt"
	"strings"
	"unicode"

	"parley/api"
)

// Block makes text too long for the composer into a text attachment
// named prefix-N.txt ("pasted-1.txt"), N the first number no attachment
// of the message has yet, so several blocks stay apart in the chips and
// for the model. Its text is BlockText's.
func Block(text, prefix string, have []api.Attachment) api.Attachment {
	return api.TextAttachment(blockName(prefix, have), []byte(BlockText(text)))
}

// blockName is prefix-N.txt with the first N not taken.
func blockName(prefix string, have []api.Attachment) string {
	taken := make(map[string]bool, len(have))
	for _, a := range have {
		taken[a.Name] = true
	}
	for n := 1; ; n++ {
		if name := fmt.Sprintf("%s-%d.txt", prefix, n); !taken[name] {
			return name
		}
	}
}

// BlockText is pasted text as it is sent: line breaks as LF (terminals
// paste CR, Windows clipboards CRLF), no bytes that are not UTF-8 and no
// control characters but tab and newline: what the composer would have
// held, so a paste says the same whichever way it goes, except that tabs
// stay tabs (the composer turns them into spaces; pasted code keeps its
// indentation).
func BlockText(s string) string {
	s = strings.ReplaceAll(s, "\r\n", "\n")
	s = strings.ToValidUTF8(s, "")
	return strings.Map(func(r rune) rune {
		switch {
		case r == '\r':
			return '\n'
		case r == '\t' || r == '\n':
			return r
		case unicode.IsControl(r):
			return -1
		}
		return r
	}, s)
}
