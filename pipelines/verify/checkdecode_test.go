package verify

import (
	"encoding/json"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/datg/datg/internal/jsonstr"
	"github.com/datg/datg/transforms/mathverify"
)

// plainRequestLines are lines the fast reader takes (the usual ones, as
// encoders and people write them) and lines it must leave to
// encoding/json: other members, other types, \u escapes, invalid UTF-8,
// control characters, keys in other cases, repeats, trailing text.
var plainRequestLines = []struct {
	line  string
	plain bool
}{
	{`{"gold": "140892", "pred": "so the answer is $\\boxed{140,892}$"}` + "\n", true},
	{`{"gold":"444","pred":"Therefore, the answer is $\\boxed{444 \\text{ dollars}}$"}`, true},
	{" \t{ \"pred\" : \"x\\ny\\t\\\"q\\\"\\/\\b\\f\\r\\\\\" ,\"gold\":\"答案是 12\" }\r\n", true},
	{`{"gold": "", "pred": ""}`, true},
	{`{"gold": "1", "pred": "2", "note": "x"}`, false},
	{`{"gold": "1"}`, false},
	{`{"gold": null, "pred": "2"}`, false},
	{`{"gold": 1, "pred": "2"}`, false},
	{`{"gold": "\u00e9", "pred": "2"}`, false},
	{"{\"gold\": \"\xff\", \"pred\": \"2\"}", false},
	{"{\"gold\": \"a\tb\", \"pred\": \"2\"}", false},
	{`{"Gold": "1", "pred": "2"}`, false},
	{`{"gold": "1", "gold": "3", "pred": "2"}`, false},
	{`{"gold": "1", "pred": "2"} x`, false},
	{`{"gold": "1", "pred": "2"`, false},
	{`{"gold": "1\q", "pred": "2"}`, false},
	{`[]`, false},
	{``, false},
}

// The fast reader takes the usual lines and gives what encoding/json
// gives for them; it leaves every other line to encoding/json. So does
// the reader that decodes the prediction into a mathverify.Text.
func TestPlainRequestDecodesAsJSON(t *testing.T) {
	dec := new(requestDecoder) // one for all lines, as CheckLines keeps one
	textDec := &requestDecoder{text: new(mathverify.Text)}
	for _, c := range plainRequestLines {
		gold, pred, ok := dec.decodePlainRequest([]byte(c.line))
		if ok != c.plain {
			t.Errorf("%q: taken by the fast reader: %v, want %v", c.line, ok, c.plain)
			continue
		}
		if ok {
			requireAsJSON(t, c.line, gold, string(pred))
		}
		requireTextAsBytes(t, textDec, c.line, gold, string(pred), ok)
	}
}

// requireTextAsBytes fails unless the reader that decodes the prediction
// into a Text takes the line if and only if the one into bytes did
// (gold, pred, ok), and reads the same gold and prediction.
func requireTextAsBytes(t *testing.T, dec *requestDecoder, line, gold, pred string, ok bool) {
	t.Helper()
	tgold, tpred, tok := dec.decodePlainRequest([]byte(line))
	if tok != ok || tpred != nil {
		t.Fatalf("%q: taken with a Text: %v (pred %q), into bytes: %v", line, tok, tpred, ok)
	}
	if ok && (tgold != gold || dec.text.String() != pred) {
		t.Fatalf("%q: read with a Text as {gold %q, pred %q}, into bytes as {gold %q, pred %q}", line, tgold, dec.text.String(), gold, pred)
	}
}

func requireAsJSON(t *testing.T, line, gold, pred string) {
	t.Helper()
	var req checkRequest
	if err := json.Unmarshal([]byte(line), &req); err != nil {
		t.Fatalf("%q: read as {gold %q, pred %q}, json says %v", line, gold, pred, err)
	}
	if req.Gold == nil || req.Pred == nil || *req.Gold != gold || *req.Pred != pred {
		t.Fatalf("%q: read as {gold %q, pred %q}, json reads %+v", line, gold, pred, req)
	}
}

