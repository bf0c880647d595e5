package view

import (
	"regexp"

	"github.com/datg/datg/study"
)

// Model text is marked with its language (an HTML lang attribute), so a
// browser draws it in that language's forms: the same Han character is
// drawn differently in Japanese and in Chinese, and a font holding both
// (Noto CJK) picks its forms by the text's language, not the page's (en).

// langTag is a language code of the run as a BCP 47 tag for a lang
// attribute: the study's languages by their ISO 639-1 code, Chinese with
// its script (the study's is Simplified: zh-Hans); another code when it is
// a well-formed tag (a language and subtags), else "" (HTML: unknown), so a
// hostile or malformed value never reaches the attribute as a language.
func langTag(code string) string {
	if l, err := study.LookupLanguage(code); err == nil {
		if l.Script == study.HanSimp {
			return l.Code + "-" + string(l.Script)
		}
		return l.Code
	}
	if wellFormedTag.MatchString(code) {
		return code
	}
	return ""
}

// wellFormedTag is the shape of a BCP 47 tag's language and subtags (RFC
// 5646 2.1, without its grandfathered and private-use forms).
var wellFormedTag = regexp.MustCompile(`^[A-Za-z]{2,8}(-[A-Za-z0-9]{1,8})*$`)
