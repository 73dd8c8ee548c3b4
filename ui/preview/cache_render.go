package preview

import (
	"context"
	"errors"
	"fmt"
	"image"

	"parley/media"
)

// keepSide is the longer side of the picture Keep holds: every picture of
// the transcript (at most 48×12 cells, 768 pixels wide in kitty mode at 16
// pixels a cell) is made from it without decoding.
const keepSide = 1024

// Render is RenderContext without a way to stop it.
func (c *Cache) Render(src Source, w, h int, opts Options) (Rendered, error) {
	return c.RenderContext(context.Background(), src, w, h, opts)
}

// RenderContext returns the preview of src at w×h cells from the cache, or
// makes it and keeps it. Its errors are sentences about the image
// ("cannot preview the image: …"). Kitty previews get
// an id no other preview of this cache holds. Call it from a tea.Cmd: a
// miss decodes the image, within opts.Budget (the cache's own when nil).
// When ctx ends it stops decoding, or stops waiting for another caller
// making the same preview, and returns an error wrapping ctx's; a preview
// stopped that way is not kept, and a caller waiting for it makes it
// itself.
func (c *Cache) RenderContext(ctx context.Context, src Source, w, h int, opts Options) (Rendered, error) {
	if opts.Budget == nil {
		opts.Budget = c.budget
	}
	k := keyOf(src.Sum, w, h, opts)
	for {
		c.mu.Lock()
		if el, ok := c.byKey[k]; ok {
			c.lru.MoveToFront(el)
			e := el.Value.(*entry)
			c.mu.Unlock()
			return e.r, e.err
		}
		if cl, ok := c.inflight[k]; ok {
			c.mu.Unlock()
			if err := wait(ctx, cl); err != nil {
				return Rendered{}, err
			}
			if stopped(cl.err) {
				continue // its maker was stopped, this caller was not
			}
			return cl.r, cl.err
		}
		cl := &call{done: make(chan struct{})}
		c.inflight[k] = cl
		var seed uint32
		if opts.Mode.IsKitty() || opts.Mode.Staged() {
			seed = c.nextID
			c.nextID++
		}
		c.mu.Unlock()
		return c.make(ctx, k, cl, src, w, h, opts, seed)
	}
}

// make renders for RenderContext, keeps the result unless making it was
// stopped, and ends the call whatever happens, even a panic, so that its
// waiters wake.
func (c *Cache) make(ctx context.Context, k cacheKey, cl *call, src Source, w, h int, opts Options, seed uint32) (Rendered, error) {
	cl.err = errFailed
	defer func() {
		c.mu.Lock()
		delete(c.inflight, k)
		if cl.err != errFailed && !stopped(cl.err) {
			c.add(&entry{key: k, r: cl.r, err: cl.err, size: sizeOf(cl.r)})
		}
		c.mu.Unlock()
		close(cl.done)
	}()
	cl.r, cl.err = render(src.Data, w, h, opts, seed, func(info media.Info, o, tw, th, need int) (*image.RGBA, error) {
		t, err := c.thumbOf(ctx, src, info, o, need, opts.Budget)
		if err != nil {
			return nil, err
		}
		return scalePicture(t.pic, tw, th), nil // as Render of the tests does without a cache
	})
	return cl.r, cl.err
}

// wait waits for another caller's call to end, or for ctx.
func wait(ctx context.Context, cl *call) error {
	select {
	case <-cl.done:
		return nil
	case <-ctx.Done():
		return fmt.Errorf("the preview was stopped: %w", ctx.Err())
	}
}

// stopped reports whether a preview failed because its context ended.
func stopped(err error) bool {
	return errors.Is(err, context.Canceled) || errors.Is(err, context.DeadlineExceeded)
}

// thumbOf returns a decoded picture of src with at least need pixels on
// its longer side (or all it has), from the cache or decoded now.
func (c *Cache) thumbOf(ctx context.Context, src Source, info media.Info, o, need int, b *media.Budget) (thumb, error) {
	k := cacheKey{thumb: true, sum: src.Sum}
	for {
		c.mu.Lock()
		if el, ok := c.byKey[k]; ok {
			e := el.Value.(*entry)
			if e.thumb.serves(need) {
				c.lru.MoveToFront(el)
				c.mu.Unlock()
				return e.thumb, nil
			}
		}
		if cl, ok := c.inflight[k]; ok {
			c.mu.Unlock()
			if err := wait(ctx, cl); err != nil {
				return thumb{}, err
			}
			if cl.err != nil && !stopped(cl.err) {
				return thumb{}, cl.err
			}
			continue // it may be too small for this request, or stopped
		}
		cl := &call{done: make(chan struct{})}
		c.inflight[k] = cl
		c.mu.Unlock()
		return c.buildThumb(k, cl, func() (thumb, error) { return makeThumb(ctx, src.Data, info, o, need, b) })
	}
}

// buildThumb makes the picture for thumbOf or Keep, keeps it in place of
// a smaller one, and ends the call whatever happens.
func (c *Cache) buildThumb(k cacheKey, cl *call, build func() (thumb, error)) (thumb, error) {
	cl.err = errFailed
	defer func() {
		c.mu.Lock()
		delete(c.inflight, k)
		if cl.err == nil {
			if el, ok := c.byKey[k]; ok { // a smaller one
				c.remove(el)
			}
			c.add(&entry{key: k, thumb: cl.thumb, size: int64(len(cl.thumb.pic.Pix)) + 256})
		}
		c.mu.Unlock()
		close(cl.done)
	}()
	cl.thumb, cl.err = build()
	return cl.thumb, cl.err
}

// Keep takes the pixels of src that a caller decoded anyway (a generated
// image being checked before it is saved) and keeps the picture previews
// of it are made from, so the image is not decoded a second time to be
// shown: every transcript picture comes from it (keepSide). It does
// nothing when the cache holds a picture as large, or one is being made.
// img must be src decoded; Keep is done with it when it returns.
func (c *Cache) Keep(src Source, img image.Image) {
	k := cacheKey{thumb: true, sum: src.Sum}
	c.mu.Lock()
	if el, ok := c.byKey[k]; ok && el.Value.(*entry).thumb.serves(keepSide) {
		c.mu.Unlock()
		return
	}
	if _, ok := c.inflight[k]; ok {
		c.mu.Unlock()
		return
	}
	cl := &call{done: make(chan struct{})}
	c.inflight[k] = cl
	c.mu.Unlock()
	b := img.Bounds()
	info := media.Info{Width: b.Dx(), Height: b.Dy()}
	c.buildThumb(k, cl, func() (thumb, error) {
		return thumbFrom(img, info, media.Orientation(src.Data), keepSide), nil
	})
}
