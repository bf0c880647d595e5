package view

import (
	"container/list"
	"sync"
)

// A trace page opened from a filter finds its place in it (position,
// total, previous and next) among the filter's rows in its order: the
// filter's set of rows, then a walk of its order testing a bit a row
// (filterrows.go: 2-3 ms of CPU at 382,500 traces). A reader walks one
// filter page after page (next, next, ...), so each generation keeps the
// rows of the filters last walked, in their order: a page of a kept filter
// finds its place by a scan of those rows (10-30 µs at 382,500), and an
// index page keeps the rows it ordered, so the first trace opened from it
// finds them too.

// Bounds of what a generation keeps: the filters last used, 4 bytes a row
// each (a filter of every row of 382,500 traces: 1.5 MB).
const (
	maxPlaceFilters = 16
	maxPlaceBytes   = 32 << 20
)

// placeCache keeps filters' rows in their order, the least recently used
// dropped first (zero value: empty).
type placeCache struct {
	mu    sync.Mutex
	lru   list.List // of *placeEntry, the most recent first
	byKey map[string]*list.Element
	bytes int
}

type placeEntry struct {
	key  string
	rows []int32
}

// get is the filter's rows in its order, if kept.
func (c *placeCache) get(key string) ([]int32, bool) {
	c.mu.Lock()
	defer c.mu.Unlock()
	e, ok := c.byKey[key]
	if !ok {
		return nil, false
	}
	c.lru.MoveToFront(e)
	return e.Value.(*placeEntry).rows, true
}

// put keeps rows as the filter's (not when they alone exceed the bound).
func (c *placeCache) put(key string, rows []int32) {
	size := 4 * len(rows)
	if size > maxPlaceBytes {
		return
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.byKey == nil {
		c.byKey = map[string]*list.Element{}
	}
	if e, ok := c.byKey[key]; ok {
		c.lru.MoveToFront(e)
		return
	}
	c.byKey[key] = c.lru.PushFront(&placeEntry{key, rows})
	c.bytes += size
	for c.lru.Len() > maxPlaceFilters || c.bytes > maxPlaceBytes {
		old := c.lru.Back().Value.(*placeEntry)
		c.lru.Remove(c.lru.Back())
		delete(c.byKey, old.key)
		c.bytes -= 4 * len(old.rows)
	}
}

// placeKey is what a filter's rows in its order depend on within a
// generation: every part of the filter and its order, not its page.
func placeKey(f Filter) string {
	g := f.clone()
	g.Page, g.Per = 1, defaultPer
	return g.Aligner + "\x00" + g.Query().Encode()
}
