package api

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"image"
	"image/color"
	"image/jpeg"
	"image/png"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"sync/atomic"
	"testing"

	"parley/internal/bytesize"
	"parley/media"
	"parley/media/mediatest"
)

func TestAttachMediaTypeFromBytes(t *testing.T) {
	dir := t.TempDir()
	small := mediatest.LineArt(64, 48)
	cases := []struct {
		name string
		data []byte
		mime string
	}{
		{"really-a-png.jpg", mediatest.PNG(t, small), "image/png"},
		{"really-a-jpeg.png", mediatest.JPEG(t, small, 80), "image/jpeg"},
		{"really-a-gif.webp", mediatest.GIF(t, 1, 64, 48), "image/gif"},
		{"really-a-webp.png", mediatest.SolidWEBP(64, 48, color.NRGBA{10, 200, 30, 255}), "image/webp"},
		{"no-extension", mediatest.PNG(t, small), "image/png"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			p := writeTestFile(t, dir, c.name, c.data)
			a, err := Attach(p, AttachLimits{})
			if err != nil {
				t.Fatal(err)
			}
			if a.MIME != c.mime {
				t.Errorf("MIME = %q, want %q", a.MIME, c.mime)
			}
			part := a.Part()
			if part.Type != PartImageURL || !strings.HasPrefix(part.ImageURL.URL, "data:"+c.mime+";base64,") {
				t.Errorf("Part() URL starts %.40q, want data:%s;base64,", part.ImageURL.URL, c.mime)
			}
			_, got := decodeTestDataURI(t, part.ImageURL.URL)
			if !bytes.Equal(got, c.data) || !bytes.Equal(a.Data, c.data) {
				t.Errorf("an image within the limits must be sent byte for byte")
			}
			if sum := sha256.Sum256(c.data); a.SHA256 != hex.EncodeToString(sum[:]) {
				t.Errorf("SHA256 = %q, want the hash of the bytes", a.SHA256)
			}
			if a.URL != "" || a.IsRemote() {
				t.Errorf("a local image carries URL %q; its bytes are held once, in Data", a.URL)
			}
			if a.Resized || a.Width != 64 || a.Height != 48 || a.Name != c.name {
				t.Errorf("got %+v", a.Describe())
			}
		})
	}
}

func TestAttachDownscales4000x3000(t *testing.T) {
	src := mediatest.JPEG(t, mediatest.PhotoYCbCr(4000, 3000), 92)
	p := writeTestFile(t, t.TempDir(), "big photo.jpg", src)
	a, err := Attach(p, AttachLimits{})
	if err != nil {
		t.Fatal(err)
	}
	if !a.Resized || a.Width != 2048 || a.Height != 1536 {
		t.Fatalf("got %dx%d resized=%v, want 2048x1536 resized", a.Width, a.Height, a.Resized)
	}
	if a.MIME != "image/jpeg" || a.OrigMIME != "image/jpeg" {
		t.Errorf("MIME %q (orig %q), want a JPEG to stay JPEG", a.MIME, a.OrigMIME)
	}
	if a.OrigWidth != 4000 || a.OrigHeight != 3000 || a.OrigBytes != len(src) {
		t.Errorf("orig = %dx%d %d bytes, want 4000x3000 %d", a.OrigWidth, a.OrigHeight, a.OrigBytes, len(src))
	}
	mime, data := decodeTestDataURI(t, a.Part().ImageURL.URL)
	if mime != "image/jpeg" || media.Sniff(data) != media.JPEG || len(data) != a.Bytes {
		t.Fatalf("data URI claims %s, holds %q, %d bytes (want %d)", mime, media.Sniff(data), len(data), a.Bytes)
	}
	img, err := jpeg.Decode(bytes.NewReader(data))
	if err != nil {
		t.Fatal(err)
	}
	if b := img.Bounds(); b.Dx() != 2048 || b.Dy() != 1536 {
		t.Fatalf("decoded %v", b)
	}
	// The scaled image still shows the gradient: the red channel grows left to right.
	lr, _, _, _ := img.At(100, 768).RGBA()
	rr, _, _, _ := img.At(1948, 768).RGBA()
	if rr <= lr+0x3000 {
		t.Errorf("gradient lost in scaling: red %x at left, %x at right", lr>>8, rr>>8)
	}
	d := a.Describe()
	for _, want := range []string{"big photo.jpg", "4000x3000", "2048x1536", bytesize.Format(int64(len(src))), bytesize.Format(int64(a.Bytes)), "→"} {
		if !strings.Contains(d, want) {
			t.Errorf("Describe() = %q, missing %q", d, want)
		}
	}
}

