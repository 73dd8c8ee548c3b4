package preview

import (
	"image/color"
	"strings"
	"sync"
	"testing"

	"github.com/charmbracelet/colorprofile"

	"parley/media/mediatest"
)

func TestCacheHitsAndKeys(t *testing.T) {
	c := NewCache(0, 0)
	src := NewSource(mediatest.PNG(t, mediatest.Photo(64, 48)))
	opts := Options{Mode: Blocks, Profile: colorprofile.TrueColor}
	if _, ok := c.Get(src.Sum, 20, 10, opts); ok {
		t.Fatal("a hit in an empty cache")
	}
	first, err := c.Render(src, 20, 10, opts)
	if err != nil {
		t.Fatal(err)
	}
	got, ok := c.Get(src.Sum, 20, 10, opts)
	if !ok || !equalLines(got.Lines, first.Lines) {
		t.Fatalf("Get after Render: %v", ok)
	}
	// Every input of the picture is part of the key.
	variants := []struct {
		w, h int
		opts Options
	}{
		{21, 10, opts},
		{20, 11, opts},
		{20, 10, Options{Mode: Kitty, Profile: colorprofile.TrueColor}},
		{20, 10, Options{Mode: Blocks, Profile: colorprofile.ANSI256}},
		{20, 10, Options{Mode: Blocks, Profile: colorprofile.TrueColor, Background: color.White}},
	}
	for _, v := range variants {
		if _, ok := c.Get(src.Sum, v.w, v.h, v.opts); ok {
			t.Errorf("%dx%d %+v: hit before rendering", v.w, v.h, v.opts)
		}
		if _, err := c.Render(src, v.w, v.h, v.opts); err != nil {
			t.Fatal(err)
		}
	}
	if c.Len() != 1+len(variants) {
		t.Errorf("%d entries, want %d", c.Len(), 1+len(variants))
	}
	// A background given as another colour type with the same value hits.
	if _, ok := c.Get(src.Sum, 20, 10, Options{Mode: Blocks, Profile: colorprofile.TrueColor, Background: color.RGBA{255, 255, 255, 255}}); !ok {
		t.Error("the same background as another type missed")
	}
}

// Least recently used goes first, by count and by bytes; a lookup counts as
// a use.
func TestCacheEviction(t *testing.T) {
	c := NewCache(3, 0)
	opts := Options{Mode: Blocks, Profile: colorprofile.TrueColor}
	src := NewSource(mediatest.PNG(t, mediatest.Photo(32, 32)))
	for w := 1; w <= 3; w++ {
		if _, err := c.Render(src, w, 4, opts); err != nil {
			t.Fatal(err)
		}
	}
	c.Get(src.Sum, 1, 4, opts) // 1 is now the most recent; 2 the least
	if _, err := c.Render(src, 4, 4, opts); err != nil {
		t.Fatal(err)
	}
	for w, want := range map[int]bool{1: true, 2: false, 3: true, 4: true} {
		if _, ok := c.Get(src.Sum, w, 4, opts); ok != want {
			t.Errorf("width %d cached: %v, want %v", w, ok, want)
		}
	}

	one, _ := Render(src.Data, 40, 20, opts)
	limit := 3 * sizeOf(one)
	c = NewCache(100, limit)
	for h := 20; h < 30; h++ {
		if _, err := c.Render(src, 40, h, opts); err != nil {
			t.Fatal(err)
		}
		if c.Bytes() > limit {
			t.Fatalf("%d bytes cached, limit %d", c.Bytes(), limit)
		}
	}
	if c.Len() < 2 || c.Len() > 3 {
		t.Errorf("%d entries within %d bytes", c.Len(), limit)
	}
	// One preview larger than the whole budget is still kept (alone).
	c = NewCache(100, 1)
	if _, err := c.Render(src, 40, 20, opts); err != nil || c.Len() != 1 {
		t.Errorf("an oversized preview: %v, %d entries", err, c.Len())
	}
}

// Concurrent requests for one preview make it once: they all get the same
// kitty id. Different previews in one cache never share an id.
func TestCacheConcurrent(t *testing.T) {
	c := NewCache(0, 0)
	src := NewSource(mediatest.JPEG(t, mediatest.Photo(800, 600), 85))
	opts := Options{Mode: Kitty, Profile: colorprofile.TrueColor}
	var wg sync.WaitGroup
	ids := make([]uint32, 16)
	for i := range ids {
		wg.Add(1)
		go func() {
			defer wg.Done()
			r, err := c.Render(src, 40, 20, opts)
			if err != nil {
				t.Error(err)
			}
			ids[i] = r.ID
		}()
	}
	wg.Wait()
	for _, id := range ids {
		if id != ids[0] || id == 0 {
			t.Fatalf("ids %v: the preview was made more than once", ids)
		}
	}
	seen := map[uint32]bool{ids[0]: true}
	small := NewSource(mediatest.PNG(t, mediatest.Photo(16, 16)))
	for w := 1; w <= 40; w++ {
		r, err := c.Render(small, w, 10, opts)
		if err != nil {
			t.Fatal(err)
		}
		if seen[r.ID] {
			t.Fatalf("width %d: id %d given twice", w, r.ID)
		}
		seen[r.ID] = true
	}
}

// A damaged file fails the same way from the cache, without a hit in Get.
func TestCacheKeepsErrors(t *testing.T) {
	c := NewCache(0, 0)
	png := mediatest.PNG(t, mediatest.Photo(50, 50))
	src := NewSource(png[:len(png)-200])
	opts := Options{Mode: Blocks, Profile: colorprofile.TrueColor}
	_, err1 := c.Render(src, 10, 5, opts)
	_, err2 := c.Render(src, 10, 5, opts)
	if err1 == nil || err2 == nil || err1.Error() != err2.Error() || !strings.Contains(err1.Error(), "damaged") {
		t.Errorf("errors %v and %v", err1, err2)
	}
	if _, ok := c.Get(src.Sum, 10, 5, opts); ok {
		t.Error("Get hit a failed preview")
	}
}

func TestTransmitted(t *testing.T) {
	data := mediatest.PNG(t, mediatest.Photo(16, 16))
	k, err := Render(data, 8, 4, Options{Mode: Kitty, Profile: colorprofile.TrueColor})
	if err != nil {
		t.Fatal(err)
	}
	b, err := Render(data, 8, 4, Options{Mode: Blocks, Profile: colorprofile.TrueColor})
	if err != nil {
		t.Fatal(err)
	}
	sent := Transmitted{}
	if sent.Forget(k) != "" {
		t.Error("deleting a picture never sent")
	}
	if sent.Need(k) != k.Transmit || sent.Need(k) != "" {
		t.Error("the picture is not sent exactly once")
	}
	if sent.Need(b) != "" || sent.Forget(b) != "" {
		t.Error("half blocks need no commands")
	}
	if sent.Forget(k) != k.Delete || sent.Forget(k) != "" {
		t.Error("the picture is not deleted exactly once")
	}
	if sent.Need(k) != k.Transmit {
		t.Error("a deleted picture is not sent again")
	}
}
