package api

import (
	"bytes"
	"encoding/json"
)

// chunkDecoder decodes stream chunks: the common shape without
// reflection (chunkFast), anything else with encoding/json; both give the
// same ChatChunk.
type chunkDecoder struct {
	chunk ChatChunk
	fast  chunkFast
}

// wireChunk is a chunk plus the fields that mark an error event: OpenAI's
// and OpenRouter's "error", vLLM's {"object":"error","message":...}.
type wireChunk struct {
	ChatChunk
	Error json.RawMessage `json:"error"`
}

// decode parses one chunk. isErr reports an error event, whose details
// parseErrorBody reads from the same data. The returned chunk is reused by
// the next call.
func (d *chunkDecoder) decode(data []byte) (chunk *ChatChunk, isErr bool, err error) {
	if c, ok := d.fast.decode(data); ok {
		d.chunk = c
		return &d.chunk, false, nil
	}
	var w wireChunk
	if err := json.Unmarshal(data, &w); err != nil {
		return nil, false, err
	}
	if e := bytes.TrimSpace(w.Error); (len(e) > 0 && string(e) != "null") || w.Object == "error" {
		return nil, true, nil
	}
	d.chunk = w.ChatChunk
	return &d.chunk, false, nil
}