// The re-encoding rule: a PNG stays PNG unless it is a photo (opaque) and
// JPEG is under half its size.
func TestAttachReencodeFormatRule(t *testing.T) {
	lim := AttachLimits{MaxSide: 300}
	cases := []struct {
		name string
		img  image.Image
		want string
	}{
		{"photo", mediatest.Photo(450, 300), "image/jpeg"},
		{"line art", mediatest.LineArt(450, 300), "image/png"},
		{"transparent photo", func() image.Image {
			img := mediatest.Photo(450, 300)
			for i := 3; i < len(img.Pix); i += 4 * 7 {
				img.Pix[i] = 128
			}
			return toNRGBA(img)
		}(), "image/png"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			a, err := AttachBytesContext(context.Background(), c.name+".png", mediatest.PNG(t, c.img), lim)
			if err != nil {
				t.Fatal(err)
			}
			if a.MIME != c.want || !a.Resized || a.Width != 300 || a.Height != 200 {
				t.Fatalf("got %s %dx%d resized=%v, want %s 300x200", a.MIME, a.Width, a.Height, a.Resized, c.want)
			}
			_, data := decodeTestDataURI(t, a.Part().ImageURL.URL)
			if got := media.Sniff(data).MIME(); got != c.want {
				t.Errorf("bytes are %s, MIME says %s", got, c.want)
			}
			if c.want == "image/png" {
				// Verify the rule's premise: JPEG would not have been much smaller,
				// or the image has transparency.
				scaled, err := png.Decode(bytes.NewReader(data))
				if err != nil {
					t.Fatal(err)
				}
				if media.IsOpaque(scaled) {
					j, _ := media.EncodeJPEG(scaled)
					if len(j)*2 < len(data) {
						t.Errorf("kept PNG (%d bytes) though JPEG is %d bytes", len(data), len(j))
					}
				}
			}
		})
	}
}

func toNRGBA(src *image.RGBA) *image.NRGBA {
	dst := image.NewNRGBA(src.Rect)
	copy(dst.Pix, src.Pix) // values already straight alpha for this test
	return dst
}

// An image within MaxSide but over MaxBytes is shrunk until it fits.
func TestAttachByteLimit(t *testing.T) {
	src := mediatest.PNG(t, mediatest.Photo(400, 300))
	lim := AttachLimits{MaxSide: 4096, MaxBytes: int64(len(src) / 20)}
	a, err := AttachBytesContext(context.Background(), "noisy.png", src, lim)
	if err != nil {
		t.Fatal(err)
	}
	if int64(a.Bytes) > lim.MaxBytes || !a.Resized {
		t.Fatalf("%d bytes (limit %d), resized=%v", a.Bytes, lim.MaxBytes, a.Resized)
	}
	if a.Width*3 != a.Height*4 && (a.Width*3-a.Height*4 > 4 || a.Height*4-a.Width*3 > 4) {
		t.Errorf("aspect ratio lost: %dx%d", a.Width, a.Height)
	}
}

func TestAttachWEBPScaledBecomesPNG(t *testing.T) {
	src := mediatest.SolidWEBP(900, 450, color.NRGBA{200, 30, 30, 255})
	a, err := AttachBytesContext(context.Background(), "wide.webp", src, AttachLimits{MaxSide: 300})
	if err != nil {
		t.Fatal(err)
	}
	if a.MIME != "image/png" || a.OrigMIME != "image/webp" || a.Width != 300 || a.Height != 150 {
		t.Fatalf("got %s (from %s) %dx%d", a.MIME, a.OrigMIME, a.Width, a.Height)
	}
	_, data := decodeTestDataURI(t, a.Part().ImageURL.URL)
	img, err := png.Decode(bytes.NewReader(data))
	if err != nil {
		t.Fatal(err)
	}
	if r, g, _, _ := img.At(150, 75).RGBA(); r>>8 != 200 || g>>8 != 30 {
		t.Errorf("colour changed: %d,%d", r>>8, g>>8)
	}
}

