package preview

// rgb is an opaque colour, 8 bits a channel.
type rgb struct{ r, g, b uint8 }

// cubeLevels are the six channel values of xterm's 6×6×6 colour cube
// (indexes 16–231); indexes 232–255 are greys 8, 18, …, 238.
var cubeLevels = [6]int{0x00, 0x5f, 0x87, 0xaf, 0xd7, 0xff}

// index256 is the xterm-256 palette entry nearest to c: the nearest cube
// colour or the nearest grey, whichever is closer (squared RGB distance),
// the rule tmux uses.
func index256(c rgb) uint8 {
	q := func(v uint8) int {
		switch {
		case v < 48:
			return 0
		case v < 115:
			return 1
		}
		return (int(v) - 35) / 40
	}
	qr, qg, qb := q(c.r), q(c.g), q(c.b)
	cr, cg, cb := cubeLevels[qr], cubeLevels[qg], cubeLevels[qb]
	cube := uint8(16 + 36*qr + 6*qg + qb)
	if cr == int(c.r) && cg == int(c.g) && cb == int(c.b) {
		return cube
	}
	avg := (int(c.r) + int(c.g) + int(c.b)) / 3
	gi := 23
	if avg <= 238 {
		gi = max(avg-3, 0) / 10
	}
	grey := 8 + 10*gi
	if dist(c, grey, grey, grey) < dist(c, cr, cg, cb) {
		return uint8(232 + gi)
	}
	return cube
}

// ansi16 are xterm's default values of the 16 basic colours; terminals
// differ, so a 16-colour picture is only ever approximate.
var ansi16 = [16]rgb{
	{0x00, 0x00, 0x00}, {0xcd, 0x00, 0x00}, {0x00, 0xcd, 0x00}, {0xcd, 0xcd, 0x00},
	{0x00, 0x00, 0xee}, {0xcd, 0x00, 0xcd}, {0x00, 0xcd, 0xcd}, {0xe5, 0xe5, 0xe5},
	{0x7f, 0x7f, 0x7f}, {0xff, 0x00, 0x00}, {0x00, 0xff, 0x00}, {0xff, 0xff, 0x00},
	{0x5c, 0x5c, 0xff}, {0xff, 0x00, 0xff}, {0x00, 0xff, 0xff}, {0xff, 0xff, 0xff},
}

// index16 is the basic colour nearest to c.
func index16(c rgb) uint8 {
	best, bestD := 0, -1
	for i, p := range ansi16 {
		if d := dist(c, int(p.r), int(p.g), int(p.b)); bestD < 0 || d < bestD {
			best, bestD = i, d
		}
	}
	return uint8(best)
}

func dist(c rgb, r, g, b int) int {
	dr, dg, db := int(c.r)-r, int(c.g)-g, int(c.b)-b
	return dr*dr + dg*dg + db*db
}

// luma is the brightness of c, 0–255 (Rec. 709 weights on the sRGB values).
func luma(c rgb) int {
	return (54*int(c.r) + 183*int(c.g) + 19*int(c.b) + 128) >> 8
}
