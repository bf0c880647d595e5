package view

import (
	"context"
	"encoding/binary"
	"encoding/json"
	"fmt"
	"hash/crc32"
	"math"
	"os"
	"regexp"
	"slices"
	"strings"

	"github.com/datg/datg/internal/duck"
)

// colWriter writes one column of a row file, 64 KB at a time.
type colWriter struct {
	f   *os.File
	off int64
	buf []byte
}

func (w *colWriter) flush() error {
	if len(w.buf) == 0 {
		return nil
	}
	_, err := w.f.WriteAt(w.buf, w.off)
	w.off += int64(len(w.buf))
	w.buf = w.buf[:0]
	return err
}

func (w *colWriter) grew() error {
	if len(w.buf) >= 64<<10 {
		return w.flush()
	}
	return nil
}

// buildRows writes the generation's row file into f (empty): the index's
// rows stream out of DuckDB in trace-id order, a part of at most
// indexPartRows traces at a time (indexParts), written one at a time into
// the columns; then each order's column is sorted from the file. Only the
// dictionaries and one order at a time (4 bytes a row, while it is
// sorted) are in the Go heap, and DuckDB holds one part's rows.
func buildRows(ctx context.Context, db *duck.DB, f *os.File, key string) error {
	aligners, err := indexAligners(ctx, db)
	if err != nil {
		return err
	}
	parts, err := indexParts(ctx, db, aligners, indexPartRows)
	if err != nil {
		return err
	}
	return writeRowFile(ctx, db, f, key, aligners, `SELECT count(*), coalesce(sum(strlen(trace_id)), 0) FROM traces`, parts)
}

// indexPartRows is the most traces a part of the build holds: DuckDB's
// result of a query is materialized (the driver reads it once complete),
// so a part's rows, its joins' and its sort's are what the build holds,
// whatever the run's size. At 65,536 the viewer's start peaked at 213 MB
// of anonymous memory at ten times the paper's design (six parts), where
// the design's whole run, one part of 38,250 traces, took 136 MB; parts
// of 32,768 peak at 159 MB there, for 2 s more of the build's 10.6 s
// (each part's query scans the verdicts, detections and scores whole).
var indexPartRows = 32768

// beforeIndexPart, when set (by a test), is called before each part's
// query.
var beforeIndexPart func()

// queryPart is a query of some of the index's rows, in trace-id order.
type queryPart struct {
	query string
	args  []any
}

// indexParts are the queries of the index's rows, a part of at most size
// traces each (fewer where ids repeat), the parts in trace-id order: the
// first trace id of each part found by one pass over the ids, and each
// part the ids from its first to the next part's.
func indexParts(ctx context.Context, db *duck.DB, aligners []string, size int) ([]queryPart, error) {
	rows, err := db.QueryContext(ctx, `SELECT trace_id FROM (SELECT trace_id, row_number() OVER (ORDER BY trace_id) - 1 AS i FROM traces)
		WHERE i % $1 = 0 ORDER BY trace_id`, size)
	if err != nil {
		return nil, fmt.Errorf("building the viewer's index: %w", err)
	}
	defer rows.Close()
	var firsts []string
	for rows.Next() {
		var id string
		if err := rows.Scan(&id); err != nil {
			return nil, fmt.Errorf("building the viewer's index: %w", err)
		}
		if len(firsts) == 0 || firsts[len(firsts)-1] != id {
			firsts = append(firsts, id)
		}
	}
	if err := rows.Err(); err != nil {
		return nil, fmt.Errorf("building the viewer's index: %w", err)
	}
	if len(firsts) == 0 { // no traces: one part, of none
		return []queryPart{indexQuery(aligners, nil)}, nil
	}
	parts := make([]queryPart, len(firsts))
	for i, first := range firsts {
		bounds := []any{first}
		if i+1 < len(firsts) {
			bounds = append(bounds, firsts[i+1])
		}
		parts[i] = indexQuery(aligners, bounds)
	}
	return parts, nil
}

