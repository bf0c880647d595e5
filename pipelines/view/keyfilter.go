package view

import (
	"fmt"
	"slices"

	"github.com/bits-and-blooms/bloom/v3"
	"github.com/parquet-go/parquet-go"
)

// A trace page reads its rows by key (a trace, problem or DAG id) from row
// groups whose statistics often say little: a writer that writes a level's
// problems by number puts low-1, low-10, low-100, ..., low-2 in one group
// of 20,000 nodes, whose least and greatest ids hold nearly every id of the
// level, and the stages write a trace's rows in the order they made them,
// so each group of verdicts, detections or alignment events spans nearly
// every trace id (t000... to tfff...). Reading by statistics alone, a page
// read every group's key column: 5.5 million ids at 382,500 traces, 80% of
// its CPU, growing with the run. So, once per generation, every row group
// of a table gets a Bloom filter of its keys, read from its key column,
// and a page reads only the groups whose filter may hold a key it asks
// for. A filter never misses a key (a group holding one is always read); a
// false candidate, about 1 in 100, is read and found to hold none of its
// rows. About 1.3 bytes a distinct key of a group, where a map of each
// key's groups would hold every key's string: BENCHMARKS.md has the
// figures at 38,250 and 382,500 traces.

// keyFilter is a Bloom filter of one row group's keys
// (bits-and-blooms/bloom: sized for the group's distinct keys at a false
// candidate in 100).
type keyFilter struct {
	bloom *bloom.BloomFilter // nil: the group holds no key (all NULL, or no rows)
}

const falseCandidateRate = 0.01

// newKeyFilter is the filter of a group's keys (repeats allowed: the
// filter is sized by the distinct ones).
func newKeyFilter(keys []string) keyFilter {
	slices.Sort(keys)
	keys = slices.Compact(keys)
	if len(keys) == 0 {
		return keyFilter{}
	}
	f := keyFilter{bloom: bloom.NewWithEstimates(uint(len(keys)), falseCandidateRate)}
	for _, key := range keys {
		f.bloom.AddString(key)
	}
	return f
}

// mayHold reports whether the group may hold key.
func (f keyFilter) mayHold(key []byte) bool {
	return f.bloom != nil && f.bloom.Test(key)
}

// keyFilters builds, once, a filter of each row group's keys for every
// file of a table (files as groupFiles.table opened them).
type keyFilters struct {
	files [][]keyFilter // by file, by row group
}

// buildKeyFilters reads the key column of every row group of files.
func buildKeyFilters(files []*groupFile) (*keyFilters, error) {
	k := &keyFilters{}
	for _, f := range files {
		var groups []keyFilter
		for i := range f.ranges {
			var keys []string
			err := eachKey(f, i, func(key []byte) {
				// A DAG's nodes and edges are consecutive rows of one key:
				// its repeats in a row are not copied.
				if n := len(keys); n == 0 || keys[n-1] != string(key) {
					keys = append(keys, string(key))
				}
			})
			if err != nil {
				return nil, fmt.Errorf("reading %s (row group %d): %w: %w", f.path, i, ErrUnreadableFile, err)
			}
			groups = append(groups, newKeyFilter(keys))
		}
		k.files = append(k.files, groups)
	}
	return k, nil
}

// eachKey calls fn with each key (not NULL) of row group i of f. A
// damaged page parquet-go's decoders panic on is an error, as the ones
// they report are.
func eachKey(f *groupFile, i int, fn func(key []byte)) (err error) {
	defer func() {
		if p := recover(); p != nil {
			err = fmt.Errorf("%v", p)
		}
	}()
	if f.key < 0 {
		return nil
	}
	rg, err := f.rowGroup(i)
	if err != nil {
		return err
	}
	return eachValue(rg.ColumnChunks()[f.key], make([]parquet.Value, 256), func(v parquet.Value) error {
		if !v.IsNull() {
			fn(v.ByteArray())
		}
		return nil
	})
}

// mayHoldAny reports whether row group i of file f may hold one of keys.
func (k *keyFilters) mayHoldAny(f, i int, keys groupKeys) bool {
	for _, key := range keys.keys {
		if k.files[f][i].mayHold(key) {
			return true
		}
	}
	return false
}