func TestAttachAppliesEXIFOrientationWhenScaling(t *testing.T) {
	// Raw pixels: left half red, right half blue. Orientation 6 means "rotate
	// 90° clockwise to view", which puts red on top.
	raw := image.NewRGBA(image.Rect(0, 0, 400, 200))
	for y := range 200 {
		for x := range 400 {
			c := color.RGBA{220, 0, 0, 255}
			if x >= 200 {
				c = color.RGBA{0, 0, 220, 255}
			}
			raw.SetRGBA(x, y, c)
		}
	}
	src := mediatest.WithEXIFOrientation(mediatest.JPEG(t, raw, 95), 6)
	if o := media.Orientation(src); o != 6 {
		t.Fatalf("jpegOrientation = %d, want 6", o)
	}
	if o := media.Orientation(mediatest.JPEG(t, raw, 95)); o != 1 {
		t.Fatalf("jpegOrientation without EXIF = %d, want 1", o)
	}
	a, err := AttachBytesContext(context.Background(), "rotated.jpg", src, AttachLimits{MaxSide: 100})
	if err != nil {
		t.Fatal(err)
	}
	if a.Width != 50 || a.Height != 100 || a.OrigWidth != 200 || a.OrigHeight != 400 {
		t.Fatalf("got %dx%d from %dx%d, want 50x100 from 200x400 (portrait)", a.Width, a.Height, a.OrigWidth, a.OrigHeight)
	}
	_, data := decodeTestDataURI(t, a.Part().ImageURL.URL)
	img, err := jpeg.Decode(bytes.NewReader(data))
	if err != nil {
		t.Fatal(err)
	}
	top, _, topB, _ := img.At(25, 10).RGBA()
	_, _, botB, _ := img.At(25, 90).RGBA()
	if top>>8 < 150 || topB>>8 > 80 || botB>>8 < 150 {
		t.Errorf("orientation not applied: top %d/%d, bottom blue %d", top>>8, topB>>8, botB>>8)
	}
	// Within the limits the bytes (and their EXIF tag) are sent unchanged.
	a, err = AttachBytesContext(context.Background(), "rotated.jpg", src, AttachLimits{})
	if err != nil || a.Resized || !bytes.Equal(a.Data, src) {
		t.Errorf("unchanged attach: err=%v resized=%v", err, a.Resized)
	}
}

