package mcp

import (
	"encoding/json"
	"fmt"
	"strings"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"parley/internal/bytesize"
)

// maxImagesPerResult and maxImageBytes bound the pictures one result may
// carry to the screen.
const (
	maxImagesPerResult = 8
	maxImageBytes      = 8 << 20
)

// Result is what one call gave: its text for the model and the screen,
// and the pictures it returned.
type Result struct {
	Text    string
	Images  []Image
	IsError bool // the server says the call failed; Text says why
}

// Image is one picture of a result, as the server sent it (its type is
// checked by whoever shows it).
type Image struct {
	MIME string
	Data []byte
}

// convert turns a CallToolResult into a Result, each kind of content into
// text the model can read.
func convert(r *sdk.CallToolResult) Result {
	var out Result
	out.IsError = r.IsError
	var b strings.Builder
	add := func(s string) {
		if b.Len() > 0 {
			b.WriteString("\n")
		}
		b.WriteString(s)
	}
	for _, c := range r.Content {
		switch c := c.(type) {
		case *sdk.TextContent:
			add(c.Text)
		case *sdk.ImageContent:
			switch {
			case len(out.Images) >= maxImagesPerResult:
				add(fmt.Sprintf("[an image was left out: a result shows at most %d]", maxImagesPerResult))
			case len(c.Data) > maxImageBytes:
				add(fmt.Sprintf("[an image of %s was left out: larger than %s]", bytesize.Format(int64(len(c.Data))), bytesize.Format(maxImageBytes)))
			default:
				out.Images = append(out.Images, Image{MIME: c.MIMEType, Data: c.Data})
				add(fmt.Sprintf("[image %d: %s, %s]", len(out.Images), c.MIMEType, bytesize.Format(int64(len(c.Data)))))
			}
		case *sdk.AudioContent:
			add(fmt.Sprintf("[audio (%s, %s) left out]", c.MIMEType, bytesize.Format(int64(len(c.Data)))))
		case *sdk.ResourceLink:
			add(fmt.Sprintf("[resource %s: %s]", c.Name, c.URI))
		case *sdk.EmbeddedResource:
			switch res := c.Resource; {
			case res == nil:
			case res.Text != "":
				add(res.Text)
			default:
				add(fmt.Sprintf("[resource %s (%s, %s) left out]", res.URI, res.MIMEType, bytesize.Format(int64(len(res.Blob)))))
			}
		}
	}
	if b.Len() == 0 && r.StructuredContent != nil {
		if j, err := json.Marshal(r.StructuredContent); err == nil {
			b.Write(j)
		}
	}
	out.Text = b.String()
	return out
}
