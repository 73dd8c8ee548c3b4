package media

import "fmt"

// GIFFrames counts the image descriptors of a GIF by walking its block
// structure, without decoding any pixels; it stops counting at limit. A
// malformed stream returns the frames seen so far and an error.
func GIFFrames(data []byte, limit int) (int, error) {
	const header = 13 // signature, version, logical screen descriptor
	if len(data) < header {
		return 0, fmt.Errorf("GIF header is cut short")
	}
	i := header
	if flags := data[10]; flags&0x80 != 0 {
		i += 3 << ((flags & 7) + 1)
	}
	// skipSubBlocks moves i past a chain of length-prefixed sub-blocks.
	skipSubBlocks := func() error {
		for {
			if i >= len(data) {
				return fmt.Errorf("GIF data is cut short")
			}
			n := int(data[i])
			i++
			if n == 0 {
				return nil
			}
			i += n
		}
	}
	frames := 0
	for i < len(data) {
		switch data[i] {
		case 0x21: // extension: label, then sub-blocks
			i += 2
			if err := skipSubBlocks(); err != nil {
				return frames, err
			}
		case 0x2C: // image descriptor
			frames++
			if frames >= limit {
				return frames, nil
			}
			if i+10 > len(data) {
				return frames, fmt.Errorf("GIF image descriptor is cut short")
			}
			flags := data[i+9]
			i += 10
			if flags&0x80 != 0 {
				i += 3 << ((flags & 7) + 1)
			}
			i++ // LZW minimum code size
			if err := skipSubBlocks(); err != nil {
				return frames, err
			}
		case 0x3B: // trailer
			return frames, nil
		default:
			return frames, fmt.Errorf("unexpected GIF block 0x%02x", data[i])
		}
	}
	return frames, nil
}
