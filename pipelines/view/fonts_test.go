package view

import (
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"unicode"

	"github.com/chromedp/cdproto/cdp"
	"github.com/chromedp/cdproto/css"
	"github.com/chromedp/cdproto/dom"
	"github.com/chromedp/chromedp"

	"github.com/datg/datg/internal/store"
	"github.com/datg/datg/internal/testenv"
	"github.com/datg/datg/schema"
	"github.com/datg/datg/study"
)

// requireFontsEnv makes a script drawn without a font for it a failure
// (CI sets it where it installed fontPackages), not a skip.
const requireFontsEnv = "DATG_REQUIRE_FONTS"

// fontPackages are the smallest Debian packages that give Chromium a font
// for each of the study's scripts beyond DejaVu's (Latin, Cyrillic):
// about 6 MB installed, where fonts-noto-core and fonts-noto-cjk take 133
// MB. WenQuanYi Micro Hei draws Han, kana and Hangul (Japanese in Chinese
// glyph forms: fonts-noto-cjk draws Japanese ones).
const fontPackages = "fonts-lohit-beng-bengali fonts-lohit-telu fonts-tlwg-loma-ttf fonts-wqy-microhei"

// scriptSamples are a sentence in each of the study's languages.
var scriptSamples = map[string]string{
	"en": "The answer is two.",
	"fr": "La réponse est deux, à l'évidence.",
	"ru": "Ответ равен двум.",
	"zh": "答案是二，因为四除以二。",
	"ja": "答えは二です。ひらがなとカタカナ。",
	"ko": "답은 둘입니다. 한국어 문장.",
	"id": "Jawabannya adalah dua.",
	"ms": "Jawapannya ialah dua.",
	"th": "คำตอบคือสอง เพราะสี่หารด้วยสอง",
	"bn": "উত্তর হল দুই, কারণ চারকে দুই দিয়ে ভাগ করলে দুই হয়।",
	"sw": "Jibu ni mbili.",
	"te": "సమాధానం రెండు, ఎందుకంటే నాలుగును రెండుతో భాగిస్తే రెండు.",
}

// Every script of the study is drawn with a font that has its letters, not
// as boxes (tofu): the fonts Chromium drew a trace's text with
// (CSS.getPlatformFontsForNode) cover every letter of a sentence in each
// language, as fontconfig, which Chromium asks, says (fc-list
// :charset=...). Without fonts for them, Bengali, Telugu, Thai, Chinese,
// Japanese and Korean are boxes though the page is right: the test then
// skips, or fails under DATG_REQUIRE_FONTS.
func TestScriptsHaveFonts(t *testing.T) {
	fcList := testenv.Tool(t, []string{"fc-list"}, "apt-get install fontconfig", requireFontsEnv)
	dir := t.TempDir()
	var text strings.Builder
	for _, l := range study.Languages() {
		fmt.Fprintf(&text, "%s: %s\n", l.NativeName, scriptSamples[l.Code])
	}
	if err := store.WriteAll(dir, schema.Traces, store.Meta{}, []schema.Trace{{TraceID: "t-scripts", Model: "m", Direction: "en-x",
		InputLang: "en", ReasoningLang: "ja", Level: "low", ProblemID: "low-0", Method: "base", Text: text.String(), TextHash: "h"}}); err != nil {
		t.Fatal(err)
	}
	ts := serve(t, dir)
	b := newBrowser(t, 1200, 800)
	b.do("the trace", chromedp.Navigate(ts.URL+"/trace?id=t-scripts"), chromedp.WaitVisible(`.trace-text`))
	if got := eval[string](b, `document.querySelector(".trace-text").textContent`); got != text.String() {
		t.Fatalf("the trace text is shown as %q", got)
	}
	used := b.platformFonts(`.trace-text`)
	if len(used) == 0 {
		t.Fatal("Chromium names no font for the trace text")
	}
	t.Logf("the trace text is drawn with %s", strings.Join(used, ", "))
	// The text is in its reasoning language (ja): where fontconfig has a
	// font for Japanese other than its Chinese one (fonts-noto-cjk's JP
	// forms), Chromium draws the Han letters with it, not in Chinese forms.
	if lang := eval[string](b, `document.querySelector(".trace-text").lang`); lang != "ja" {
		t.Errorf("the trace text's lang is %q, not its reasoning language ja", lang)
	}
	fcMatch := filepath.Join(filepath.Dir(fcList), "fc-match")
	ja, zh := fontFor(t, fcMatch, "ja"), fontFor(t, fcMatch, "zh-cn")
	switch {
	case ja == zh:
		t.Logf("fontconfig draws Japanese and Chinese with one font (%s): whether Chromium picks Japanese forms for lang=ja is not checked (install fonts-noto-cjk)", ja)
	case !slices.Contains(used, ja):
		t.Errorf("the Japanese trace text (lang=ja) is drawn with %s, not fontconfig's Japanese font %s (Chinese: %s)", strings.Join(used, ", "), ja, zh)
	}
	covers := map[rune][]string{} // a letter's fonts, by fontconfig
	var boxes []string
	for _, l := range study.Languages() {
		sample := l.NativeName + " " + scriptSamples[l.Code]
		for _, c := range sample {
			if !unicode.IsLetter(c) && !unicode.IsMark(c) {
				continue
			}
			if _, ok := covers[c]; !ok {
				covers[c] = fontsWith(t, fcList, c)
			}
			if !slices.ContainsFunc(used, func(f string) bool { return slices.Contains(covers[c], f) }) {
				boxes = append(boxes, fmt.Sprintf("%s (%s): %q (U+%04X) is drawn with %s, which have no glyph for it", l.Name, l.Script, c, c, strings.Join(used, ", ")))
				break
			}
		}
	}
	if len(boxes) > 0 {
		msg := fmt.Sprintf("Chromium draws %d of the study's languages as boxes:\n%s\n(install %s)", len(boxes), strings.Join(boxes, "\n"), fontPackages)
		if os.Getenv(requireFontsEnv) == "" {
			t.Skip(msg)
		}
		t.Error(msg)
	}
}

