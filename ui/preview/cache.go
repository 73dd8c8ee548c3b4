package preview

import (
	"container/list"
	"crypto/rand"
	"crypto/sha256"
	"encoding/binary"
	"errors"
	"sync"

	"github.com/charmbracelet/colorprofile"

	"parley/media"
)

// Source is image bytes with their SHA-256, computed once: hashing a
// screenshot takes milliseconds, a cache lookup microseconds.
type Source struct {
	Data []byte
	Sum  [32]byte
}

// NewSource hashes data. Callers that already know the SHA-256 (the session
// store names blobs by it) can fill a Source themselves.
func NewSource(data []byte) Source {
	return Source{Data: data, Sum: sha256.Sum256(data)}
}

// cacheKey is everything a preview depends on. The cache also keeps
// decoded pictures (thumbs), under the image's sum alone.
type cacheKey struct {
	thumb   bool
	sum     [32]byte
	w, h    int
	mode    Mode
	profile colorprofile.Profile
	bg      rgb
	// cellW and cellH are a cell's pixels, for sixel pictures only.
	cellW, cellH int
	colors       int
	// sixelW and sixelH are the terminal's largest sixel picture.
	sixelW, sixelH int
}

func keyOf(sum [32]byte, w, h int, opts Options) cacheKey {
	k := cacheKey{sum: sum, w: w, h: h, mode: opts.Mode, profile: opts.Profile, bg: toRGB(opts.Background)}
	if opts.Mode == Sixel {
		k.cellW, k.cellH = opts.cell()
		k.colors = opts.colors()
		k.sixelW, k.sixelH = opts.SixelWidth, opts.SixelHeight
	}
	return k
}

// entry is one cached preview, or the error making it gave (a damaged file
// fails the same way every time, and is not decoded again), or a thumb.
type entry struct {
	key   cacheKey
	r     Rendered
	thumb thumb
	err   error
	size  int64
}

// call is a preview or a thumb being made; others asking for the same key
// wait for it instead of making it again (a preview would get a second
// kitty id, a thumb would be decoded twice).
type call struct {
	done  chan struct{}
	r     Rendered
	thumb thumb
	err   error
}

// Cache holds recent previews, and the decoded pictures they were made
// from, least recently used dropped first once it holds more than its
// entry count or its bytes. A preview of an image already decoded at a new
// size (a resize, the picker's preview becoming a chip) skips decoding.
// Failures are kept too (a damaged file fails the same way every time), so
// use one decode budget per cache: it is not part of the key. A Cache is
// safe for concurrent use: commands render into it, Update reads from it.
type Cache struct {
	maxEntries int
	maxBytes   int64
	// budget is the decode budget of renders whose Options name none:
	// made with the cache, so the screen that owns the cache can share it
	// with its other decoders (Budget).
	budget *media.Budget

	mu       sync.Mutex
	bytes    int64
	lru      list.List // of *entry, most recent first
	byKey    map[cacheKey]*list.Element
	inflight map[cacheKey]*call
	nextID   uint32
}

// Default bounds of NewCache(0, 0): a picker page, the chips and a long
// transcript of screenshots, kitty transmits included.
const (
	DefaultCacheEntries       = 256
	DefaultCacheBytes   int64 = 96 << 20
)

// NewCache makes a cache of at most maxEntries previews and pictures and
// maxBytes bytes of lines, commands and pixels (0 or less: the defaults),
// with a decode budget of media.DecodeBudget (Budget).
func NewCache(maxEntries int, maxBytes int64) *Cache {
	if maxEntries <= 0 {
		maxEntries = DefaultCacheEntries
	}
	if maxBytes <= 0 {
		maxBytes = DefaultCacheBytes
	}
	// Kitty ids count up from a random start, so two runs in one terminal
	// window do not replace each other's pictures.
	var seed [4]byte
	_, _ = rand.Read(seed[:])
	return &Cache{
		maxEntries: maxEntries,
		maxBytes:   maxBytes,
		budget:     media.NewBudget(media.DecodeBudget),
		byKey:      make(map[cacheKey]*list.Element),
		inflight:   make(map[cacheKey]*call),
		nextID:     binary.BigEndian.Uint32(seed[:]),
	}
}

// Budget is the decode budget the cache's renders draw on when their
// Options name none. The screen that owns the cache passes it to its other
// decoders (attachments being scaled, images being checked), so that all
// the images it decodes at once stay within one budget.
func (c *Cache) Budget() *media.Budget { return c.budget }

// Get returns the cached preview of the image with SHA-256 sum at w×h
// cells, without decoding anything; ok is false when there is none (or
// making it failed). Cheap enough for Update.
func (c *Cache) Get(sum [32]byte, w, h int, opts Options) (Rendered, bool) {
	k := keyOf(sum, w, h, opts)
	c.mu.Lock()
	defer c.mu.Unlock()
	el, ok := c.byKey[k]
	if !ok {
		return Rendered{}, false
	}
	c.lru.MoveToFront(el)
	e := el.Value.(*entry)
	return e.r, e.err == nil
}

// errFailed is what waiters get when making a preview or a picture ended
// without a result (it panicked); it is never cached.
var errFailed = errors.New("cannot preview the image: making the preview failed")

// add inserts e and drops the least recently used entries beyond the
// bounds (never e itself). c.mu is held.
func (c *Cache) add(e *entry) {
	c.byKey[e.key] = c.lru.PushFront(e)
	c.bytes += e.size
	for c.lru.Len() > 1 && (c.lru.Len() > c.maxEntries || c.bytes > c.maxBytes) {
		c.remove(c.lru.Back())
	}
}

// Len is how many previews and decoded pictures the cache holds.
func (c *Cache) Len() int {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.lru.Len()
}

// Bytes is how many bytes of lines, commands and pixels the cache holds.
func (c *Cache) Bytes() int64 {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.bytes
}

// remove drops one entry. c.mu is held.
func (c *Cache) remove(el *list.Element) {
	old := c.lru.Remove(el).(*entry)
	delete(c.byKey, old.key)
	c.bytes -= old.size
}

// sizeOf counts the bytes a preview keeps alive, plus a fixed overhead
// for its bookkeeping.
func sizeOf(r Rendered) int64 {
	n := int64(256 + len(r.Transmit) + len(r.Delete) + 16*len(r.Lines))
	if st := r.staged; st != nil {
		n += int64(len(st.transmit) + len(st.full))
		if st.pal != nil {
			n += int64(len(st.pal.Pix))
		}
		if st.pic != nil {
			n += int64(len(st.pic.Pix))
		}
	}
	for _, l := range r.Lines {
		n += int64(len(l))
	}
	return n
}
