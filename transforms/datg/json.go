package datg

import (
	"bytes"
	"encoding/json"
)

// EncodeJSON encodes a DAG or an alignment as compact JSON without HTML
// escaping (so < and & stay readable for a model). v must be plain data,
// which cannot fail to encode.
func EncodeJSON(v any) string {
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(v); err != nil {
		panic("datg: encoding JSON: " + err.Error())
	}
	return string(bytes.TrimSpace(b.Bytes()))
}
