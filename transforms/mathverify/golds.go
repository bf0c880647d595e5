package mathverify

// Golds parses gold answers as NewGold does and keeps the ones it parsed
// last, so that a gold answer met again is not parsed again: a study
// grades each question's gold against many generations (models, levels,
// languages), and `datg answers check` reads them as separate lines. A
// Gold is only read by Grade, so one can grade any number of texts.
// Plain numbers are not kept: they parse without the patterns
// (extractPlainNumber) at less than a lookup's cost in memory. Neither
// are golds longer than maxKeptGold bytes. At most capacity golds are
// kept, the first kept forgotten first. Not safe for concurrent use.
type Golds struct {
	kept  map[string]Gold
	order []string // the kept golds, oldest at next once full
	next  int
	cap   int
}

// maxKeptGold is the longest gold answer Golds keeps, in bytes.
const maxKeptGold = 1024

// NewGolds keeps up to capacity golds (at least one).
func NewGolds(capacity int) *Golds {
	capacity = max(capacity, 1)
	return &Golds{kept: make(map[string]Gold), cap: capacity}
}

// Get is NewGold(gold), parsed again only if it is not kept.
func (c *Golds) Get(gold string) Gold {
	if ex, ok := extractPlainNumber(gold); ok {
		return Gold{Raw: gold, ex: ex}
	}
	if g, ok := c.kept[gold]; ok {
		return g
	}
	g := NewGold(gold)
	if len(gold) > maxKeptGold {
		return g
	}
	if len(c.order) < c.cap {
		c.order = append(c.order, gold)
	} else {
		delete(c.kept, c.order[c.next])
		c.order[c.next] = gold
		c.next = (c.next + 1) % c.cap
	}
	c.kept[gold] = g
	return g
}

// Len is the number of golds kept.
func (c *Golds) Len() int { return len(c.kept) }
