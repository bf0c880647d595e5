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
	"sync/atomic"
)

// A search index is one generation's texts made searchable without a
// scan of the run, kept outside the run (searchcache.go says where):
//
//   - texts: every trace's text case-folded (fold.go), concatenated; a
//     search checks the candidates' texts in it (mapped, else read: the
//     OS page cache holds it, not the Go heap; searchtexts.go);
//   - sig: a signature of each trace's bytes, byte pairs and byte
//     trigrams (its grams), bit-sliced: for each segment of 4,096 traces,
//     for each of sigBits hash values, the set of the segment's traces
//     having a gram of that hash. A query's candidates are the AND of its
//     grams' sets (its trigrams; a query of 1 or 2 bytes, itself): two
//     reads per gram per segment. A trace that holds the query has all its
//     grams, so no match is lost, and each candidate is checked on its
//     folded text, so none is invented. A segment is a directory (where
//     each hash's set begins, sigBits+1 offsets of 4 bytes) and the sets:
//     an empty set takes no byte, a set of fewer than 256 traces a sorted
//     list of their places in the segment (2 bytes each), a larger one a
//     bitmap of 512 bytes; so a segment of short texts, which set few of
//     the hashes, is small (it was 4 KB a trace whatever the text), and
//     none is larger than 4 KB a trace and 32 bytes;
//   - pos: per trace (in the order of texts and sig), where its text ends
//     in texts (8 bytes, the top bit set when the text is NULL: never
//     matched) and its row in the viewer's row file (4 bytes), mapped, so
//     a search's result is a set of the row file's rows and no trace id
//     is held in memory;
//   - meta: the files' sizes and CRC-32Cs, the checksum of the row file's
//     ids it was built against, and its own.
//
// Building is one streaming pass over the texts in bounded memory (a
// segment's signatures: 16 MB). Every file is checked (sizes, CRCs)
// before the index is used, so a damaged entry is rebuilt, never
// trusted.
const (
	sigBits     = 1 << 15 // hash values of a trace's trigrams
	sigSegment  = 4096    // traces a segment
	segWords    = sigSegment / 64
	setBitmap   = segWords * 8      // bytes of a set kept as a bitmap
	segDir      = (sigBits + 1) * 4 // bytes of a segment's directory
	maxListed   = setBitmap/2 - 1   // the most traces a set lists (2 bytes each)
	searchMagic = "datg view search index\n"
	// searchFormat changes whenever the files' layout, the hash or the
	// folding changes (the key includes it, so an old entry is not read).
	searchFormat = 4
	posRecord    = 12 // a trace's record in pos
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
	n     int
	pos   []byte // the mapped pos file
	texts *os.File
	// mapBatches says a search maps each batch's region of texts and
	// unmaps it after (searchtexts.go); false where files are not mapped
	// (read instead).
	mapBatches bool
	sig        *os.File
	segEnd     []int64      // where each segment of sig ends (n/4096 of them)
	checked    atomic.Int64 // bytes of texts checked by searches (benchmarks, tests)
	bytes      byteCounts   // how common each byte is in texts (searchfind.go)
}

func (x *searchIndex) close() error {
	return errors.Join(x.texts.Close(), x.sig.Close(), unmapFile(x.pos))
}

// end is where text i ends in texts; null says it is NULL.
func (x *searchIndex) end(i int) (end int64, null bool) {
	v := binary.LittleEndian.Uint64(x.pos[posRecord*i:])
	return int64(v &^ (1 << 63)), v>>63 == 1
}

// start is where text i starts.
func (x *searchIndex) start(i int) int64 {
	if i == 0 {
		return 0
	}
	e, _ := x.end(i - 1)
	return e
}

// row is trace i's row in the row file.
func (x *searchIndex) row(i int) int { return int(binary.LittleEndian.Uint32(x.pos[posRecord*i+8:])) }

