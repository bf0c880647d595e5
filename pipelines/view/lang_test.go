package view

import (
	"fmt"
	"html"
	"regexp"
	"testing"

	"golang.org/x/text/language"

	"github.com/datg/datg/internal/store"
	"github.com/datg/datg/schema"
	"github.com/datg/datg/study"
)

// studyTags are the lang attributes of the study's twelve languages
// (study/language.go: ISO 639-1 codes; Chinese is Simplified).
var studyTags = map[string]string{"en": "en", "fr": "fr", "ru": "ru", "zh": "zh-Hans", "ja": "ja", "ko": "ko",
	"id": "id", "ms": "ms", "th": "th", "bn": "bn", "sw": "sw", "te": "te"}

// Model text carries its language: a trace's text, extracted answers and
// harmful spans its reasoning language's tag, valid BCP 47 for each of the
// study's languages (and its script for Chinese); the DAGs en; a code
// that is no tag (hostile) the unknown language (""), escaped.
func TestModelTextHasItsLanguage(t *testing.T) {
	if len(studyTags) != len(study.Languages()) {
		t.Fatalf("%d tags for %d languages", len(studyTags), len(study.Languages()))
	}
	dir := writeRun(t, 0)
	traces, err := store.ReadAll(dir, schema.Traces)
	if err != nil {
		t.Fatal(err)
	}
	langs := append(study.LanguageCodes(), hostile, "x-"+hostile, "de-CH")
	for i, code := range langs {
		traces = append(traces, schema.Trace{TraceID: fmt.Sprintf("lang-%02d", i), Model: "m", Direction: "en-x", InputLang: "en",
			ReasoningLang: code, Level: "low", ProblemID: "low-0", Method: "base", Text: scriptSamples[code] + " text", TextHash: "h"})
	}
	if err := store.WriteAll(dir, schema.Traces, store.Meta{}, traces); err != nil {
		t.Fatal(err)
	}
	ts := serve(t, dir)
	textLang := regexp.MustCompile(`<div class="trace-text" lang="([^"]*)">`)
	for i, code := range langs {
		want, inStudy := studyTags[code]
		switch {
		case code == "de-CH":
			want = "de-CH" // a well-formed tag of another language, as it is
		case !inStudy:
			want = "" // unknown
		}
		status, body, _ := get(t, ts, fmt.Sprintf("/trace?id=lang-%02d", i))
		m := textLang.FindStringSubmatch(body)
		if status != 200 || m == nil {
			t.Errorf("%q: %d, no lang on the trace text", code, status)
			continue
		}
		if got := html.UnescapeString(m[1]); got != want {
			t.Errorf("reasoning language %q: the trace text's lang is %q, want %q", code, got, want)
		}
		if want != "" {
			tag, err := language.Parse(want)
			if err != nil {
				t.Errorf("%q: %q is not BCP 47: %v", code, want, err)
			} else if base, _ := tag.Base(); inStudy && base.String() != code {
				t.Errorf("%q: %q is the language %s", code, want, base)
			}
		}
		if code == "zh" {
			if s, conf := language.MustParse(want).Script(); s.String() != "Hans" || conf != language.Exact {
				t.Errorf("zh: the script of %q is %s", want, s)
			}
		}
	}

	// The aligned trace (sw): its extracted answers and harmful spans are
	// model text in sw; the DAGs and their nodes are en.
	_, body, _ := get(t, ts, "/trace?id=t-en-x")
	for what, re := range map[string]string{
		"extracted answer": `<td lang="sw">[^<]*&lt;2&gt;`,
		"harmful span":     `<td lang="sw">&lt;script&gt;`,
		"trace text":       `<div class="trace-text" lang="sw">`,
		"DAG":              `<div class="dag-scroll" lang="en"><svg`,
		"nodes":            `<ol lang="en"><li`,
		"question (en)":    `<div class="question" lang="en">`,
	} {
		if !regexp.MustCompile(re).MatchString(body) {
			t.Errorf("%s: no %s in the page", what, re)
		}
	}
	if _, body, _ := get(t, ts, "/trace?id=t-x-en"); !regexp.MustCompile(`<div class="question" lang="sw">`).MatchString(body) ||
		!regexp.MustCompile(`<div class="trace-text" lang="en">`).MatchString(body) {
		t.Errorf("t-x-en: the question in sw, the text in en are not marked")
	}
}