func TestAttachRefusals(t *testing.T) {
	dir := t.TempDir()
	png := mediatest.PNG(t, mediatest.LineArt(32, 32))
	cases := []struct {
		name string
		ref  string
		want []string
	}{
		{"animated gif", writeTestFile(t, dir, "anim.gif", mediatest.GIF(t, 3, 20, 20)), []string{"anim.gif", "animated GIF"}},
		// A real PDF's second line holds bytes that are not UTF-8.
		{"pdf", writeTestFile(t, dir, "doc.png", []byte("%PDF-1.7\n%\xe2\xe3\xcf\xd3\n1 0 obj\n")), []string{"doc.png", "a PDF document", "neither a PNG, JPEG, WEBP or GIF image nor a text file"}},
		{"heic", writeTestFile(t, dir, "IMG_1.heic", append([]byte{0, 0, 0, 0x18}, []byte("ftypheic\x00\x00\x00\x00")...)), []string{"a HEIC image"}},
		{"unknown binary", writeTestFile(t, dir, "blob.png", []byte{0x00, 0x01, 0x02, 0xfe, 0xff}), []string{"blob.png", "binary data, neither a PNG, JPEG, WEBP or GIF image nor a text file"}},
		{"truncated png", writeTestFile(t, dir, "cut.png", png[:30]), []string{"cut.png", "damaged or cut short"}},
		{"missing", filepath.Join(dir, "nope.png"), []string{"nope.png", "no such file", "check the path"}},
		{"directory", dir, []string{"is a directory"}},
		{"empty", writeTestFile(t, dir, "empty.png", nil), []string{"empty.png", "empty"}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			a, err := Attach(c.ref, AttachLimits{})
			if err == nil {
				t.Fatalf("attached %+v, want a refusal", a.Describe())
			}
			for _, w := range c.want {
				if !strings.Contains(err.Error(), w) {
					t.Errorf("error %q does not say %q", err, w)
				}
			}
			if strings.Count(err.Error(), "\n") > 0 {
				t.Errorf("error is not one line: %q", err)
			}
		})
	}
	// A single-frame GIF is fine.
	if _, err := AttachBytesContext(context.Background(), "still.gif", mediatest.GIF(t, 1, 20, 20), AttachLimits{}); err != nil {
		t.Errorf("single-frame GIF refused: %v", err)
	}
	if os.Geteuid() != 0 {
		p := writeTestFile(t, dir, "secret.png", png)
		os.Chmod(p, 0)
		if _, err := Attach(p, AttachLimits{}); err == nil || !strings.Contains(err.Error(), "permission denied") {
			t.Errorf("unreadable file: %v", err)
		}
	}
}

func TestAttachURLPassthrough(t *testing.T) {
	var hits atomic.Int32
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		hits.Add(1)
	}))
	defer srv.Close()
	for _, u := range []string{srv.URL + "/cat.png?size=large&x=%20", "HTTPS://example.invalid/a.jpg"} {
		a, err := Attach("  "+u+"\n", AttachLimits{})
		if err != nil {
			t.Fatal(err)
		}
		if a.URL != u || a.Data != nil || a.SHA256 != "" || !a.IsRemote() || a.Part().ImageURL.URL != u {
			t.Errorf("got %+v, want the URL unchanged", a)
		}
		if !strings.Contains(a.Describe(), u) {
			t.Errorf("Describe() = %q", a.Describe())
		}
	}
	if n := hits.Load(); n != 0 {
		t.Errorf("the URL was fetched %d times; it must be passed through", n)
	}
}

func TestAttachPastedPaths(t *testing.T) {
	home := t.TempDir()
	t.Setenv("HOME", home)
	data := mediatest.PNG(t, mediatest.LineArt(40, 30))
	writeTestFile(t, home, "My Pic (1).png", data)
	writeTestFile(t, home, "it's.png", data)
	p := filepath.Join(home, "My Pic (1).png")
	escaped := strings.NewReplacer(" ", `\ `, "(", `\(`, ")", `\)`).Replace(p)
	refs := map[string]string{
		"plain":          p,
		"trailing space": "  " + p + " \n",
		"single quotes":  "'" + p + "'",
		"double quotes":  `"` + p + `"`,
		"backslashes":    escaped,
		"file url":       "file://" + strings.ReplaceAll(strings.ReplaceAll(strings.ReplaceAll(p, " ", "%20"), "(", "%28"), ")", "%29"),
		"file localhost": "file://localhost" + strings.ReplaceAll(p, " ", "%20"),
		"quoted url":     "'file://" + strings.ReplaceAll(p, " ", "%20") + "'",
		"tilde":          "~/My Pic (1).png",
		"quoted tilde":   `"~/My Pic (1).png"`,
		"quote inside":   `'` + filepath.Join(home, `it'\''s.png`) + `'`,
		"escaped quote":  filepath.Join(home, `it\'s.png`),
	}
	for name, ref := range refs {
		t.Run(name, func(t *testing.T) {
			a, err := Attach(ref, AttachLimits{})
			if err != nil {
				t.Fatal(err)
			}
			if a.MIME != "image/png" || a.Width != 40 {
				t.Errorf("got %+v", a)
			}
		})
	}
	if _, err := CleanPath("file://otherhost/tmp/x.png"); err == nil || !strings.Contains(err.Error(), "another host") {
		t.Errorf("remote file URL: %v", err)
	}
	// A real file name with a backslash wins over the unescaped reading.
	odd := writeTestFile(t, home, `odd\name.png`, data)
	if a, err := Attach(odd, AttachLimits{}); err != nil || a.Name != `odd\name.png` {
		t.Errorf("literal backslash name: %v %q", err, a.Name)
	}
}

