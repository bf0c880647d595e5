package duck

import (
	"encoding/json"
	"io"
	"math"
	"strconv"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
)

// DuckDB stores infinite dates and timestamps as the largest and smallest
// values of their integers (date_t::infinity() and ninfinity(),
// timestamp_t's likewise: ±NumericLimits<T>::Maximum()), and passes them to
// Arrow as they are, where they would print as 5881580-07-11 or
// 9223372036854775807.
const (
	infiniteDate      = math.MaxInt32
	infiniteTimestamp = math.MaxInt64
)

// special is the text of a value Arrow's text would get wrong (an infinite
// date or timestamp, an infinite or NaN float) as DuckDB casts it to
// VARCHAR, and whether the value is one.
func special(col arrow.Array, i int) (string, bool) {
	switch c := col.(type) {
	case *array.Float64:
		return specialFloat(c.Value(i))
	case *array.Float32:
		return specialFloat(float64(c.Value(i)))
	case *array.Date32:
		return infinity(int64(c.Value(i)), infiniteDate)
	case *array.Timestamp:
		return infinity(int64(c.Value(i)), infiniteTimestamp)
	}
	return "", false
}

func specialFloat(v float64) (string, bool) {
	switch {
	case math.IsNaN(v):
		return "nan", true
	case math.IsInf(v, 1):
		return "inf", true
	case math.IsInf(v, -1):
		return "-inf", true
	}
	return "", false
}

func infinity(v, inf int64) (string, bool) {
	switch v {
	case inf:
		return "infinity", true
	case -inf:
		return "-infinity", true
	}
	return "", false
}

// valueString is a value's text in table and CSV output.
func valueString(col arrow.Array, i int) string {
	if s, ok := special(col, i); ok {
		return s
	}
	return col.ValueStr(i)
}

// writeJSON writes each row of rec as one JSON object, its columns in
// order. A special value is a string (JSON has no infinite numbers); any
// other is as Arrow marshals it.
func writeJSON(rec arrow.RecordBatch, w io.Writer) error {
	fields := rec.Schema().Fields()
	names := make([][]byte, len(fields))
	for j, f := range fields {
		b, err := json.Marshal(f.Name)
		if err != nil {
			return err
		}
		names[j] = b
	}
	var line []byte
	for i := 0; i < int(rec.NumRows()); i++ {
		line = append(line[:0], '{')
		for j, col := range rec.Columns() {
			if j > 0 {
				line = append(line, ',')
			}
			line = append(append(line, names[j]...), ':')
			switch s, ok := special(col, i); {
			case col.IsNull(i):
				line = append(line, "null"...)
			case ok:
				line = strconv.AppendQuote(line, s)
			default:
				b, err := json.Marshal(col.GetOneForMarshal(i))
				if err != nil {
					return err
				}
				line = append(line, b...)
			}
		}
		line = append(line, '}', '\n')
		if _, err := w.Write(line); err != nil {
			return err
		}
	}
	return nil
}