// indexWriter builds an index's files in dir.
type indexWriter struct {
	dir       string
	texts     *os.File
	textsBuf  *bufio.Writer
	textsCRC  uint32
	sig       *os.File
	sigCRC    uint32
	sigSize   int64
	segEnd    []int64
	pos       *os.File
	posBuf    *bufio.Writer
	posCRC    uint32
	n         int
	rowOf     func(id string) (int, bool)
	end       int64
	folded    []byte
	traceBits [sigBits / 64]uint64
	segment   []uint64 // sigBits x segWords: bitmap of hash h at [h*segWords:]
	// segBuf is the segment being flushed, kept for the next: a buffer
	// made for each (and grown by appends to a segment's size, up to 16
	// MB) was 212 MB of garbage over the build of a run of the paper's
	// design.
	segBuf []byte
	inSeg  int
}

// newIndexWriter starts an index in dir; rowOf is a trace's row in the
// row file.
func newIndexWriter(dir string, rowOf func(id string) (int, bool)) (*indexWriter, error) {
	w := &indexWriter{dir: dir, segment: make([]uint64, sigBits*segWords), rowOf: rowOf}
	var err error
	if w.texts, err = os.OpenFile(filepath.Join(dir, "texts"), os.O_CREATE|os.O_EXCL|os.O_WRONLY, 0o600); err != nil {
		return nil, err
	}
	if w.sig, err = os.OpenFile(filepath.Join(dir, "sig"), os.O_CREATE|os.O_EXCL|os.O_WRONLY, 0o600); err != nil {
		w.texts.Close()
		return nil, err
	}
	if w.pos, err = os.OpenFile(filepath.Join(dir, "pos"), os.O_CREATE|os.O_EXCL|os.O_WRONLY, 0o600); err != nil {
		w.texts.Close()
		w.sig.Close()
		return nil, err
	}
	w.textsBuf = bufio.NewWriterSize(w.texts, 1<<20)
	w.posBuf = bufio.NewWriterSize(w.pos, 64<<10)
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
	row, ok := w.rowOf(id)
	if !ok {
		return fmt.Errorf("trace %q is not in the viewer's index", id)
	}
	rec := uint64(w.end)
	if !valid {
		rec |= 1 << 63
	}
	var buf [posRecord]byte
	binary.LittleEndian.PutUint64(buf[:], rec)
	binary.LittleEndian.PutUint32(buf[8:], uint32(row))
	if _, err := w.posBuf.Write(buf[:]); err != nil {
		return err
	}
	w.posCRC = crc32.Update(w.posCRC, castagnoli, buf[:])
	w.n++
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
	if cap(w.segBuf) < segDir {
		w.segBuf = make([]byte, 0, segDir+setBitmap*1024)
	}
	// Every offset of the directory is written below.
	buf := w.segBuf[:segDir]
	for h := range sigBits {
		binary.LittleEndian.PutUint32(buf[4*h:], uint32(len(buf)-segDir))
		set := w.segment[h*segWords : (h+1)*segWords]
		c := 0
		for _, v := range set {
			c += bits.OnesCount64(v)
		}
		switch {
		case c == 0:
		case c <= maxListed:
			for k, v := range set {
				for v != 0 {
					buf = binary.LittleEndian.AppendUint16(buf, uint16(k*64+bits.TrailingZeros64(v)))
					v &= v - 1
				}
			}
		default:
			for _, v := range set {
				buf = binary.LittleEndian.AppendUint64(buf, v)
			}
		}
	}
	binary.LittleEndian.PutUint32(buf[4*sigBits:], uint32(len(buf)-segDir))
	if _, err := w.sig.Write(buf); err != nil {
		return err
	}
	w.segBuf = buf[:0]
	w.sigCRC = crc32.Update(w.sigCRC, castagnoli, buf)
	w.sigSize += int64(len(buf))
	w.segEnd = append(w.segEnd, w.sigSize)
	clear(w.segment)
	w.inSeg = 0
	return nil
}