// indexAligners are the aligners that scored a trace (a best score), by
// name.
func indexAligners(ctx context.Context, db *duck.DB) ([]string, error) {
	rows, err := db.QueryContext(ctx, `SELECT DISTINCT aligner FROM scores WHERE best ORDER BY aligner`)
	if err != nil {
		return nil, fmt.Errorf("building the viewer's index: %w", err)
	}
	defer rows.Close()
	var aligners []string
	for rows.Next() {
		var a string
		if err := rows.Scan(&a); err != nil {
			return nil, fmt.Errorf("building the viewer's index: %w", err)
		}
		aligners = append(aligners, a)
	}
	if err := rows.Err(); err != nil {
		return nil, fmt.Errorf("building the viewer's index: %w", err)
	}
	return aligners, nil
}

// indexQuery is the query of the index's rows in trace-id order, with
// the columns writeColumns reads: view_traces (indexViews) and each
// aligner's best scores (the K-th aligner's joined as bK). bounds are the
// part's: its first trace id and, but for the last part, the next part's
// first (nil: every trace), each scan of indexViews restricted to them.
func indexQuery(aligners []string, bounds []any) queryPart {
	var in string
	switch len(bounds) {
	case 1:
		in = " AND %[1]s.trace_id >= $1"
	case 2:
		in = " AND %[1]s.trace_id >= $1 AND %[1]s.trace_id < $2"
	}
	views := partMark.ReplaceAllStringFunc(indexViews, func(mark string) string {
		if in == "" {
			return ""
		}
		return fmt.Sprintf(in, mark[2:len(mark)-2])
	})
	var b strings.Builder
	b.WriteString(views)
	b.WriteString("SELECT ")
	b.WriteString(indexColumns("vt.", aligners, func(k int, metric string) string { return fmt.Sprintf("b%d.%s", k, metric) }))
	b.WriteString("\nFROM view_traces vt")
	args := slices.Clone(bounds)
	for k, a := range aligners {
		args = append(args, a)
		fmt.Fprintf(&b, "\nLEFT JOIN view_best b%[1]d ON b%[1]d.trace_id = vt.trace_id AND b%[1]d.aligner = $%[2]d", k, len(args))
	}
	b.WriteString("\nORDER BY vt.trace_id")
	return queryPart{b.String(), args}
}

// partMark is where indexViews restricts a scan to a part: /*ALIAS*/.
var partMark = regexp.MustCompile(`/\*[a-z]+\*/`)

// indexColumns are the columns writeColumns reads, in its order: of
// view_traces (each named with prefix), then each aligner's CAR, PMF and
// HAR (score(k, metric) names them; NaN when the aligner did not score
// the trace).
func indexColumns(prefix string, aligners []string, score func(k int, metric string) string) string {
	var cols []string
	for _, c := range append(append([]string{"trace_id", "problem_id"}, facetCols[:]...), "level_ord", "direction_ord", "lang_ord", "problem_k", "seed", "tokens", "truncated", "aligners") {
		cols = append(cols, prefix+c)
	}
	for k := range aligners {
		for _, mt := range []string{"car", "pmf", "har"} {
			cols = append(cols, fmt.Sprintf("coalesce(%s, 'NaN')", score(k, mt)))
		}
	}
	return strings.Join(cols, ", ")
}

// writeRowFile writes the row file of the rows the parts' queries read
// (indexColumns, in trace-id order; count says how many and their ids'
// bytes) into f.
func writeRowFile(ctx context.Context, db *duck.DB, f *os.File, key string, aligners []string, count string, parts []queryPart) error {
	m := rowMeta{Format: rowFormat, Key: key, Dict: make([][]string, len(facetCols)), Scored: map[string]int{}, Aligners: aligners}
	if err := db.QueryRowContext(ctx, count).Scan(&m.N, &m.IDBytes); err != nil {
		return fmt.Errorf("building the viewer's index: %w", err)
	}
	m.Cols, m.End = rowLayout(m.N, m.IDBytes, len(m.Aligners))
	if err := f.Truncate(int64(m.End)); err != nil {
		return err
	}
	w := map[string]*colWriter{}
	for name, c := range m.Cols {
		w[name] = &colWriter{f: f, off: int64(c.Off)}
	}
	if err := writeColumns(ctx, db, &m, w, parts); err != nil {
		return err
	}
	for _, cw := range w {
		if err := cw.flush(); err != nil {
			return err
		}
	}
	if err := writeOrders(f, &m); err != nil {
		return err
	}
	meta, err := json.Marshal(&m)
	if err != nil {
		return err
	}
	if _, err := f.WriteAt(meta, int64(m.End)); err != nil {
		return err
	}
	metaLen := binary.LittleEndian.AppendUint64(nil, uint64(len(meta)))
	crc, err := crcOfFirst(f, int64(m.End)+int64(len(meta)))
	if err != nil {
		return err
	}
	crc = crc32.Update(crc, castagnoli, metaLen)
	trailer := binary.LittleEndian.AppendUint32(metaLen, crc)
	trailer = append(trailer, rowMagic...)
	if _, err := f.WriteAt(trailer, int64(m.End)+int64(len(meta))); err != nil {
		return err
	}
	return f.Sync()
}

