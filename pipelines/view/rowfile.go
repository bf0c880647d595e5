package view

import (
	"bytes"
	"cmp"
	"encoding/binary"
	"encoding/json"
	"errors"
	"fmt"
	"hash/crc32"
	"math"
	"os"
	"slices"
	"strings"
)

// The viewer's index is a row file: one fixed-width column per facet code,
// sort key and score, a row per trace in trace-id order, mapped read-only
// (mapFile) so it sits in the OS page cache, not in the Go heap. The Go
// heap holds only its dictionaries (each facet's distinct values, the
// problems, the sets of aligners): they grow with the design of the run,
// not with its traces.
//
// Layout: the columns (each at an offset that is a multiple of 8), then
// the meta (JSON: the format, the key, the dictionaries, where each column
// is), then a trailer: the meta's length (8 bytes), the CRC-32C of all
// that precedes the CRC (4 bytes), rowMagic. Little-endian throughout.
const (
	// rowFormat changes whenever the layout, a column's meaning or the SQL
	// the columns come from (indexViews, indexQuery) changes.
	rowFormat  = 2
	rowMagic   = "datgrow1"
	rowTrailer = 8 + 4 + len(rowMagic)
)

// colSpan is where a column is: Off its first byte, Width a value's bytes.
type colSpan struct{ Off, Width int }

// rowMeta is the row file's meta.
type rowMeta struct {
	Format      int
	Key         string
	N           int // rows
	IDBytes     int // the ids' bytes, end to end
	Aligners    []string
	Dict        [][]string // per facetCols, by code
	Problems    []string   // by code
	AlignerSets [][]string // by code: the aligners that scored a trace, by name
	Cols        map[string]colSpan
	Scored      map[string]int // per metric order: its rows having the score (they come first)
	End         int            // where the columns end
}

// rowFile is an open, verified row file.
type rowFile struct {
	rowMeta
	data []byte // the mapped file

	codes       [len(facetCols)]map[string]int32 // each facet's codes, by value
	problemCode map[string]int32
	facet       [len(facetCols)]colSpan
	problem, alset, levelOrd, dirOrd, langOrd,
	problemK, seed, tokens, truncated, idEnd, ids colSpan
	car, pmf, har []colSpan // per aligner
}

// Column names in the meta.
const (
	colProblem   = "problem"
	colByProblem = "order:by-problem" // the rows by problem, each problem's in the default order
	colAlset     = "aligners"
	colLevelOrd  = "level_ord"
	colDirOrd    = "direction_ord"
	colLangOrd   = "lang_ord"
	colProblemK  = "problem_k"
	colSeed      = "seed"
	colTokens    = "tokens"
	colTruncated = "truncated"
	colIDEnd     = "id_end"
	colIDs       = "ids"
)

func scoreCol(metric, k int) string { return fmt.Sprintf("%s_%d", metrics[metric].Param, k) }

// orderCol is the column of an order's rows (the rows by place, ascending);
// metric orders are per aligner.
func orderCol(sort string, aligner int) string {
	if _, ok := metricIndex[sort]; ok {
		return fmt.Sprintf("order:%s:%d", sort, aligner)
	}
	return "order:" + sort
}

var metricIndex = map[string]int{"car": 0, "pmf": 1, "har": 2}

// keyOrders are the orders with a column of their own: every sort key but
// the id (the rows' own order) and the metrics (one per aligner).
var keyOrders = []string{"", "model", "level", "problem", "direction", "lang", "seed", "method", "tokens", "mv", "ml"}

// rowLayout places the columns of n rows with idBytes of ids and the
// aligners' scores.
func rowLayout(n, idBytes, aligners int) (map[string]colSpan, int) {
	cols := map[string]colSpan{}
	end := 0
	place := func(name string, width, count int) {
		cols[name] = colSpan{end, width}
		end += (width*count + 7) &^ 7
	}
	for _, c := range facetCols {
		place(c, 4, n)
	}
	for _, c := range []string{colProblem, colAlset, colLevelOrd, colDirOrd, colLangOrd} {
		place(c, 4, n)
	}
	for _, c := range []string{colProblemK, colSeed, colTokens, colIDEnd} {
		place(c, 8, n)
	}
	place(colTruncated, 1, n)
	for k := range aligners {
		for m := range metrics {
			place(scoreCol(m, k), 8, n)
		}
	}
	place(colIDs, 1, idBytes)
	for _, o := range keyOrders {
		place(orderCol(o, 0), 4, n)
	}
	place(colByProblem, 4, n)
	for k := range aligners {
		for _, m := range metrics {
			place(orderCol(m.Param, k), 4, n)
		}
	}
	return cols, end
}