// finish writes meta and syncs every file; rowsSum is the row file's
// idsSum.
func (w *indexWriter) finish(key string, rowsSum uint32) error {
	err := w.flushSegment()
	if err == nil {
		err = w.textsBuf.Flush()
	}
	if err == nil {
		err = w.posBuf.Flush()
	}
	for _, f := range []*os.File{w.texts, w.sig, w.pos} {
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
	for _, v := range []uint64{searchFormat, uint64(w.n), sigBits, sigSegment, uint64(w.end), uint64(w.textsCRC), uint64(w.sigSize), uint64(w.sigCRC), uint64(w.posCRC), uint64(rowsSum)} {
		b.Write(binary.AppendUvarint(nil, v))
	}
	for _, e := range w.segEnd {
		b.Write(binary.AppendUvarint(nil, uint64(e)))
	}
	b.Write(binary.AppendUvarint(nil, uint64(len(key))))
	b.WriteString(key)
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
	w.pos.Close()
}

// errBadIndex means a cache entry is not a whole, matching index.
var errBadIndex = errors.New("not a whole search index")

// openSearchIndex opens the entry in dir and checks it whole: the meta's
// CRC, its key, every file's size and CRC, and that it was built against
// the row file rf (the same traces in the same rows). Any mismatch is
// errBadIndex.
func openSearchIndex(ctx context.Context, dir, key string, rf *rowFile) (*searchIndex, error) {
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
	var hdr [10]uint64
	for i := range hdr {
		if hdr[i], err = binary.ReadUvarint(rd); err != nil {
			return nil, bad("short header")
		}
	}
	format, n, bits, seg, textsSize, textsCRC, sigSize, sigCRC, posCRC, rowsSum := hdr[0], hdr[1], hdr[2], hdr[3], hdr[4], hdr[5], hdr[6], hdr[7], hdr[8], hdr[9]
	if format != searchFormat || bits != sigBits || seg != sigSegment {
		return nil, bad("another format")
	}
	if n != uint64(rf.N) || uint32(rowsSum) != rf.idsSum() {
		return nil, bad("built against other rows")
	}
	// Each segment's end: in order, each at least a directory long, the
	// last the file's end.
	segEnd := make([]int64, (n+sigSegment-1)/sigSegment)
	var prev uint64
	for i := range segEnd {
		e, err := binary.ReadUvarint(rd)
		if err != nil || e < prev+segDir || e > sigSize {
			return nil, bad("bad segments")
		}
		segEnd[i], prev = int64(e), e
	}
	if prev != sigSize {
		return nil, bad("sizes disagree")
	}
	l, err := binary.ReadUvarint(rd)
	if err != nil || l != uint64(rd.Len()) || string(body[len(body)-rd.Len():]) != key {
		return nil, bad("another key")
	}
	open := func(name string, size, crc uint64, sample func([]byte)) (*os.File, error) {
		f, err := os.Open(filepath.Join(dir, name))
		if err != nil {
			return nil, err
		}
		sum, err := crcOf(ctx, f, int64(size), sample)
		if err == nil && sum != uint32(crc) {
			err = bad(name + "'s checksum differs")
		}
		if err != nil {
			f.Close()
			return nil, err
		}
		return f, nil
	}
	x := &searchIndex{n: int(n), segEnd: segEnd}
	pos, err := open("pos", n*posRecord, posCRC, nil)
	if err != nil {
		return nil, err
	}
	x.pos, err = mapFile(pos, int(n*posRecord))
	pos.Close()
	if err != nil {
		return nil, err
	}
	// Offsets in order and inside texts, rows inside the row file, each
	// once: then no read below goes out of bounds.
	seen := newBitmap(rf.N)
	var last int64
	for i := range x.n {
		e, _ := x.end(i)
		row := x.row(i)
		if e < last || e > int64(textsSize) || row >= rf.N || seen.has(row) {
			unmapFile(x.pos)
			return nil, bad("bad positions")
		}
		seen.set(row)
		last = e
	}
	if last != int64(textsSize) {
		unmapFile(x.pos)
		return nil, bad("sizes disagree")
	}
	if x.texts, err = open("texts", textsSize, textsCRC, x.bytes.sample); err != nil {
		unmapFile(x.pos)
		return nil, err
	}
	if x.sig, err = open("sig", sigSize, sigCRC, nil); err != nil {
		x.texts.Close()
		unmapFile(x.pos)
		return nil, err
	}
	x.mapBatches = textsMapped
	return x, nil
}

// crcOf is the CRC-32C of f, which must be size bytes long; sample (when
// not nil) sees each piece read, up to a MB each.
func crcOf(ctx context.Context, f *os.File, size int64, sample func([]byte)) (uint32, error) {
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
		if sample != nil {
			sample(buf[:n])
		}
		off += int64(n)
		if err != nil && !(errors.Is(err, io.EOF) && off == size) {
			return 0, err
		}
	}
	return sum, nil
}

