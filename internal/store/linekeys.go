package store

// LineKeys finds the first line of an input that repeats a key of an
// earlier line (import's trace identities and ids) without holding every
// key: the keys are added with their lines and spilled to sorted runs in
// the transaction's staging directory, as a writer's own keys are
// (keyRuns). FirstRepeat then finds the repeat a check line by line would
// have stopped at. The runs are removed when the transaction ends.
type LineKeys struct {
	runs sortedRuns
}

// LineKeys starts a set of numbered lines' keys, named name among the
// merge's files.
func (m *Merger[T]) LineKeys(name string) *LineKeys {
	l := &LineKeys{runs: newSortedRuns(m.tx.staging, "."+m.def.Name+"."+name)}
	m.tx.spills = append(m.tx.spills, &l.runs)
	return l
}

// Add adds the key of a line (numbered from 1).
func (l *LineKeys) Add(key string, line int) error {
	_, err := l.runs.add(key, uint64(line))
	return err
}

// FirstRepeat finds, of the keys added more than once, the one whose
// second line is the earliest: the first line that repeats a key (line)
// and the line it repeats (first).
func (l *LineKeys) FirstRepeat() (key string, line, first int, found bool, err error) {
	var cur string
	began := false
	var least, second uint64 // the current key's two earliest lines (second 0: seen once)
	done := func() {
		if began && second != 0 && (!found || int(second) < line) {
			key, line, first, found = cur, int(second), int(least), true
		}
	}
	err = l.runs.each(func(k string, n uint64) error {
		if !began || k != cur {
			done()
			cur, began, least, second = k, true, n, 0
			return nil
		}
		switch {
		case n < least:
			least, second = n, least
		case second == 0 || n < second:
			second = n
		}
		return nil
	})
	if err != nil {
		return "", 0, 0, false, err
	}
	done()
	return key, line, first, found, nil
}

// Each calls fn with every key added and its line, in ascending order of
// key (the order of one key's lines is not defined): a join of two inputs
// too large to hold, each added under keys that sort together (import's
// traces against the table's, traceids.Collisions).
func (l *LineKeys) Each(fn func(key string, line int) error) error {
	return l.runs.each(func(k string, n uint64) error { return fn(k, int(n)) })
}
