package view

import (
	"bufio"
	"bytes"
	"context"
	"encoding/binary"
	"errors"
	"fmt"
	"hash/crc32"
	"io"
	"math/bits"
	"os"
	"path/filepath"
	"runtime"
	"sync"
)

// A search index is one generation's texts made searchable without a
// scan of the run, kept outside the run (searchcache.go says where):
//
//   - texts: every trace's text case-folded (fold.go), concatenated; a
//     search reads the candidates' texts from it (pread: the OS page
//     cache holds it, not the Go heap);
//   - sig: a signature of each trace's bytes, byte pairs and byte
//     trigrams (its grams), bit-sliced: for each segment of 4,096 traces,
//     for each of sigBits hash values, a bitmap of the segment's traces
//     having a gram of that hash. A query's candidates are the AND of its
//     grams' bitmaps (its trigrams; a query of 1 or 2 bytes, itself): one
//     read of 512 bytes per gram per segment. A trace that holds the query
//     has all its grams, so no match is lost, and each candidate is
//     checked on its folded text, so none is invented;
//   - meta: the trace ids, where each text ends in texts, which texts are
//     NULL (never matched), both files' sizes and CRC-32Cs, and its own.
//
// Building is one streaming pass over the texts in bounded memory (a
// segment's signatures: 16 MB). Every file is checked (sizes, CRCs)
// before the index is used, so a damaged entry is rebuilt, never
// trusted.
const (
	sigBits     = 1 << 15 // hash values of a trace's trigrams (4 KB a trace)
	sigSegment  = 4096    // traces a segment
	segWords    = sigSegment / 64
	searchMagic = "datg view search index\n"
	// searchFormat changes whenever the files' layout, the hash or the
	// folding changes (the key includes it, so an old entry is not read).
	searchFormat = 2
)

var castagnoli = crc32.MakeTable(crc32.Castagnoli)

// gramHash is the signature bit of a gram: 1 to 3 bytes, packed with its
// length above them (a byte, a pair and a trigram never share a key).
func gramHash(key uint32) uint32 { return key * 2654435761 >> (32 - 15) }

func gram1(a byte) uint32       { return 1<<24 | uint32(a) }
func gram2(a, b byte) uint32    { return 2<<24 | uint32(a)<<8 | uint32(b) }
func gram3(a, b, c byte) uint32 { return 3<<24 | uint32(a)<<16 | uint32(b)<<8 | uint32(c) }

// queryGrams are the grams every text holding fq has: its trigrams, or
// fq itself when shorter.
func queryGrams(fq []byte) []uint32 {
	switch len(fq) {
	case 0:
		return nil
	case 1:
		return []uint32{gram1(fq[0])}
	case 2:
		return []uint32{gram2(fq[0], fq[1])}
	}
	var out []uint32
	for i := 0; i+2 < len(fq); i++ {
		out = append(out, gram3(fq[i], fq[i+1], fq[i+2]))
	}
	return out
}

// searchIndex is an open, verified index.
type searchIndex struct {
	ids   []string // by index order
	ends  []int64  // each text's end in texts (its start is the previous end)
	null  []bool   // the text is NULL
	texts *os.File
	sig   *os.File
}

func (x *searchIndex) close() error {
	return errors.Join(x.texts.Close(), x.sig.Close())
}

// indexWriter builds an index's files in dir.
type indexWriter struct {
	dir       string
	texts     *os.File
	textsBuf  *bufio.Writer
	textsCRC  uint32
	sig       *os.File
	sigCRC    uint32
	sigSize   int64
	ids       []string
	ends      []int64
	null      []bool
	end       int64
	folded    []byte
	traceBits [sigBits / 64]uint64
	segment   []uint64 // sigBits x segWords: bitmap of hash h at [h*segWords:]
	inSeg     int
}

