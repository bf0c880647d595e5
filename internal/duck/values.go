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

// valueString is a value's text in table and CSV output; a struct, list
// or map is written as JSON, its fields in order.
func valueString(col arrow.Array, i int) string {
	if s, ok := special(col, i); ok {
		return s
	}
	switch col.(type) {
	case *array.Struct, array.ListLike:
		if b, err := appendJSON(nil, col, i); err == nil {
			return string(b)
		}
	}
	return col.ValueStr(i)
}

// writeJSON writes each row of rec as one JSON object, its columns in
// order (appendJSON).
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
	var err error
	for i := 0; i < int(rec.NumRows()); i++ {
		line = append(line[:0], '{')
		for j, col := range rec.Columns() {
			if j > 0 {
				line = append(line, ',')
			}
			line = append(append(line, names[j]...), ':')
			if line, err = appendJSON(line, col, i); err != nil {
				return err
			}
		}
		line = append(line, '}', '\n')
		if _, err := w.Write(line); err != nil {
			return err
		}
	}
	return nil
}

// appendJSON appends the JSON of col's value i: a struct's fields and a
// list's or map's items in their order, each as this says (Arrow's own
// JSON of a struct is a Go map, whose keys encoding/json sorts); a special
// value as a string (JSON has no infinite numbers), at any depth; any
// other value as Arrow marshals it.
func appendJSON(b []byte, col arrow.Array, i int) ([]byte, error) {
	if col.IsNull(i) {
		return append(b, "null"...), nil
	}
	if s, ok := special(col, i); ok {
		return strconv.AppendQuote(b, s), nil
	}
	var err error
	switch c := col.(type) {
	case *array.Struct:
		b = append(b, '{')
		for k, f := range c.DataType().(*arrow.StructType).Fields() {
			if k > 0 {
				b = append(b, ',')
			}
			name, err := json.Marshal(f.Name)
			if err != nil {
				return nil, err
			}
			b = append(append(b, name...), ':')
			if b, err = appendJSON(b, c.Field(k), i); err != nil {
				return nil, err
			}
		}
		return append(b, '}'), nil
	case array.ListLike: // lists, and maps as lists of {"key", "value"}
		start, end := c.ValueOffsets(i)
		items := c.ListValues()
		b = append(b, '[')
		for j := start; j < end; j++ {
			if j > start {
				b = append(b, ',')
			}
			if b, err = appendJSON(b, items, int(j)); err != nil {
				return nil, err
			}
		}
		return append(b, ']'), nil
	}
	v, err := json.Marshal(col.GetOneForMarshal(i))
	if err != nil {
		return nil, err
	}
	return append(b, v...), nil
}
