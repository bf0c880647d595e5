package langcheck

import (
	"testing"
	"unicode/utf8"

	"github.com/datg/datg/internal/pipelinetest"
	"github.com/datg/datg/schema"
	"github.com/datg/datg/study"
	"github.com/datg/datg/transforms"
)

// One short reasoning (9 eggs left at 2 dollars: 18), translated: the same
// content is as long in every script, so lingua decides it in each, where
// it once called Chinese, Japanese and Korean too-short (their letters are
// a third to a half of English's) and passed Thai. The math-only tail of
// each is too short in every script.
func TestLinguaLengthRuleIsFairAcrossScripts(t *testing.T) {
	reasoning := map[string]string{
		"en": "We have 16 - 3 - 4 = 9 eggs left. Each sells for 2 dollars, so 9 × 2 = 18 dollars. Check: 3 + 4 = 7, 16 - 7 = 9. The answer is 18.",
		"fr": "Il reste 16 - 3 - 4 = 9 œufs. Chacun se vend 2 dollars, donc 9 × 2 = 18 dollars. Vérification : 3 + 4 = 7, 16 - 7 = 9. La réponse est 18.",
		"ru": "Осталось 16 - 3 - 4 = 9 яиц. Каждое продаётся за 2 доллара, поэтому 9 × 2 = 18 долларов. Проверка: 3 + 4 = 7, 16 - 7 = 9. Ответ: 18.",
		"zh": "剩下 16 - 3 - 4 = 9 个鸡蛋。每个卖 2 美元，所以 9 × 2 = 18 美元。检查：3 + 4 = 7，16 - 7 = 9。答案是 18。",
		"ja": "残りの卵は 16 - 3 - 4 = 9 個です。1個 2 ドルで売るので、9 × 2 = 18 ドルです。確認：3 + 4 = 7、16 - 7 = 9。答えは 18 です。",
		"ko": "남은 달걀은 16 - 3 - 4 = 9개입니다. 하나에 2달러에 팔므로 9 × 2 = 18달러입니다. 확인: 3 + 4 = 7, 16 - 7 = 9. 답은 18입니다.",
		"th": "เหลือไข่ 16 - 3 - 4 = 9 ฟอง ขายฟองละ 2 ดอลลาร์ ดังนั้น 9 × 2 = 18 ดอลลาร์ ตรวจสอบ: 3 + 4 = 7, 16 - 7 = 9 คำตอบคือ 18",
		"bn": "বাকি ডিম 16 - 3 - 4 = 9টি। প্রতিটি 2 ডলারে বিক্রি হয়, তাই 9 × 2 = 18 ডলার। যাচাই: 3 + 4 = 7, 16 - 7 = 9। উত্তর 18।",
		"te": "మిగిలిన గుడ్లు 16 - 3 - 4 = 9. ఒక్కొక్కటి 2 డాలర్లకు అమ్ముతారు, కాబట్టి 9 × 2 = 18 డాలర్లు. తనిఖీ: 3 + 4 = 7, 16 - 7 = 9. సమాధానం 18.",
	}
	tail := map[string]string{
		"en": "9 × 2 = 18. Answer 18.",
		"fr": "9 × 2 = 18. Réponse 18.",
		"ru": "9 × 2 = 18. Ответ 18.",
		"zh": "9 × 2 = 18。答案 18。",
		"ja": "9 × 2 = 18。答えは 18。",
		"ko": "9 × 2 = 18. 답은 18.",
		"th": "9 × 2 = 18 คำตอบ 18",
		"bn": "9 × 2 = 18। উত্তর 18।",
		"te": "9 × 2 = 18. సమాధానం 18.",
	}
	c, err := newChecker(string(study.Lingua))
	if err != nil {
		t.Fatal(err)
	}
	for lang, text := range reasoning {
		for _, tc := range []struct {
			what, text string
			want       study.ComplianceStatus
			compliant  bool
		}{{"reasoning", text, study.ComplianceOK, true}, {"tail", tail[lang], study.ComplianceTooShort, false}} {
			tr := trace(lang+"-"+tc.what, lang, tc.text)
			comp, _, err := c.check(&tr)
			if err != nil {
				t.Fatal(err)
			}
			t.Logf("%s %s: %d characters, %d letters: %s %s", lang, tc.what, utf8.RuneCountInString(tc.text), comp.Chars, comp.Status, comp.Detected)
			pipelinetest.CheckFields(t, lang+" "+tc.what,
				pipelinetest.Field("length", lengthOf(comp), transforms.TextLength(reasoningText(&tr))),
				pipelinetest.Field("status", comp.Status, string(tc.want)),
				pipelinetest.Field("compliant", comp.Compliant, tc.compliant))
		}
	}
}

// lengthOf is the row's length column (-1 when null, as in older runs).
func lengthOf(c schema.Compliance) int {
	if c.Length == nil {
		return -1
	}
	return int(*c.Length)
}

// reasoningText is reasoningOf's text, as it was computed before the
// stripping counted letters: the oracle the tests compare with.
func reasoningText(t *schema.Trace) string {
	return transforms.StripMath(transforms.ReasoningText(t.Text, t.Prefix))
}