func newIndexWriter(dir string) (*indexWriter, error) {
	w := &indexWriter{dir: dir, segment: make([]uint64, sigBits*segWords)}
	var err error
	if w.texts, err = os.OpenFile(filepath.Join(dir, "texts"), os.O_CREATE|os.O_EXCL|os.O_WRONLY, 0o600); err != nil {
		return nil, err
	}
	if w.sig, err = os.OpenFile(filepath.Join(dir, "sig"), os.O_CREATE|os.O_EXCL|os.O_WRONLY, 0o600); err != nil {
		w.texts.Close()
		return nil, err
	}
	w.textsBuf = bufio.NewWriterSize(w.texts, 1<<20)
	return w, nil
}

// add adds one trace (valid false: its text is NULL).
func (w *indexWriter) add(id, text string, valid bool) error {
	w.folded = appendFolded(w.folded[:0], text)
	if _, err := w.textsBuf.Write(w.folded); err != nil {
		return err
	}
	w.textsCRC = crc32.Update(w.textsCRC, castagnoli, w.folded)
	w.end += int64(len(w.folded))
	w.ids = append(w.ids, id)
	w.ends = append(w.ends, w.end)
	w.null = append(w.null, !valid)
	// The trace's hashes in a small bitset first (it stays in L1), then
	// each set one into the segment's bit slices.
	clear(w.traceBits[:])
	f := w.folded
	set := func(key uint32) {
		h := gramHash(key)
		w.traceBits[h>>6] |= 1 << (h & 63)
	}
	for i := range f {
		set(gram1(f[i]))
		if i+1 < len(f) {
			set(gram2(f[i], f[i+1]))
		}
		if i+2 < len(f) {
			set(gram3(f[i], f[i+1], f[i+2]))
		}
	}
	word, bit := w.inSeg>>6, uint64(1)<<(w.inSeg&63)
	for k, b := range w.traceBits {
		for b != 0 {
			j := k*64 + bits.TrailingZeros64(b)
			b &= b - 1
			w.segment[j*segWords+word] |= bit
		}
	}
	w.inSeg++
	if w.inSeg == sigSegment {
		return w.flushSegment()
	}
	return nil
}

func (w *indexWriter) flushSegment() error {
	if w.inSeg == 0 {
		return nil
	}
	buf := make([]byte, 8*len(w.segment))
	for i, v := range w.segment {
		binary.LittleEndian.PutUint64(buf[8*i:], v)
	}
	if _, err := w.sig.Write(buf); err != nil {
		return err
	}
	w.sigCRC = crc32.Update(w.sigCRC, castagnoli, buf)
	w.sigSize += int64(len(buf))
	clear(w.segment)
	w.inSeg = 0
	return nil
}

// finish writes meta and syncs every file.
func (w *indexWriter) finish(key string) error {
	err := w.flushSegment()
	if err == nil {
		err = w.textsBuf.Flush()
	}
	for _, f := range []*os.File{w.texts, w.sig} {
		if err == nil {
			err = f.Sync()
		}
		if cerr := f.Close(); err == nil {
			err = cerr
		}
	}
	if err != nil {
		return err
	}
	var b bytes.Buffer
	b.WriteString(searchMagic)
	for _, v := range []uint64{searchFormat, uint64(len(w.ids)), sigBits, sigSegment, uint64(w.end), uint64(w.textsCRC), uint64(w.sigSize), uint64(w.sigCRC)} {
		b.Write(binary.AppendUvarint(nil, v))
	}
	b.Write(binary.AppendUvarint(nil, uint64(len(key))))
	b.WriteString(key)
	for i, id := range w.ids {
		b.Write(binary.AppendUvarint(nil, uint64(len(id))))
		b.WriteString(id)
		b.Write(binary.AppendUvarint(nil, uint64(w.ends[i])))
		if w.null[i] {
			b.WriteByte(1)
		} else {
			b.WriteByte(0)
		}
	}
	b.Write(binary.LittleEndian.AppendUint32(nil, crc32.Checksum(b.Bytes(), castagnoli)))
	f, err := os.OpenFile(filepath.Join(w.dir, "meta"), os.O_CREATE|os.O_EXCL|os.O_WRONLY, 0o600)
	if err != nil {
		return err
	}
	if _, err = f.Write(b.Bytes()); err == nil {
		err = f.Sync()
	}
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	return err
}

