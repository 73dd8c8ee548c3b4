package session

import (
	"bytes"

	"parley/api"
)

// redactParts returns atts as they are stored: a text attachment (a file
// or a pasted block) that holds a configured API key gets a copy of its
// bytes with every key replaced, so the key reaches neither the blobs
// folder nor an export; its size, line count and hash follow the new
// bytes. Images and links are unchanged, and atts itself is never
// modified: the request carries what the user sent.
func (k redactor) redactParts(atts []api.Attachment) []api.Attachment {
	if k.secrets == nil || len(atts) == 0 {
		return atts
	}
	var keys [][]byte
	for _, k := range k.secrets() {
		if len(k) >= minSecret {
			keys = append(keys, []byte(k))
		}
	}
	if len(keys) == 0 {
		return atts
	}
	out := atts
	copied := false
	for i, a := range atts {
		if !a.IsText() || a.Data == nil {
			continue
		}
		data, changed := a.Data, false
		for _, k := range keys {
			if bytes.Contains(data, k) {
				data, changed = bytes.ReplaceAll(data, k, []byte(redactedKey)), true
			}
		}
		if !changed {
			continue
		}
		if !copied {
			out, copied = append([]api.Attachment(nil), atts...), true
		}
		a.Data, a.Bytes, a.OrigBytes = data, len(data), len(data)
		a.Lines, a.SHA256 = api.CountLines(data), api.HashBytes(data)
		out[i] = a
	}
	return out
}
