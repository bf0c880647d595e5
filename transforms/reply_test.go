package transforms

import "testing"

func TestAnswerPart(t *testing.T) {
	for _, c := range []struct{ reply, want string }{
		{`{"a": 1}`, `{"a": 1}`},
		{"<think>\nmaybe {\"a\": 0}\n</think>\n\n{\"a\": 1}", "\n\n{\"a\": 1}"},
		{"thinking {\"a\": 0}</think>{\"a\": 1}", `{"a": 1}`},
		{"<think>\ncut off {\"a\": 0}", "<think>\ncut off {\"a\": 0}"},
		{"</think></think>x", "</think>x"},
	} {
		if got := AnswerPart(c.reply); got != c.want {
			t.Errorf("AnswerPart(%q) = %q, want %q", c.reply, got, c.want)
		}
	}
}