// abort closes the files (the caller removes the directory).
func (w *indexWriter) abort() {
	w.texts.Close()
	w.sig.Close()
}

// errBadIndex means a cache entry is not a whole, matching index.
var errBadIndex = errors.New("not a whole search index")

// openSearchIndex opens the entry in dir and checks it whole: the meta's
// CRC, its key, both files' sizes and CRCs. Any mismatch is errBadIndex.
func openSearchIndex(ctx context.Context, dir, key string) (*searchIndex, error) {
	meta, err := os.ReadFile(filepath.Join(dir, "meta"))
	if err != nil {
		return nil, err
	}
	bad := func(what string) error { return fmt.Errorf("%s: %w: %s", dir, errBadIndex, what) }
	if len(meta) < len(searchMagic)+4 || !bytes.HasPrefix(meta, []byte(searchMagic)) {
		return nil, bad("no header")
	}
	body := meta[:len(meta)-4]
	if crc32.Checksum(body, castagnoli) != binary.LittleEndian.Uint32(meta[len(meta)-4:]) {
		return nil, bad("meta's checksum differs")
	}
	rd := bytes.NewReader(body[len(searchMagic):])
	var hdr [8]uint64
	for i := range hdr {
		if hdr[i], err = binary.ReadUvarint(rd); err != nil {
			return nil, bad("short header")
		}
	}
	format, n, bits, seg, textsSize, textsCRC, sigSize, sigCRC := hdr[0], hdr[1], hdr[2], hdr[3], hdr[4], hdr[5], hdr[6], hdr[7]
	if format != searchFormat || bits != sigBits || seg != sigSegment {
		return nil, bad("another format")
	}
	readStr := func() (string, error) {
		l, err := binary.ReadUvarint(rd)
		if err != nil || l > uint64(rd.Len()) {
			return "", errBadIndex
		}
		s := make([]byte, l)
		io.ReadFull(rd, s)
		return string(s), nil
	}
	if k, err := readStr(); err != nil || k != key {
		return nil, bad("another key")
	}
	if n > uint64(rd.Len()) {
		return nil, bad("short trace list")
	}
	x := &searchIndex{ids: make([]string, n), ends: make([]int64, n), null: make([]bool, n)}
	var last uint64
	for i := range x.ids {
		if x.ids[i], err = readStr(); err != nil {
			return nil, bad("short trace list")
		}
		end, err := binary.ReadUvarint(rd)
		if err != nil || end < last || end > textsSize {
			return nil, bad("bad text offsets")
		}
		last = end
		x.ends[i] = int64(end)
		nb, err := rd.ReadByte()
		if err != nil || nb > 1 {
			return nil, bad("short trace list")
		}
		x.null[i] = nb == 1
	}
	if rd.Len() != 0 || last != textsSize || sigSize != (n+sigSegment-1)/sigSegment*sigBits*segWords*8 {
		return nil, bad("sizes disagree")
	}
	open := func(name string, size, crc uint64) (*os.File, error) {
		f, err := os.Open(filepath.Join(dir, name))
		if err != nil {
			return nil, err
		}
		sum, err := crcOf(ctx, f, int64(size))
		if err == nil && sum != uint32(crc) {
			err = bad(name + "'s checksum differs")
		}
		if err != nil {
			f.Close()
			return nil, err
		}
		return f, nil
	}
	if x.texts, err = open("texts", textsSize, textsCRC); err != nil {
		return nil, err
	}
	if x.sig, err = open("sig", sigSize, sigCRC); err != nil {
		x.texts.Close()
		return nil, err
	}
	return x, nil
}

// crcOf is the CRC-32C of f, which must be size bytes long.
func crcOf(ctx context.Context, f *os.File, size int64) (uint32, error) {
	fi, err := f.Stat()
	if err != nil {
		return 0, err
	}
	if fi.Size() != size {
		return 0, fmt.Errorf("%s: %w: %d bytes, want %d", f.Name(), errBadIndex, fi.Size(), size)
	}
	buf := make([]byte, 1<<20)
	var sum uint32
	for off := int64(0); off < size; {
		if err := ctx.Err(); err != nil {
			return 0, err
		}
		n, err := f.ReadAt(buf[:min(int64(len(buf)), size-off)], off)
		sum = crc32.Update(sum, castagnoli, buf[:n])
		off += int64(n)
		if err != nil && !(errors.Is(err, io.EOF) && off == size) {
			return 0, err
		}
	}
	return sum, nil
}

