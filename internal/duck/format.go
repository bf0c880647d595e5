package duck

import (
	"context"
	"encoding/csv"
	"fmt"
	"io"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
)

// Output formats of a query.
const (
	FormatTable = "table" // aligned columns for a terminal; long cells are cut, control characters escaped
	FormatCSV   = "csv"   // RFC 4180 with a header row
	FormatJSON  = "json"  // one JSON object a line
)

// WriteQuery runs a user's query (queries only: see CheckQuery) and writes
// its result to w in the given format. The query stops, with ErrInterrupted,
// when ctx is cancelled, and with ErrTimeout past the database's
// Limits.Timeout.
//
// Values print as DuckDB casts them to text where Arrow's text differs:
// infinite and NaN floating-point numbers are inf, -inf and nan (strings in
// JSON, which has no such numbers), infinite dates and timestamps infinity
// and -infinity.
func WriteQuery(ctx context.Context, db *DB, query, format string, w io.Writer) error {
	switch format {
	case FormatTable, FormatCSV, FormatJSON:
	default:
		return fmt.Errorf("unknown format %q (table, csv or json)", format)
	}
	ctx, cancel := db.withTimeout(ctx)
	defer cancel()
	return db.queryError(ctx, writeQuery(ctx, db, query, format, w))
}

func writeQuery(ctx context.Context, db *DB, query, format string, w io.Writer) error {
	if err := db.CheckQuery(ctx, query); err != nil {
		return err
	}
	rr, err := db.Arrow(ctx, query)
	if err != nil {
		return err
	}
	defer rr.Release()
	switch format {
	case FormatJSON:
		for rr.Next() {
			if err := writeJSON(rr.RecordBatch(), w); err != nil {
				return err
			}
		}
		return rr.Err()
	case FormatCSV:
		cw := csv.NewWriter(w)
		cw.Write(fieldNames(rr.Schema()))
		for rr.Next() {
			rec := rr.RecordBatch()
			for i := 0; i < int(rec.NumRows()); i++ {
				row := make([]string, rec.NumCols())
				for j, col := range rec.Columns() {
					if !col.IsNull(i) {
						row[j] = valueString(col, i)
					}
				}
				cw.Write(row)
			}
		}
		cw.Flush()
		if err := cw.Error(); err != nil {
			return err
		}
		return rr.Err()
	}
	return writeTable(rr, w)
}

func fieldNames(s *arrow.Schema) []string {
	names := make([]string, s.NumFields())
	for i, f := range s.Fields() {
		names[i] = f.Name
	}
	return names
}

// maxCell bounds a cell in table output; the full value is one --format away.
const maxCell = 60

func writeTable(rr array.RecordReader, w io.Writer) error {
	rows := [][]string{fieldNames(rr.Schema())}
	for rr.Next() {
		rec := rr.RecordBatch()
		for i := 0; i < int(rec.NumRows()); i++ {
			row := make([]string, rec.NumCols())
			for j, col := range rec.Columns() {
				if col.IsNull(i) {
					row[j] = "NULL"
				} else {
					row[j] = cell(valueString(col, i))
				}
			}
			rows = append(rows, row)
		}
	}
	if err := rr.Err(); err != nil {
		return err
	}
	widths := make([]int, len(rows[0]))
	for _, r := range rows {
		for j, c := range r {
			widths[j] = max(widths[j], utf8.RuneCountInString(c))
		}
	}
	var b strings.Builder
	for i, r := range rows {
		for j, c := range r {
			if j > 0 {
				b.WriteString("  ")
			}
			b.WriteString(c)
			if j < len(r)-1 {
				b.WriteString(strings.Repeat(" ", widths[j]-utf8.RuneCountInString(c)))
			}
		}
		b.WriteString("\n")
		if i == 0 {
			for j, wd := range widths {
				if j > 0 {
					b.WriteString("  ")
				}
				b.WriteString(strings.Repeat("-", wd))
			}
			b.WriteString("\n")
		}
	}
	fmt.Fprintf(&b, "(%d row%s)\n", len(rows)-1, map[bool]string{true: "", false: "s"}[len(rows) == 2])
	_, err := io.WriteString(w, b.String())
	return err
}

// cell makes a value safe and short for a terminal: control characters
// (newlines, escape sequences a model may have written) are shown escaped.
func cell(s string) string {
	var b strings.Builder
	n := 0
	for _, r := range s {
		if n >= maxCell {
			b.WriteString("…")
			break
		}
		switch {
		case r == '\n':
			b.WriteString(`\n`)
		case r == '\t':
			b.WriteString(`\t`)
		case unicode.IsControl(r) || r == utf8.RuneError:
			fmt.Fprintf(&b, `\x%02x`, r)
		default:
			b.WriteRune(r)
		}
		n++
	}
	return b.String()
}