// searchRows is the rows (of a row file of n) whose text holds q.
func (x *searchIndex) searchRows(q string, n int) (bitmap, error) {
	found, err := x.search(q)
	if err != nil {
		return nil, fmt.Errorf("searching the traces: %w", err)
	}
	rows := newBitmap(n)
	for _, i := range found {
		rows.set(x.row(int(i)))
	}
	return rows, nil
}

// readSet reads hash h's set of the segment at [base, end) of sig into
// set (a bitmap of the segment's traces), raw being setBitmap bytes.
func (x *searchIndex) readSet(base, end int64, h uint32, raw []byte, set []uint64) error {
	damaged := func(what string) error {
		return fmt.Errorf("reading the search index: %s: %w: %s", x.sig.Name(), errBadIndex, what)
	}
	var dir [8]byte
	if _, err := x.sig.ReadAt(dir[:], base+int64(h)*4); err != nil {
		return fmt.Errorf("reading the search index: %w", err)
	}
	from, to := int64(binary.LittleEndian.Uint32(dir[:])), int64(binary.LittleEndian.Uint32(dir[4:]))
	size := to - from
	if size < 0 || base+segDir+to > end || (size != setBitmap && (size%2 != 0 || size/2 > maxListed)) {
		return damaged("a bad set")
	}
	clear(set)
	if size == 0 {
		return nil
	}
	if _, err := x.sig.ReadAt(raw[:size], base+segDir+from); err != nil {
		return fmt.Errorf("reading the search index: %w", err)
	}
	if size == setBitmap {
		for i := range set {
			set[i] = binary.LittleEndian.Uint64(raw[8*i:])
		}
		return nil
	}
	for i := int64(0); i < size; i += 2 {
		k := binary.LittleEndian.Uint16(raw[i:])
		if k >= sigSegment {
			return damaged("a bad set")
		}
		set[k>>6] |= 1 << (k & 63)
	}
	return nil
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
	n := x.n
	var out []int32
	words := make([]uint64, segWords)
	set := make([]uint64, segWords)
	raw := make([]byte, setBitmap)
	for seg := 0; seg*sigSegment < n; seg++ {
		for i := range words {
			words[i] = ^uint64(0)
		}
		base := int64(0)
		if seg > 0 {
			base = x.segEnd[seg-1]
		}
		for _, h := range hashes {
			if err := x.readSet(base, x.segEnd[seg], h, raw, set); err != nil {
				return nil, err
			}
			left := uint64(0)
			for i := range words {
				words[i] &= set[i]
				left |= words[i]
			}
			if left == 0 {
				break // no trace of the segment is left
			}
		}
		for k, b := range words {
			for b != 0 {
				i := seg*sigSegment + k*64 + bits.TrailingZeros64(b)
				b &= b - 1
				if i >= n {
					continue
				}
				if _, null := x.end(i); !null {
					out = append(out, int32(i))
				}
			}
		}
	}
	return out, nil
}
