package simulate

import (
	"bytes"
	"encoding/json"
)

// mustJSON encodes plain data without HTML escaping.
func mustJSON(v any) string {
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(v); err != nil {
		panic("simulate: encoding JSON: " + err.Error())
	}
	return string(bytes.TrimSpace(b.Bytes()))
}
