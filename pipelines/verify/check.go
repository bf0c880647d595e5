package verify

import (
	"context"
	"encoding/json"
	"fmt"
	"io"

	"github.com/datg/datg/internal/jsonl"
	"github.com/datg/datg/transforms/mathverify"
)

// checkRequest is one input line of `datg answers check`.
type checkRequest struct {
	Gold *string `json:"gold"`
	Pred *string `json:"pred"`
}

// checkResult is one output line.
type checkResult struct {
	Correct   bool   `json:"correct"`
	Extracted string `json:"extracted"`
	Reason    string `json:"reason"`
	Where     string `json:"where,omitempty"`
	Error     string `json:"error,omitempty"`
}

// CheckLines reads JSONL {"gold": ..., "pred": ...} from r and writes one
// JSON verdict of the named grader per input line, in order, to w. A line that is not such an
// object gets {"correct": false, "error": ...} and the rest go on.
func CheckLines(ctx context.Context, graderName string, r io.Reader, w io.Writer) (lines int, err error) {
	gr, err := lookupGrader(graderName)
	if err != nil {
		return 0, err
	}
	check := gr.newCheck()
	dec := new(requestDecoder)
	if check.text != nil {
		dec.text = new(mathverify.Text)
	}
	return jsonl.Map(ctx, r, w, func(n int, line []byte) (any, bool) { return checkLine(check, dec, line, n), false })
}

func checkLine(check pairCheck, dec *requestDecoder, line []byte, n int) checkResult {
	if gold, pred, ok := dec.decodePlainRequest(line); ok {
		var v verdict
		if dec.text != nil {
			v = check.text(gold, dec.text)
		} else {
			v = check.bytes(gold, pred)
		}
		return checkResult{Correct: v.Correct, Extracted: v.Extracted, Reason: v.Reason, Where: v.Where}
	}
	var req checkRequest
	if err := json.Unmarshal(line, &req); err != nil {
		return checkResult{Reason: "bad-input", Error: fmt.Sprintf("line %d: %v", n, err)}
	}
	if req.Gold == nil || req.Pred == nil {
		return checkResult{Reason: "bad-input", Error: fmt.Sprintf(`line %d: needs "gold" and "pred" strings`, n)}
	}
	v := check.bytes(*req.Gold, []byte(*req.Pred))
	return checkResult{Correct: v.Correct, Extracted: v.Extracted, Reason: v.Reason, Where: v.Where}
}