func FuzzPlainRequestDecodesAsJSON(f *testing.F) {
	for _, c := range plainRequestLines {
		f.Add(c.line)
	}
	dec := new(requestDecoder)
	textDec := &requestDecoder{text: new(mathverify.Text)}
	f.Fuzz(func(t *testing.T, line string) {
		gold, pred, ok := dec.decodePlainRequest([]byte(line))
		if ok {
			requireAsJSON(t, line, gold, string(pred))
		}
		requireTextAsBytes(t, textDec, line, gold, string(pred), ok)
	})
}

// jsonStringPieces are what a JSON string's bytes can be, for the
// generated strings: plain ASCII, each byte the decoder must stop at
// (quote, every escape, a \u escape, a control byte), runes of one to
// four bytes, and ill-formed UTF-8 (a lone continuation byte, a cut
// sequence, an overlong form, a surrogate, a rune past U+10FFFF, the
// bytes 0xc0, 0xf5 and 0xff).
var jsonStringPieces = []string{
	"a", "x", "12", " ", "~", "\x7f", "!#[]{}",
	`"`, `\\`, `\"`, `\/`, `\b`, `\f`, `\n`, `\r`, `\t`, `\u00e9`, `\q`, `\`,
	"\x00", "\x1f", "\t", "\n",
	"é", "ж", "中", "ไ", "\uFFFD", "😀", "\U0010FFFF",
	"\x80", "\xbf", "\xc3", "\xe4\xb8", "\xf0\x9f\x98", "\xc0\xaf", "\xe0\x80\xaf",
	"\xed\xa0\x80", "\xf4\x90\x80\x80", "\xf5", "\xff",
}

// randomJSONString is a quote and then n pieces, most of them plain ASCII
// so that runs of every length up to a few words come between the bytes
// that matter.
func randomJSONString(r *rand.Rand, n int) []byte {
	var sb strings.Builder
	sb.WriteByte('"')
	for k := 0; k < n; k++ {
		if r.IntN(3) > 0 {
			sb.WriteString(strings.Repeat("a", r.IntN(20)))
			continue
		}
		sb.WriteString(jsonStringPieces[r.IntN(len(jsonStringPieces))])
	}
	return []byte(sb.String())
}

// requireStringAsByByte fails unless the fast decoder reads the string at
// b[i] as the byte-at-a-time one does.
func requireStringAsByByte(t *testing.T, buf *[]byte, b []byte, i int) {
	t.Helper()
	bs, next, ok := plainJSONString(b, i, buf)
	s := string(bs)
	ws, wnext, wok := jsonstr.ByByte(b, i)
	if s != ws || next != wnext || ok != wok {
		t.Fatalf("%q from %d: read as (%q, %d, %v), byte by byte (%q, %d, %v)", b, i, s, next, ok, ws, wnext, wok)
	}
}

// The decoder that skips eight bytes at a time reads every string as the
// byte-at-a-time one did: each piece at each offset from the opening
// quote (so at each byte of a word), and generated strings of every
// piece, read whole and cut at every length.
func TestPlainJSONStringAsByByte(t *testing.T) {
	var dec []byte // the buffer, reused as CheckLines reuses it
	for _, p := range jsonStringPieces {
		for pad := 0; pad <= 17; pad++ {
			for _, tail := range []string{`"`, `x"`, `"rest`, ``, strings.Repeat("b", 9) + `"`} {
				b := []byte(`"` + strings.Repeat("a", pad) + p + tail)
				requireStringAsByByte(t, &dec, b, 0)
				requireStringAsByByte(t, &dec, append([]byte(`{"gold": `), b...), 9)
			}
		}
	}
	r := rand.New(rand.NewPCG(23, 5))
	for k := 0; k < 20_000; k++ {
		b := append(randomJSONString(r, r.IntN(30)), '"')
		requireStringAsByByte(t, &dec, b, 0)
		for cut := 0; cut < len(b) && k%20 == 0; cut++ {
			requireStringAsByByte(t, &dec, b[:cut], 0)
		}
	}
}

func FuzzPlainJSONStringAsByByte(f *testing.F) {
	for _, p := range jsonStringPieces {
		f.Add([]byte(`"abcdefg` + p + `hijklmnop"`))
	}
	var dec []byte
	f.Fuzz(func(t *testing.T, b []byte) {
		for i := 0; i < len(b) && i < 9; i++ {
			requireStringAsByByte(t, &dec, b, i)
		}
	})
}
