package datg

import (
	"bytes"
	"encoding/json"
)

// EncodeJSON encodes a DAG or an alignment as compact JSON without HTML
// escaping (so < and & stay readable for a model).
func EncodeJSON(v any) string { return mustJSON(v) }

// mustJSON encodes plain data (which cannot fail) without HTML escaping.
func mustJSON(v any) string {
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(v); err != nil {
		panic("datg: encoding JSON: " + err.Error())
	}
	return string(bytes.TrimSpace(b.Bytes()))
}
