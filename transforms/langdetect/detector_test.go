package langdetect

import (
	"errors"
	"slices"
	"strings"
	"testing"
)

// CPython's random.Random(0), as printed by Python 3.11:
// [r.random() for _ in range(2)], r.gauss(0, 1) three times,
// r.choice(range(30000)), r.choice(range(7)), r.getrandbits(32).
func TestRandomIsCPythons(t *testing.T) {
	var r pyRandom
	r.seed(0)
	got := []float64{r.random(), r.random(), r.gauss(), r.gauss(), r.gauss()}
	want := []float64{0.8444218515250481, 0.7579544029403025, -0.6797144480784211, 0.3705035674606598, -1.016348894188071}
	for i := range want {
		if relDiff(got[i], want[i]) > 1e-15 {
			t.Errorf("draw %d: %v, want %v", i, got[i], want[i])
		}
	}
	if c1, c2, bits := r.below(30000), r.below(7), r.uint32(); c1 != 25683 || c2 != 6 || bits != 1302718217 {
		t.Errorf("choice %d, %d, getrandbits(32) %d; want 25683, 6, 1302718217", c1, c2, bits)
	}
	// Seeding again starts over and forgets the cached deviate.
	r.seed(0)
	r.random()
	r.random()
	if g := r.gauss(); g != got[2] {
		t.Errorf("after reseeding gauss = %v, want %v", g, got[2])
	}
}

// Python langdetect's Detector.append and cleaning_text on these texts
// (outputs printed by python3-langdetect 1.0.9).
func TestPrepareIsPythons(t *testing.T) {
	m, err := loadModel()
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct{ in, want string }{
		{"See https://example.com/a?b=c#d and mail x.y@host.org now", "See and mail now"},
		{"a@b@c foo.bar@baz qux@x. user@host.domain.tld trailing@", "a@b@c trailing@"},
		{"httpx http://x https:// https://a.b/c http://", "httpx https:// http://"},
		{"Ti\u00ea\u0301ng Vi\u00ea\u0323t", "Tiếng Việt"},
		{"a  b   c", "a b c"},
		{"Привет мир hello", "Привет мир hello"},
		{"Привет мир, как дела у тебя сегодня hello", "Привет мир, как дела у тебя сегодня "},
	} {
		if got := string(m.prepare(c.in, DefaultMaxTextLength)); got != c.want {
			t.Errorf("prepare(%q) = %q, want %q", c.in, got, c.want)
		}
	}
	// Only the first 10,000 characters are read.
	long := strings.Repeat("ab ", 5000)
	if got := m.prepare(long, DefaultMaxTextLength); len(got) != DefaultMaxTextLength {
		t.Errorf("prepared %d characters, want %d", len(got), DefaultMaxTextLength)
	}
}

func TestProfiles(t *testing.T) {
	langs, err := Languages()
	if err != nil {
		t.Fatal(err)
	}
	if len(langs) != 55 {
		t.Fatalf("%d languages %v, want langdetect's 55", len(langs), langs)
	}
	if !slices.IsSorted(langs) {
		t.Fatalf("languages %v, want them in order", langs)
	}
	for _, l := range []string{"en", "fr", "ru", "zh-cn", "zh-tw", "ja", "ko", "id", "th", "bn", "sw", "te"} {
		if !slices.Contains(langs, l) {
			t.Errorf("no profile for %s", l)
		}
	}
	if slices.Contains(langs, "ms") {
		t.Error("langdetect has no Malay profile")
	}
}

func TestDetectLangs(t *testing.T) {
	d, err := New(Options{})
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct{ text, want string }{
		{"Bata wa Janet hutaga mayai 16 kila siku. Huwa anakula matatu wakati wa staftahi kila asubuhi.", "sw"},
		{"Les canards de Janet pondent seize œufs par jour. Elle en mange trois au petit déjeuner.", "fr"},
		{"这是一个关于数学的问题。我们先计算苹果的数量，然后再加上梨的数量。", "zh-cn"},
		{"ジャネットのアヒルは毎日十六個の卵を産みます。", "ja"},
		{"재닛의 오리는 매일 열여섯 개의 알을 낳는다.", "ko"},
	} {
		got, err := d.DetectLangs(c.text)
		if err != nil {
			t.Errorf("DetectLangs(%q): %v", c.text, err)
			continue
		}
		if len(got) != 1 || got[0].Lang != c.want {
			t.Errorf("DetectLangs(%q) = %v, want %s alone", c.text, got, c.want)
		} else if got[0].Prob < 0.99 {
			t.Errorf("DetectLangs(%q): %s with probability %v, want at least 0.99", c.text, c.want, got[0].Prob)
		}
	}
	for _, text := range []string{"", "12 + 34 = 46", "1/2 = 0.5; 3 * 4 = 12."} {
		if got, err := d.DetectLangs(text); !errors.Is(err, ErrNoFeatures) {
			t.Errorf("DetectLangs(%q) = %v, %v; want ErrNoFeatures", text, got, err)
		}
	}
	// The seed decides the trials: the same seed, the same probabilities.
	text := "Sawa, hebu nifikirie. Wait, let me reconsider. Kwa hiyo jibu ni tisa. So the answer is nine."
	a, _ := d.DetectLangs(text)
	b, _ := d.DetectLangs(text)
	if !slices.Equal(a, b) {
		t.Errorf("two detections differ: %v, %v", a, b)
	}
}

func TestPaperRule(t *testing.T) {
	one := func(lang string) []Language { return []Language{{lang, 0.99}} }
	for _, c := range []struct {
		requested string
		detected  []Language
		want      bool
	}{
		{"sw", one("sw"), true},
		{"sw", one("en"), false},
		{"sw", []Language{{"sw", 0.6}, {"en", 0.4}}, false},
		{"sw", nil, false},
		{"zh", one("zh-cn"), true},
		{"zh", one("zh-tw"), false},
		{"zh", one("zh"), false},
		{"ms", one("id"), true},
		{"id", one("ms"), true},
		{"ms", []Language{{"id", 0.6}, {"ms", 0.4}}, false},
		{"en", one("en"), true},
	} {
		if got := Complies(c.requested, c.detected); got != c.want {
			t.Errorf("Complies(%s, %v) = %v, want %v", c.requested, c.detected, got, c.want)
		}
	}
}