func (rf *rowFile) u32(c colSpan, j int) uint32 {
	return binary.LittleEndian.Uint32(rf.data[c.Off+4*j:])
}
func (rf *rowFile) i32(c colSpan, j int) int32 { return int32(rf.u32(c, j)) }
func (rf *rowFile) i64(c colSpan, j int) int64 {
	return int64(binary.LittleEndian.Uint64(rf.data[c.Off+8*j:]))
}
func (rf *rowFile) f64(c colSpan, j int) float64 {
	return math.Float64frombits(binary.LittleEndian.Uint64(rf.data[c.Off+8*j:]))
}

// code is row j's code of facet i; val its value.
func (rf *rowFile) code(i, j int) int32 { return rf.i32(rf.facet[i], j) }
func (rf *rowFile) val(i, j int) string { return rf.Dict[i][rf.code(i, j)] }

func (rf *rowFile) problemOf(j int) string    { return rf.Problems[rf.u32(rf.problem, j)] }
func (rf *rowFile) alsetOf(j int) int32       { return rf.i32(rf.alset, j) }
func (rf *rowFile) alignersOf(j int) []string { return rf.AlignerSets[rf.alsetOf(j)] }
func (rf *rowFile) seedOf(j int) int64        { return rf.i64(rf.seed, j) }
func (rf *rowFile) tokensOf(j int) int64      { return rf.i64(rf.tokens, j) }
func (rf *rowFile) truncatedOf(j int) bool    { return rf.data[rf.truncated.Off+j] != 0 }

// score is row j's metric m (0 CAR, 1 PMF, 2 HAR) under aligner k (NaN:
// not scored).
func (rf *rowFile) score(m, k, j int) float64 {
	switch m {
	case 0:
		return rf.f64(rf.car[k], j)
	case 1:
		return rf.f64(rf.pmf[k], j)
	}
	return rf.f64(rf.har[k], j)
}

// idBytes is row j's trace id, in the mapped file.
func (rf *rowFile) idBytes(j int) []byte {
	start := 0
	if j > 0 {
		start = int(rf.i64(rf.idEnd, j-1))
	}
	return rf.data[rf.ids.Off+start : rf.ids.Off+int(rf.i64(rf.idEnd, j))]
}

// id is row j's trace id.
func (rf *rowFile) id(j int) string { return string(rf.idBytes(j)) }

// idsSum is the CRC-32C of the ids and where each ends: what a search
// index built against this file checks its rows by.
func (rf *rowFile) idsSum() uint32 {
	sum := crc32.Checksum(rf.data[rf.ids.Off:rf.ids.Off+rf.IDBytes], castagnoli)
	return crc32.Update(sum, castagnoli, rf.data[rf.idEnd.Off:rf.idEnd.Off+8*rf.N])
}

// find is the row of a trace id (the rows are in id order).
func (rf *rowFile) find(id string) (int, bool) {
	lo, hi := 0, rf.N
	for lo < hi {
		mid := int(uint(lo+hi) >> 1)
		if bytes.Compare(rf.idBytes(mid), []byte(id)) < 0 {
			lo = mid + 1
		} else {
			hi = mid
		}
	}
	return lo, lo < rf.N && string(rf.idBytes(lo)) == id
}

// walk calls yield with every row in the order of the sort key (desc:
// reversed, a missing score still last), the metric orders under the
// given aligner (-1: none, so no row has a score), until yield says stop.
func (rf *rowFile) walk(sort string, desc bool, aligner int, yield func(j int) bool) {
	n := rf.N
	_, isMetric := metricIndex[sort]
	if sort == "id" || (isMetric && aligner < 0) {
		for p := range n {
			j := p
			if desc {
				j = n - 1 - p
			}
			if !yield(j) {
				return
			}
		}
		return
	}
	name := orderCol(sort, aligner)
	c := rf.Cols[name]
	scored := n
	if isMetric {
		scored = rf.Scored[name]
	}
	for p := range n {
		q := p
		if desc {
			// Each part reversed: the scored rows, then the rest.
			if p < scored {
				q = scored - 1 - p
			} else {
				q = scored + n - 1 - p
			}
		}
		if !yield(int(rf.u32(c, q))) {
			return
		}
	}
}

// problemRows calls yield with the rows of the problem of the given code
// in the default order (colByProblem: the rows by problem, each problem's
// in that order), found by binary search, until yield says stop.
func (rf *rowFile) problemRows(code uint32, yield func(j int) bool) {
	c := rf.Cols[colByProblem]
	at := func(q int) uint32 { return rf.u32(rf.problem, int(rf.u32(c, q))) }
	lo, hi := 0, rf.N
	for lo < hi {
		mid := int(uint(lo+hi) >> 1)
		if at(mid) < code {
			lo = mid + 1
		} else {
			hi = mid
		}
	}
	for q := lo; q < rf.N && at(q) == code; q++ {
		if !yield(int(rf.u32(c, q))) {
			return
		}
	}
}

