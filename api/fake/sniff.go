package fake

import (
	"bytes"
	"image"
	"image/gif"

	// Decoders for image.DecodeConfig.
	_ "image/jpeg"
	_ "image/png"

	_ "golang.org/x/image/webp"
)

// Media types the fake recognises from magic bytes.
const (
	mimePNG  = "image/png"
	mimeJPEG = "image/jpeg"
	mimeGIF  = "image/gif"
	mimeWEBP = "image/webp"
)

// sniffImage names the image format of data from its magic bytes ("" when
// it is none of PNG, JPEG, GIF, WEBP).
func sniffImage(data []byte) string {
	switch {
	case bytes.HasPrefix(data, []byte("\x89PNG\r\n\x1a\n")):
		return mimePNG
	case bytes.HasPrefix(data, []byte("\xff\xd8\xff")):
		return mimeJPEG
	case bytes.HasPrefix(data, []byte("GIF87a")), bytes.HasPrefix(data, []byte("GIF89a")):
		return mimeGIF
	case len(data) >= 12 && string(data[:4]) == "RIFF" && string(data[8:12]) == "WEBP":
		return mimeWEBP
	default:
		return ""
	}
}

// imageInfo checks that data starts like a decodable image (its header
// parses) and returns its format and dimensions.
func imageInfo(data []byte) (mime string, cfg image.Config, err error) {
	cfg, _, err = image.DecodeConfig(bytes.NewReader(data))
	if err != nil {
		return "", cfg, err
	}
	return sniffImage(data), cfg, nil
}

// gifFrames counts the frames of a GIF (animated GIFs are refused as input).
func gifFrames(data []byte) (int, error) {
	g, err := gif.DecodeAll(bytes.NewReader(data))
	if err != nil {
		return 0, err
	}
	return len(g.Image), nil
}
