package session

import (
	"context"
	"database/sql"
	"encoding/json"
	"strings"

	"parley/conversation"
)

// toolsJSON is what messages.tools holds of a reply's tool steps: the
// calls with their text masked like a message's, the images of results
// without their bytes (blobs). "" for a reply without tools.
func (s *Store) toolsJSON(steps []conversation.ToolStep) (string, error) {
	if len(steps) == 0 {
		return "", nil
	}
	out := make([]conversation.ToolStep, len(steps))
	for i, st := range steps {
		out[i] = conversation.ToolStep{At: st.At, Calls: make([]conversation.ToolCallMade, len(st.Calls))}
		for j, c := range st.Calls {
			c.Arguments, c.Result = s.keys.redact(c.Arguments), s.keys.redact(c.Result)
			imgs := c.Images
			c.Images = nil
			for _, im := range imgs {
				if im.SHA256 == "" && im.Data != nil {
					im.SHA256 = HashBytes(im.Data)
				}
				im.Data, im.Path = nil, ""
				c.Images = append(c.Images, im)
			}
			out[i].Calls[j] = c
		}
	}
	b, err := json.Marshal(out)
	return string(b), err
}

// toolBlobs are the bytes of the images of tool results.
func toolBlobs(steps []conversation.ToolStep) blobs {
	var b blobs
	for _, st := range steps {
		for _, c := range st.Calls {
			for _, im := range c.Images {
				if im.Data == nil {
					continue
				}
				if b == nil {
					b = blobs{}
				}
				b[HashBytes(im.Data)] = im.Data
			}
		}
	}
	return b
}

// toolsText is what search finds of a reply's calls: each call's server,
// tool, arguments and result.
func toolsText(steps []conversation.ToolStep) string {
	var b strings.Builder
	for _, st := range steps {
		for _, c := range st.Calls {
			for _, s := range []string{c.Server, c.Tool, c.Name, c.Arguments, c.Result} {
				if s != "" {
					b.WriteString(s)
					b.WriteByte('\n')
				}
			}
		}
	}
	return b.String()
}

// indexTools writes the search entry of a reply's calls once it ended
// (a streaming reply's are not searched, as its text is not).
func indexTools(ctx context.Context, tx *sql.Tx, rowID int64, m *conversation.Message) error {
	if len(m.Tools) == 0 || m.State == conversation.StateStreaming {
		return nil
	}
	if _, err := tx.ExecContext(ctx, "DELETE FROM tools_fts WHERE rowid = ?", rowID); err != nil {
		return err
	}
	_, err := tx.ExecContext(ctx, "INSERT INTO tools_fts (rowid, body) VALUES (?, ?)", rowID, capSearchText(toolsText(m.Tools)))
	return err
}

// writeTools saves a streaming reply's calls and results as they come,
// with the text so far, so a crash keeps them.
func (s *Store) writeTools(ctx context.Context, ch conversation.Change, n *numbering) (applied, error) {
	res, err := s.writeProgress(ctx, ch, n)
	if err != nil {
		return res, err
	}
	m := ch.Message
	if err := s.folder.put(toolBlobs(m.Tools)); err != nil {
		return res, classify(s.path, "save a tool's image", err)
	}
	seq, ok := n.seq(m.ID)
	if !ok {
		return res, nil
	}
	tools, err := s.toolsJSON(m.Tools)
	if err != nil {
		return res, err
	}
	return res, s.write(ctx, "save the conversation", func(tx *sql.Tx) error {
		_, err := tx.ExecContext(ctx, "UPDATE messages SET tools = ? WHERE session_id = ? AND seq = ?", tools, ch.ConversationID, seq)
		return err
	})
}

// readTools fills a message's tool steps from messages.tools, the images'
// bytes from their blobs when data is set.
func (d blobFolder) readTools(raw string, m *conversation.Message, data bool) {
	if raw == "" {
		return
	}
	var steps []conversation.ToolStep
	if json.Unmarshal([]byte(raw), &steps) != nil {
		return // a damaged entry: the reply shows without its calls
	}
	if data {
		for i := range steps {
			for j := range steps[i].Calls {
				for k := range steps[i].Calls[j].Images {
					im := &steps[i].Calls[j].Images[k]
					// A missing blob leaves the image without bytes, shown
					// as such, like an attachment's.
					if b, err := d.readBlob(im.SHA256); err == nil {
						im.Data = b
					}
				}
			}
		}
	}
	m.Tools = steps
}
