package transforms

import (
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"strconv"
	"strings"
	"unsafe"

	"github.com/datg/datg/study"
)

// TraceKey is what identifies a trace: one per (model, input language,
// reasoning language, level, problem, seed, method).
type TraceKey struct {
	Model, InputLang, ReasoningLang, Level, ProblemID string
	Seed                                              int64
	Method                                            string
}

// TraceID derives the trace's id deterministically from its key, so a trace
// imported twice or regenerated keeps its id.
func TraceID(k TraceKey) string {
	h := sha256.New()
	for _, part := range []string{k.Model, k.InputLang, k.ReasoningLang, k.Level, k.ProblemID, strconv.FormatInt(k.Seed, 10), k.Method} {
		h.Write([]byte(part))
		h.Write([]byte{0})
	}
	return "t" + hex.EncodeToString(h.Sum(nil))[:16]
}

// TextHash identifies a trace's text: the first 16 hex digits of its
// SHA-256. Stages that derive data from a trace record it, so data derived
// from an older text is recognized as stale.
func TextHash(text string) string {
	// The text's bytes are hashed where they are: Sum256 only reads them,
	// and []byte(text) copied the whole text (at real lengths, a trace's
	// size in garbage for each stage that hashes it).
	sum := sha256.Sum256(unsafe.Slice(unsafe.StringData(text), len(text)))
	return hex.EncodeToString(sum[:8])
}

// ProblemID is the language-independent id of problem k of a level.
func ProblemID(level string, k int) string { return level + "-" + strconv.Itoa(k) }

// ParseProblemID splits "{level}-{k}".
func ParseProblemID(id string) (level string, k int, err error) {
	i := strings.LastIndexByte(id, '-')
	if i <= 0 {
		return "", 0, fmt.Errorf("problem id %q is not {level}-{k}", id)
	}
	level = id[:i]
	k, err = strconv.Atoi(id[i+1:])
	if err != nil || k < 0 || !study.ValidLevel(level) {
		return "", 0, fmt.Errorf("problem id %q is not {level}-{k}", id)
	}
	return level, k, nil
}
