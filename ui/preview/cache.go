package preview

import (
	"container/list"
	"sync"
)

// Cache keeps recent renderings, at most its size, dropping the least
// recently used. It is safe for concurrent use: renders run in commands,
// and the UI reads what is there.
type Cache struct {
	mu    sync.Mutex
	max   int
	order *list.List // of Key, most recent first
	items map[Key]cached
}

type cached struct {
	r    Rendered
	elem *list.Element
}

// NewCache returns a cache of at most max renderings (64 when max ≤ 0).
func NewCache(max int) *Cache {
	if max <= 0 {
		max = 64
	}
	return &Cache{max: max, order: list.New(), items: map[Key]cached{}}
}

// Get returns the rendering of k, if it is cached.
func (c *Cache) Get(k Key) (Rendered, bool) {
	c.mu.Lock()
	defer c.mu.Unlock()
	it, ok := c.items[k]
	if !ok {
		return Rendered{}, false
	}
	c.order.MoveToFront(it.elem)
	return it.r, true
}

// Put keeps a rendering.
func (c *Cache) Put(k Key, r Rendered) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if it, ok := c.items[k]; ok {
		it.r = r
		c.items[k] = it
		c.order.MoveToFront(it.elem)
		return
	}
	c.items[k] = cached{r: r, elem: c.order.PushFront(k)}
	for c.order.Len() > c.max {
		last := c.order.Back()
		delete(c.items, last.Value.(Key))
		c.order.Remove(last)
	}
}

// Render is Render through the cache.
func (c *Cache) Render(data []byte, w, h int, opts Options) (Rendered, error) {
	k := KeyFor(data, w, h, opts)
	if r, ok := c.Get(k); ok {
		return r, nil
	}
	r, err := Render(data, w, h, opts)
	if err != nil {
		return r, err
	}
	c.Put(k, r)
	return r, nil
}