// writeColumns reads the rows of the parts' queries (indexColumns, in
// trace-id order) into the columns, coding the facets, problems and sets of aligners as
// it goes.
func writeColumns(ctx context.Context, db *duck.DB, m *rowMeta, w map[string]*colWriter, parts []queryPart) error {
	var codes [len(facetCols)]map[string]int32
	for i := range codes {
		codes[i] = map[string]int32{}
	}
	problems, sets := map[string]int32{}, map[string]int32{}
	codeOf := func(of map[string]int32, v string, add func()) int32 {
		c, ok := of[v]
		if !ok {
			c = int32(len(of))
			of[v] = c
			add()
		}
		return c
	}
	u32 := func(name string, v uint32) { w[name].buf = binary.LittleEndian.AppendUint32(w[name].buf, v) }
	u64 := func(name string, v uint64) { w[name].buf = binary.LittleEndian.AppendUint64(w[name].buf, v) }
	var (
		id, problem, prev         string
		vals                      [len(facetCols)]string
		levelOrd, dirOrd, langOrd int64
		problemK, seed, tokens    int64
		truncated                 bool
		als                       []any
		scores                    = make([]float64, 3*len(m.Aligners))
		n, idEnd                  int
	)
	dest := []any{&id, &problem}
	for i := range vals {
		dest = append(dest, &vals[i])
	}
	dest = append(dest, &levelOrd, &dirOrd, &langOrd, &problemK, &seed, &tokens, &truncated, &als)
	for i := range scores {
		dest = append(dest, &scores[i])
	}
	readPart := func(part queryPart) error {
		if beforeIndexPart != nil {
			beforeIndexPart()
		}
		rows, err := db.QueryContext(ctx, part.query, part.args...)
		if err != nil {
			return fmt.Errorf("building the viewer's index: %w", err)
		}
		defer rows.Close()
		for rows.Next() {
			if err := ctx.Err(); err != nil {
				return err
			}
			als = nil
			if err := rows.Scan(dest...); err != nil {
				return fmt.Errorf("building the viewer's index: %w", err)
			}
			// Rows are found by binary search on the id: the order must be Go's.
			if n > 0 && id < prev {
				return fmt.Errorf("building the viewer's index: trace ids out of order (%q after %q)", id, prev)
			}
			prev = id
			if n++; n > m.N {
				return fmt.Errorf("building the viewer's index: more traces than counted")
			}
			for i, v := range vals {
				u32(facetCols[i], uint32(codeOf(codes[i], v, func() { m.Dict[i] = append(m.Dict[i], v) })))
			}
			u32(colProblem, uint32(codeOf(problems, problem, func() { m.Problems = append(m.Problems, problem) })))
			var set []string
			for _, a := range als {
				if s, ok := a.(string); ok {
					set = append(set, s)
				}
			}
			u32(colAlset, uint32(codeOf(sets, strings.Join(set, "\x00"), func() { m.AlignerSets = append(m.AlignerSets, set) })))
			for _, c := range []struct {
				name string
				v    int64
			}{{colLevelOrd, levelOrd}, {colDirOrd, dirOrd}, {colLangOrd, langOrd}} {
				if c.v != int64(int32(c.v)) {
					return fmt.Errorf("building the viewer's index: trace %q: %s %d out of range", id, c.name, c.v)
				}
				u32(c.name, uint32(c.v))
			}
			u64(colProblemK, uint64(problemK))
			u64(colSeed, uint64(seed))
			u64(colTokens, uint64(tokens))
			t := byte(0)
			if truncated {
				t = 1
			}
			w[colTruncated].buf = append(w[colTruncated].buf, t)
			for k := range m.Aligners {
				for mt := range metrics {
					u64(scoreCol(mt, k), math.Float64bits(scores[3*k+mt]))
				}
			}
			w[colIDs].buf = append(w[colIDs].buf, id...)
			idEnd += len(id)
			u64(colIDEnd, uint64(idEnd))
			for _, cw := range w {
				if err := cw.grew(); err != nil {
					return err
				}
			}
		}
		if err := rows.Err(); err != nil {
			return fmt.Errorf("building the viewer's index: %w", err)
		}
		return nil
	}
	for _, part := range parts {
		if err := readPart(part); err != nil {
			return err
		}
		// DuckDB's allocator keeps the pages a part's query freed (140-170
		// MB after a part of 16,384 traces at ten times the paper's design,
		// duckdb_memory() then 0), and the next part's query allocates on top
		// of them: the build's peak grew part after part, 176 to 231 MB.
		// Returned, every part starts from what the viewer holds.
		duck.ReleaseMemory()
	}
	if n != m.N || idEnd != m.IDBytes {
		return fmt.Errorf("building the viewer's index: %d traces of %d bytes of ids read, %d of %d counted", n, idEnd, m.N, m.IDBytes)
	}
	return nil
}