// platformFonts are the families of the fonts Chromium drew the text of
// the first element matching sel with.
func (b *browser) platformFonts(sel string) []string {
	b.t.Helper()
	fonts, err := chromedp.Run(b.ctx, chromedp.Action[[]*css.PlatformFontUsage](func(ctx context.Context, tg *chromedp.Target) ([]*css.PlatformFontUsage, error) {
		if _, err := cdp.Call(ctx, tg, dom.Enable, dom.EnableParams{}); err != nil {
			return nil, err
		}
		if _, err := cdp.Call(ctx, tg, css.Enable, cdp.Empty{}); err != nil {
			return nil, err
		}
		doc, err := cdp.Call(ctx, tg, dom.GetDocument, dom.GetDocumentParams{})
		if err != nil {
			return nil, err
		}
		node, err := cdp.Call(ctx, tg, dom.QuerySelector, dom.QuerySelectorParams{NodeID: doc.Root.NodeID, Selector: sel})
		if err != nil {
			return nil, err
		}
		res, err := cdp.Call(ctx, tg, css.GetPlatformFontsForNode, css.GetPlatformFontsForNodeParams{NodeID: node.NodeID})
		return res.Fonts, err
	}))
	if err != nil {
		b.t.Fatalf("the fonts of %s: %v", sel, err)
	}
	var families []string
	for _, f := range fonts {
		if f.GlyphCount > 0 && !slices.Contains(families, f.FamilyName) {
			families = append(families, f.FamilyName)
		}
	}
	return families
}

// fontFor is the family fontconfig gives sans-serif text in the language.
func fontFor(t *testing.T, fcMatch, lang string) string {
	t.Helper()
	out, err := exec.Command(fcMatch, "-f", "%{family[0]}", "sans-serif:lang="+lang).Output()
	if err != nil {
		t.Fatalf("fc-match: %v", err)
	}
	return strings.TrimSpace(string(out))
}

// fontsWith are the font families fontconfig has a glyph of c in (each
// family under each of its names).
func fontsWith(t *testing.T, fcList string, c rune) []string {
	t.Helper()
	out, err := exec.Command(fcList, fmt.Sprintf(":charset=%x", c), "family").Output()
	if err != nil {
		t.Fatalf("fc-list: %v", err)
	}
	var families []string
	for _, line := range strings.Split(strings.TrimSpace(string(out)), "\n") {
		for _, name := range strings.Split(line, ",") {
			if name = strings.TrimSpace(name); name != "" {
				families = append(families, strings.ReplaceAll(name, `\-`, "-"))
			}
		}
	}
	return families
}
