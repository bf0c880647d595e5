package view

import (
	"context"
	"encoding/binary"
	"encoding/json"
	"fmt"
	"hash/crc32"
	"math"
	"os"
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

// buildRows writes the generation's row file into f (empty): DuckDB
// builds indexSQL's tables, and their rows are read in trace-id order,
// one at a time, into the columns; then each order's column is sorted
// from the file. Only the dictionaries and one order at a time (4 bytes
// a row, while it is sorted) are in the Go heap.
func buildRows(ctx context.Context, db *duck.DB, f *os.File, key string) error {
	defer func() {
		for _, t := range []string{"view_traces", "view_best", "view_verdicts", "view_detections"} {
			db.ExecContext(context.WithoutCancel(ctx), "DROP TABLE IF EXISTS "+t)
		}
	}()
	m := rowMeta{Format: rowFormat, Key: key, Dict: make([][]string, len(facetCols)), Scored: map[string]int{}}
	var err error
	if m.Aligners, err = buildIndexTables(ctx, db); err != nil {
		return err
	}
	if err := db.QueryRowContext(ctx, `SELECT count(*), coalesce(sum(strlen(trace_id)), 0) FROM view_traces`).Scan(&m.N, &m.IDBytes); err != nil {
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
	if err := writeColumns(ctx, db, &m, w); err != nil {
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

// buildIndexTables makes indexSQL's tables in DuckDB, each aligner's
// scores as columns of view_traces (car_K, pmf_K, har_K for the K-th
// aligner by name), and says the aligners.
func buildIndexTables(ctx context.Context, db *duck.DB) ([]string, error) {
	for _, s := range indexSQL {
		if _, err := db.ExecContext(ctx, s); err != nil {
			return nil, fmt.Errorf("building the viewer's index: %w", err)
		}
	}
	// view_traces holds the verdicts and detections now: their tables'
	// memory is DuckDB's again for what follows (the build runs under
	// viewMemory).
	for _, t := range []string{"view_verdicts", "view_detections"} {
		if _, err := db.ExecContext(ctx, "DROP TABLE "+t); err != nil {
			return nil, fmt.Errorf("building the viewer's index: %w", err)
		}
	}
	rows, err := db.QueryContext(ctx, `SELECT DISTINCT aligner FROM view_best ORDER BY aligner`)
	if err != nil {
		return nil, err
	}
	var aligners []string
	for rows.Next() {
		var a string
		if err := rows.Scan(&a); err != nil {
			rows.Close()
			return nil, err
		}
		aligners = append(aligners, a)
	}
	rows.Close()
	if err := rows.Err(); err != nil {
		return nil, err
	}
	for k, a := range aligners {
		stmts := []string{
			fmt.Sprintf(`ALTER TABLE view_traces ADD COLUMN car_%d DOUBLE`, k),
			fmt.Sprintf(`ALTER TABLE view_traces ADD COLUMN pmf_%d DOUBLE`, k),
			fmt.Sprintf(`ALTER TABLE view_traces ADD COLUMN har_%d DOUBLE`, k),
			fmt.Sprintf(`UPDATE view_traces SET car_%[1]d = b.car, pmf_%[1]d = b.pmf, har_%[1]d = b.har
				FROM view_best b WHERE b.trace_id = view_traces.trace_id AND b.aligner = ?`, k),
		}
		for i, s := range stmts {
			var args []any
			if i == len(stmts)-1 {
				args = []any{a}
			}
			if _, err := db.ExecContext(ctx, s, args...); err != nil {
				return nil, fmt.Errorf("building the viewer's index: %w", err)
			}
		}
	}
	if _, err := db.ExecContext(ctx, "DROP TABLE view_best"); err != nil {
		return nil, fmt.Errorf("building the viewer's index: %w", err)
	}
	return aligners, nil
}

// writeColumns reads view_traces in trace-id order into the columns,
// coding the facets, problems and sets of aligners as it goes.
func writeColumns(ctx context.Context, db *duck.DB, m *rowMeta, w map[string]*colWriter) error {
	cols := append(append([]string{"trace_id", "problem_id"}, facetCols[:]...), "level_ord", "direction_ord", "lang_ord", "problem_k", "seed", "tokens", "truncated", "aligners")
	for k := range m.Aligners {
		cols = append(cols, fmt.Sprintf("coalesce(car_%[1]d, 'NaN'), coalesce(pmf_%[1]d, 'NaN'), coalesce(har_%[1]d, 'NaN')", k))
	}
	rows, err := db.QueryContext(ctx, "SELECT "+strings.Join(cols, ", ")+" FROM view_traces ORDER BY trace_id")
	if err != nil {
		return fmt.Errorf("building the viewer's index: %w", err)
	}
	defer rows.Close()
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