// search is the indexes of the traces whose text holds q, case-insensitive
// as RE2's (?i) (q indexable: UTF-8 without NUL).
func (x *searchIndex) search(q string) ([]int32, error) {
	fq := appendFolded(nil, q)
	cands, err := x.candidates(fq)
	if err != nil {
		return nil, err
	}
	workers := min(runtime.GOMAXPROCS(0), max(1, len(cands)/64))
	found := make([][]int32, workers)
	errs := make([]error, workers)
	var wg sync.WaitGroup
	for w := range workers {
		wg.Go(func() {
			buf := make([]byte, verifyChunk+len(fq)-1)
			for k := w; k < len(cands); k += workers {
				i := cands[k]
				start := int64(0)
				if i > 0 {
					start = x.ends[i-1]
				}
				ok, err := x.holds(buf, start, x.ends[i], fq)
				if err != nil {
					errs[w] = fmt.Errorf("reading the search index: %w", err)
					return
				}
				if ok {
					found[w] = append(found[w], i)
				}
			}
		})
	}
	wg.Wait()
	if err := errors.Join(errs...); err != nil {
		return nil, err
	}
	var out []int32
	for _, f := range found {
		out = append(out, f...)
	}
	return out, nil
}

// A candidate's text is read in chunks, the first firstChunk bytes, each
// next one twice as long up to verifyChunk: a text that holds the query
// early (a common string) is read no further.
const (
	firstChunk  = 1 << 10
	verifyChunk = 64 << 10
)

// holds reports whether texts[start:end] holds fq, read in chunks into buf
// (verifyChunk+len(fq)-1 bytes), each overlapping the last by len(fq)-1
// bytes so no match across two chunks is missed.
func (x *searchIndex) holds(buf []byte, start, end int64, fq []byte) (bool, error) {
	chunk := int64(firstChunk)
	for off := start; end-off >= int64(len(fq)); chunk = min(2*chunk, verifyChunk) {
		n := min(chunk+int64(len(fq)-1), end-off)
		if _, err := x.texts.ReadAt(buf[:n], off); err != nil {
			return false, err
		}
		if bytes.Contains(buf[:n], fq) {
			return true, nil
		}
		if off+n == end {
			break
		}
		off += n - int64(len(fq)-1)
	}
	return false, nil
}

// maxProbe bounds the trigrams a query's candidates are computed from: a
// few distinct ones leave few candidates; more cost reads and gain little.
const maxProbe = 24

// candidates are the traces (not NULL) having every gram of fq.
func (x *searchIndex) candidates(fq []byte) ([]int32, error) {
	var hashes []uint32
	seen := map[uint32]bool{}
	for _, g := range queryGrams(fq) {
		if h := gramHash(g); !seen[h] && len(hashes) < maxProbe {
			seen[h] = true
			hashes = append(hashes, h)
		}
	}
	n := len(x.ids)
	var out []int32
	words := make([]uint64, segWords)
	raw := make([]byte, 8*segWords)
	for seg := 0; seg*sigSegment < n; seg++ {
		for i := range words {
			words[i] = ^uint64(0)
		}
		base := int64(seg) * sigBits * segWords * 8
		for _, h := range hashes {
			if _, err := x.sig.ReadAt(raw, base+int64(h)*segWords*8); err != nil {
				return nil, fmt.Errorf("reading the search index: %w", err)
			}
			for i := range words {
				words[i] &= binary.LittleEndian.Uint64(raw[8*i:])
			}
		}
		for k, b := range words {
			for b != 0 {
				i := seg*sigSegment + k*64 + bits.TrailingZeros64(b)
				b &= b - 1
				if i < n && !x.null[i] {
					out = append(out, int32(i))
				}
			}
		}
	}
	return out, nil
}
