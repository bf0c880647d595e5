package datg

import (
	"errors"
	"fmt"
	"strings"
)

// ErrEdgeKey means a text is not an edge key (see Edge.Key).
var ErrEdgeKey = errors.New("not an edge key")

// edgeKeyEscaper writes an id inside an edge key.
var edgeKeyEscaper = strings.NewReplacer(`\`, `\\`, `>`, `\>`)

// Key is the edge's text key, as the annotations file and table write it:
// parent>child, with a ">" or "\" inside an id written "\>" or "\\".
// Node ids may hold ">", so the plain join would give a -> b>c and
// a>b -> c one key; escaped, two edges never share one. An id without
// either character is written as it is ("n1>n2").
func (e Edge) Key() string {
	return edgeKeyEscaper.Replace(e.Parent) + ">" + edgeKeyEscaper.Replace(e.Child)
}

// ParseEdgeKey reads a key written by Edge.Key: exactly one ">" not
// escaped, and "\" only before ">" or "\".
func ParseEdgeKey(key string) (Edge, error) {
	var ids [2]strings.Builder
	part := 0
	for i := 0; i < len(key); i++ {
		switch c := key[i]; {
		case c == '\\' && i+1 < len(key) && (key[i+1] == '\\' || key[i+1] == '>'):
			ids[part].WriteByte(key[i+1])
			i++
		case c == '\\':
			return Edge{}, fmt.Errorf(`%w: %q: "\" is written "\\" inside an id`, ErrEdgeKey, key)
		case c == '>' && part == 1:
			return Edge{}, fmt.Errorf(`%w: %q: more than one ">" (a ">" inside an id is written "\>")`, ErrEdgeKey, key)
		case c == '>':
			part = 1
		default:
			ids[part].WriteByte(c)
		}
	}
	if part == 0 {
		return Edge{}, fmt.Errorf(`%w: %q has no ">" (write parent>child)`, ErrEdgeKey, key)
	}
	return Edge{Parent: ids[0].String(), Child: ids[1].String()}, nil
}

// LegacyEdgeKeyReadings are the edges an edge key of the old form (ids
// joined by ">" as they are, no escapes) may name: one for each ">" it
// holds, split there.
func LegacyEdgeKeyReadings(key string) []Edge {
	var out []Edge
	for i := range len(key) {
		if key[i] == '>' {
			out = append(out, Edge{Parent: key[:i], Child: key[i+1:]})
		}
	}
	return out
}