// openRowFile maps f and checks it whole (trailer, CRC-32C, meta, every
// column inside the file); key "" takes any key.
func openRowFile(f *os.File, key string) (*rowFile, error) {
	bad := func(what string) error { return fmt.Errorf("%s: %w: %s", f.Name(), errBadRows, what) }
	fi, err := f.Stat()
	if err != nil {
		return nil, err
	}
	size := fi.Size()
	if size < int64(rowTrailer) || size > math.MaxInt {
		return nil, bad("too short")
	}
	data, err := mapFile(f, int(size))
	if err != nil {
		return nil, fmt.Errorf("mapping %s: %w", f.Name(), err)
	}
	rf := &rowFile{data: data}
	if err := rf.check(key); err != nil {
		unmapFile(data)
		return nil, bad(err.Error())
	}
	return rf, nil
}

func (rf *rowFile) check(key string) error {
	data := rf.data
	size := len(data)
	tr := data[size-rowTrailer:]
	if string(tr[12:]) != rowMagic {
		return errors.New("no trailer")
	}
	metaLen := binary.LittleEndian.Uint64(tr[:8])
	if crc32.Checksum(data[:size-rowTrailer+8], castagnoli) != binary.LittleEndian.Uint32(tr[8:12]) {
		return errors.New("its checksum differs")
	}
	if metaLen > uint64(size-rowTrailer) {
		return errors.New("bad meta length")
	}
	dec := json.NewDecoder(bytes.NewReader(data[size-rowTrailer-int(metaLen) : size-rowTrailer]))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&rf.rowMeta); err != nil {
		return fmt.Errorf("meta: %v", err)
	}
	m := &rf.rowMeta
	switch {
	case m.Format != rowFormat:
		return errors.New("another format")
	case key != "" && m.Key != key:
		return errors.New("another key")
	case m.N < 0 || m.IDBytes < 0 || len(m.Dict) != len(facetCols) || m.End != size-rowTrailer-int(metaLen):
		return errors.New("bad meta")
	}
	want, end := rowLayout(m.N, m.IDBytes, len(m.Aligners))
	if end != m.End || len(want) != len(m.Cols) {
		return errors.New("bad layout")
	}
	for name, c := range want {
		if m.Cols[name] != c {
			return errors.New("bad layout")
		}
	}
	rf.resolve()
	// Every code in range, every id end in order: a file that passes is
	// read without a bounds check failing.
	for i, c := range facetCols {
		if err := rf.codesBelow(rf.facet[i], len(m.Dict[i])); err != nil {
			return fmt.Errorf("%s: %v", c, err)
		}
	}
	if err := rf.codesBelow(rf.problem, len(m.Problems)); err != nil {
		return fmt.Errorf("problems: %v", err)
	}
	if err := rf.codesBelow(rf.alset, len(m.AlignerSets)); err != nil {
		return fmt.Errorf("aligners: %v", err)
	}
	last := int64(0)
	for j := range m.N {
		e := rf.i64(rf.idEnd, j)
		if e < last || e > int64(m.IDBytes) {
			return errors.New("bad id ends")
		}
		last = e
	}
	if last != int64(m.IDBytes) {
		return errors.New("bad id ends")
	}
	for name, c := range m.Cols {
		if !strings.HasPrefix(name, "order:") {
			continue
		}
		if s, ok := m.Scored[name]; ok && (s < 0 || s > m.N) {
			return errors.New("bad order")
		}
		if err := rf.codesBelow(c, m.N); err != nil {
			return fmt.Errorf("%s: %v", name, err)
		}
	}
	return nil
}

// resolve finds the columns and codes the dictionaries.
func (rf *rowFile) resolve() {
	m := &rf.rowMeta
	for i, c := range facetCols {
		rf.facet[i] = m.Cols[c]
		rf.codes[i] = make(map[string]int32, len(m.Dict[i]))
		for code, v := range m.Dict[i] {
			rf.codes[i][v] = int32(code)
		}
	}
	rf.problem, rf.alset = m.Cols[colProblem], m.Cols[colAlset]
	rf.levelOrd, rf.dirOrd, rf.langOrd = m.Cols[colLevelOrd], m.Cols[colDirOrd], m.Cols[colLangOrd]
	rf.problemK, rf.seed, rf.tokens, rf.truncated = m.Cols[colProblemK], m.Cols[colSeed], m.Cols[colTokens], m.Cols[colTruncated]
	rf.idEnd, rf.ids = m.Cols[colIDEnd], m.Cols[colIDs]
	rf.car, rf.pmf, rf.har = nil, nil, nil
	for k := range m.Aligners {
		rf.car = append(rf.car, m.Cols[scoreCol(0, k)])
		rf.pmf = append(rf.pmf, m.Cols[scoreCol(1, k)])
		rf.har = append(rf.har, m.Cols[scoreCol(2, k)])
	}
	rf.problemCode = make(map[string]int32, len(m.Problems))
	for code, p := range m.Problems {
		rf.problemCode[p] = int32(code)
	}
}