func TestAttachDataURIInput(t *testing.T) {
	data := mediatest.PNG(t, mediatest.LineArt(20, 10))
	// The claimed type is wrong on purpose: the bytes decide.
	a, err := Attach("data:image/jpeg;base64,"+b64(data), AttachLimits{})
	if err != nil {
		t.Fatal(err)
	}
	if a.MIME != "image/png" || !bytes.Equal(a.Data, data) {
		t.Errorf("got %s", a.MIME)
	}
	if _, err := Attach("data:text/plain,hello", AttachLimits{}); err == nil {
		t.Error("a non-base64 data URI was accepted")
	}
}

// TestAttachRefusesBombsBeforeDecoding: attachments that would have to be
// scaled are decoded under media.DecodeBudget; files whose headers claim
// more are refused from the header. The 16-bit PNG is 10000x10000 (about
// 780 KB on disk, 800 MB decoded), which used to peak at 1.6 GB.
func TestAttachRefusesBombsBeforeDecoding(t *testing.T) {
	cases := []struct {
		name string
		data []byte
		want string
	}{
		{"16-bit png", mediatest.ZeroPNG(t, 10000, 10000, 16, mediatest.RGBA, false, false),
			`cannot attach "16-bit png": it is 10000x10000 pixels (800.2 MB decoded), more than parley decodes (256.0 MB); shrink it first`},
		{"20000x20000 png", mediatest.ZeroPNG(t, 20000, 20000, 8, mediatest.Gray, false, false), "20000x20000 pixels (400.3 MB decoded)"},
		{"png claiming 100000x100000", mediatest.ClaimPNG(t, 100000, 100000, 8, mediatest.RGB), "100000x100000 pixels (40.0 GB decoded)"},
		{"progressive jpeg", mediatest.FlatJPEG(9000, 9000, mediatest.FlatJPEGOptions{Comps: mediatest.YCbCr444(), Progressive: true, JFIF: true, Adobe: -1}),
			"9000x9000 pixels (1.2 GB decoded)"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			var err error
			a := mediatest.Measure(func() { _, err = AttachBytesContext(context.Background(), c.name, c.data, AttachLimits{}) })
			if err == nil || !strings.Contains(err.Error(), c.want) {
				t.Fatalf("got %v, want %q", err, c.want)
			}
			if a.Total > 1<<20 {
				t.Errorf("refusing the %d-byte file allocated %d bytes", len(c.data), a.Total)
			}
		})
	}
}

// TestAttachBigImageWithinBudget: a 16-bit PNG that fits the budget is
// decoded once and scaled; what it costs is the decoded image plus the
// scaled copy and its encodings, measured here.
func TestAttachBigImageWithinBudget(t *testing.T) {
	data := mediatest.ZeroPNG(t, 3000, 2000, 16, mediatest.RGBA, false, false)
	info, err := media.Inspect(data)
	if err != nil {
		t.Fatal(err)
	}
	var at Attachment
	a := mediatest.Measure(func() { at, err = AttachBytesContext(context.Background(), "deep.png", data, AttachLimits{}) })
	if err != nil {
		t.Fatal(err)
	}
	if at.Width != 2048 || at.Height != 1365 || !at.Resized {
		t.Fatalf("got %s", at.Describe())
	}
	scaled := uint64(2048 * 1365 * 4)
	if limit := uint64(info.Decoded) + 4*scaled + 16<<20; a.Peak > limit {
		t.Errorf("peak %d MB, want at most %d MB (decoded %d MB)", a.Peak>>20, limit>>20, info.Decoded>>20)
	}
	t.Logf("decoded %d MB; peak %d MB, allocated %d MB", info.Decoded>>20, a.Peak>>20, a.Total>>20)
}
