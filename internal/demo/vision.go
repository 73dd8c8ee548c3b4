package demo

import (
	"encoding/base64"
	"fmt"
	"image"
	"io"
	"strings"

	// Decoders for image.DecodeConfig: the formats a chat may carry.
	_ "image/gif"
	_ "image/jpeg"
	_ "image/png"

	_ "golang.org/x/image/webp"

	"parley/api/fake"
	"parley/internal/bytesize"
)

// maxHeaderBytes bounds what is decoded of an image to read its format and
// size: the header of any PNG, GIF or WEBP, and of a JPEG whose metadata
// before the frame header is not huge.
const maxHeaderBytes = 1 << 20

// maxShownURL bounds how much of an image URL a reply repeats.
const maxShownURL = 100

// describeImages is demo-vision's reply: for each image of the last user
// message, its real format and pixel size read from the data URI's bytes,
// or that it was given as a URL.
func describeImages(req *fake.ChatRequest) string {
	m := lastUser(req)
	var urls []string
	if m != nil {
		urls = m.Content.ImageURLs()
	}
	var b strings.Builder
	b.WriteString("## What I see\n\n")
	if q := quote(lastUserText(req)); q != "" {
		fmt.Fprintf(&b, "You asked: *%s*\n\n", q)
	}
	if len(urls) == 0 {
		b.WriteString("Your last message has no image. Attach one (paste the path of an image file into the composer) and ask again: " +
			"I will tell you its format and size.\n")
		return b.String()
	}
	fmt.Fprintf(&b, "Your message carries %s:\n\n", plural(len(urls), "image", "images"))
	for i, u := range urls {
		fmt.Fprintf(&b, "%d. %s\n", i+1, describeImage(u))
	}
	b.WriteString("\nI am the demo's vision model: I read each image's header, not what it shows.\n")
	return b.String()
}

// describeImage says what one image_url holds.
func describeImage(u string) string {
	rest, isData := strings.CutPrefix(u, "data:")
	if !isData {
		shown := u
		if r := []rune(shown); len(r) > maxShownURL {
			shown = string(r[:maxShownURL-1]) + "…"
		}
		return fmt.Sprintf("an image given by its URL (%s); the demo gateway does not download images, so it cannot say more", shown)
	}
	meta, data, _ := strings.Cut(rest, ",")
	declared := strings.TrimSuffix(meta, ";base64")
	cfg, format, err := image.DecodeConfig(io.LimitReader(base64.NewDecoder(base64.StdEncoding, strings.NewReader(data)), maxHeaderBytes))
	if err != nil {
		return fmt.Sprintf("an image sent as %s whose header I could not read (%v)", declared, err)
	}
	return fmt.Sprintf("a **%s** image of **%d×%d** pixels (%s)", strings.ToUpper(format), cfg.Width, cfg.Height, bytesize.Format(int64(decodedLen(data))))
}

// decodedLen is the number of bytes standard base64 text decodes to.
func decodedLen(b64 string) int {
	n := len(b64) / 4 * 3
	return n - (len(b64) - len(strings.TrimRight(b64, "=")))
}