// codesBelow checks that column c's values (uint32) are below n.
func (rf *rowFile) codesBelow(c colSpan, n int) error {
	for j := range rf.N {
		if int(rf.u32(c, j)) >= n {
			return fmt.Errorf("row %d: code out of range", j)
		}
	}
	return nil
}

func (rf *rowFile) close() error {
	d := rf.data
	rf.data = nil
	return unmapFile(d)
}

// sortRows is the ascending order of every row by a sort key (metrics:
// under aligner k, the scored rows first), ties broken by the row (the
// trace id): the order the index computed before the row file, by the
// same keys. scored is how many rows have the metric.
func (rf *rowFile) sortRows(sort string, k int) (order []int32, scored int) {
	n := rf.N
	// Strings compare by their place among the facet's values.
	var facetRank [len(facetCols)][]int32
	for i, d := range rf.Dict {
		facetRank[i] = rankOf(d)
	}
	problemRank := rankOf(rf.Problems)
	col := func(name string) int { return slices.Index(facetCols[:], name) }
	type key func(a, b int) int
	str := func(i int) key {
		return func(a, b int) int { return cmp.Compare(facetRank[i][rf.code(i, a)], facetRank[i][rf.code(i, b)]) }
	}
	i32 := func(c colSpan) key { return func(a, b int) int { return cmp.Compare(rf.i32(c, a), rf.i32(c, b)) } }
	i64 := func(c colSpan) key { return func(a, b int) int { return cmp.Compare(rf.i64(c, a), rf.i64(c, b)) } }
	problem := func(a, b int) int {
		return cmp.Compare(problemRank[rf.u32(rf.problem, a)], problemRank[rf.u32(rf.problem, b)])
	}
	var keys []key
	switch sort {
	case "":
		keys = []key{str(0), i32(rf.levelOrd), i64(rf.problemK), problem, i32(rf.dirOrd), i32(rf.langOrd), i64(rf.seed), str(col("method"))}
	case "model", "method":
		keys = []key{str(col(sort))}
	case "level":
		keys = []key{i32(rf.levelOrd), str(1)}
	case "problem":
		keys = []key{i32(rf.levelOrd), i64(rf.problemK), problem}
	case "direction":
		keys = []key{i32(rf.dirOrd), str(2)}
	case "lang":
		keys = []key{i32(rf.langOrd), str(3)}
	case "seed":
		keys = []key{i64(rf.seed)}
	case "tokens":
		keys = []key{i64(rf.tokens)}
	case "mv":
		keys = []key{str(col("verdict_mv"))}
	case "ml":
		keys = []key{str(col("verdict_ml"))}
	}
	m, isMetric := metricIndex[sort]
	order = make([]int32, n)
	for j := range order {
		order[j] = int32(j)
	}
	scored = n
	if isMetric {
		// NaN: not scored, last; the scored by value (-0 equals 0, as
		// cmp.Compare has it), then by id.
		scored = 0
		for j := range n {
			if !math.IsNaN(rf.score(m, k, j)) {
				order[scored], order[j] = order[j], order[scored]
				scored++
			}
		}
		slices.Sort(order[scored:])
		part := order[:scored]
		slices.SortFunc(part, func(a, b int32) int {
			return cmp.Or(cmp.Compare(rf.score(m, k, int(a)), rf.score(m, k, int(b))), cmp.Compare(a, b))
		})
		return order, scored
	}
	slices.SortFunc(order, func(a, b int32) int {
		for _, key := range keys {
			if c := key(int(a), int(b)); c != 0 {
				return c
			}
		}
		return cmp.Compare(a, b)
	})
	return order, scored
}

// rankOf is each string's place among them, sorted bytewise.
func rankOf(d []string) []int32 {
	byValue := make([]int32, len(d))
	for i := range byValue {
		byValue[i] = int32(i)
	}
	slices.SortFunc(byValue, func(a, b int32) int { return strings.Compare(d[a], d[b]) })
	rank := make([]int32, len(d))
	for pos, i := range byValue {
		rank[i] = int32(pos)
	}
	return rank
}