// writeOrders sorts every order's rows from the columns written (mapped
// from f) and writes them.
func writeOrders(f *os.File, m *rowMeta) error {
	data, err := mapFile(f, m.End)
	if err != nil {
		return err
	}
	defer unmapFile(data)
	rf := &rowFile{rowMeta: *m, data: data}
	rf.resolve()
	write := func(name string, order []int32) error {
		buf := make([]byte, 0, 4*len(order))
		for _, j := range order {
			buf = binary.LittleEndian.AppendUint32(buf, uint32(j))
		}
		_, err := f.WriteAt(buf, int64(m.Cols[name].Off))
		return err
	}
	for _, o := range keyOrders {
		order, _ := rf.sortRows(o, 0)
		if err := write(orderCol(o, 0), order); err != nil {
			return err
		}
		if o == "" {
			if err := write(colByProblem, byProblem(rf, order)); err != nil {
				return err
			}
		}
	}
	for k := range m.Aligners {
		for _, mt := range metrics {
			order, scored := rf.sortRows(mt.Param, k)
			m.Scored[orderCol(mt.Param, k)] = scored
			if err := write(orderCol(mt.Param, k), order); err != nil {
				return err
			}
		}
	}
	return nil
}

// byProblem is the rows grouped by problem (by code), each problem's in
// the order given: a trace page's list of its problem's traces reads its
// problem's rows, where a walk of the default order read every row (18
// ms of a page at 382,500 traces).
func byProblem(rf *rowFile, order []int32) []int32 {
	start := make([]int, len(rf.Problems)+1)
	for j := range rf.N {
		start[rf.u32(rf.problem, j)+1]++
	}
	for c := range rf.Problems {
		start[c+1] += start[c]
	}
	out := make([]int32, rf.N)
	for _, j := range order {
		c := rf.u32(rf.problem, int(j))
		out[start[c]] = j
		start[c]++
	}
	return out
}

// crcOfFirst is the CRC-32C of f's first size bytes.
func crcOfFirst(f *os.File, size int64) (uint32, error) {
	buf := make([]byte, 1<<20)
	var sum uint32
	for off := int64(0); off < size; {
		n, err := f.ReadAt(buf[:min(int64(len(buf)), size-off)], off)
		sum = crc32.Update(sum, castagnoli, buf[:n])
		off += int64(n)
		if err != nil && off < size {
			return 0, err
		}
	}
	return sum, nil
}
