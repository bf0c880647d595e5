package view

import (
	"errors"
	"fmt"
	"hash/maphash"
	"io"
	"slices"

	"github.com/parquet-go/parquet-go"
)

// The problems, dags, nodes and edges tables are read by problem and DAG
// ids whose row groups' statistics say little: a writer that writes a
// level's problems by number puts low-1, low-10, low-100, ..., low-2 in
// one group of 20,000 nodes, whose least and greatest ids hold nearly
// every id of the level (the DAGs' reads by statistics alone grew from 5
// to 13-14 ms of CPU from 38,250 to 382,500 traces: BENCHMARKS.md). So,
// once per generation, every row group of these tables gets a Bloom filter
// of its keys, read from its key column, and a page reads only the groups
// whose filter may hold a key it asks for. A filter never misses a key (a
// group holding one is always read); a false candidate, about 1 in 100, is
// read and found to hold none of its rows. About 1.3 bytes a distinct key
// of a group: by that count about 60 KB for the four tables of the
// 382,500-trace benchmark run (3,750 problems, 18,750 DAGs), where a map
// of each key's groups would hold every key's string.

// keyFilter is a Bloom filter of one row group's keys.
type keyFilter struct {
	bits []uint64 // nil: the group holds no key (all NULL, or no rows)
}

const (
	filterBitsPerKey = 10 // with 4 probes: a false candidate about 1 in 100
	filterProbes     = 4
)

// newKeyFilter is the filter of hashes (of the group's keys, repeats
// allowed: they are set once).
func newKeyFilter(hashes []uint64) keyFilter {
	slices.Sort(hashes)
	hashes = slices.Compact(hashes)
	if len(hashes) == 0 {
		return keyFilter{}
	}
	f := keyFilter{bits: make([]uint64, (len(hashes)*filterBitsPerKey+63)/64)}
	for _, h := range hashes {
		for _, b := range f.probes(h) {
			f.bits[b/64] |= 1 << (b % 64)
		}
	}
	return f
}

// probes are the bits of hash h (double hashing).
func (f keyFilter) probes(h uint64) [filterProbes]uint64 {
	n := uint64(len(f.bits)) * 64
	h1, h2 := h, h>>32|1
	var p [filterProbes]uint64
	for i := range p {
		p[i] = (h1 + uint64(i)*h2) % n
	}
	return p
}

// mayHold reports whether the group may hold the key of hash h.
func (f keyFilter) mayHold(h uint64) bool {
	if f.bits == nil {
		return false
	}
	for _, b := range f.probes(h) {
		if f.bits[b/64]&(1<<(b%64)) == 0 {
			return false
		}
	}
	return true
}

// keyFilters builds, once, a filter of each row group's keys for every
// file of a table (files as groupFiles.table opened them).
type keyFilters struct {
	seed  maphash.Seed
	files [][]keyFilter // by file, by row group
}

func (k *keyFilters) hash(key []byte) uint64 { return maphash.Bytes(k.seed, key) }

// buildKeyFilters reads the key column of every row group of files.
func buildKeyFilters(files []*groupFile) (*keyFilters, error) {
	k := &keyFilters{seed: maphash.MakeSeed()}
	for _, f := range files {
		var groups []keyFilter
		for i := range f.ranges {
			var hashes []uint64
			err := eachKey(f, i, func(key []byte) { hashes = append(hashes, k.hash(key)) })
			if err != nil {
				return nil, fmt.Errorf("reading %s (row group %d): %w: %w", f.path, i, ErrUnreadableFile, err)
			}
			groups = append(groups, newKeyFilter(hashes))
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
	pages := rg.ColumnChunks()[f.key].Pages()
	defer pages.Close()
	values := make([]parquet.Value, 256)
	for {
		p, err := pages.ReadPage()
		if errors.Is(err, io.EOF) {
			return nil
		}
		if err != nil {
			return err
		}
		r := p.Values()
		for {
			n, err := r.ReadValues(values)
			for _, v := range values[:n] {
				if !v.IsNull() {
					fn(v.ByteArray())
				}
			}
			if errors.Is(err, io.EOF) {
				break
			}
			if err != nil {
				parquet.Release(p)
				return err
			}
		}
		parquet.Release(p)
	}
}

// mayHoldAny reports whether row group i of file f may hold one of keys.
func (k *keyFilters) mayHoldAny(f, i int, keys groupKeys) bool {
	for _, key := range keys.keys {
		if k.files[f][i].mayHold(k.hash(key)) {
			return true
		}
	}
	return false
}
