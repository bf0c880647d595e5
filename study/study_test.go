package study

import (
	"errors"
	"strings"
	"testing"
)

func TestLanguagesInPaperOrder(t *testing.T) {
	got := strings.Join(LanguageCodes(), " ")
	if want := "en fr ru zh ja ko id ms th bn sw te"; got != want {
		t.Fatalf("codes %s, want %s", got, want)
	}
	for _, l := range Languages() {
		for field, v := range map[string]string{"Name": l.Name, "NativeName": l.NativeName, "Script": string(l.Script)} {
			if v == "" {
				t.Errorf("%s: empty %s", l.Code, field)
			}
		}
		found := false
		for _, r := range Resources {
			found = found || l.Resource == r
		}
		if !found {
			t.Errorf("%s: resource group %q", l.Code, l.Resource)
		}
	}
}

func TestLookupLanguage(t *testing.T) {
	sw, err := LookupLanguage("sw")
	if err != nil {
		t.Fatal(err)
	}
	if sw.Resource != LRL {
		t.Errorf("sw resource = %s, want %s", sw.Resource, LRL)
	}
	if sw.Script != Latin {
		t.Errorf("sw script = %s, want %s", sw.Script, Latin)
	}
	_, err = LookupLanguage("xx")
	if !errors.Is(err, ErrUnknownLanguage) {
		t.Fatalf("xx: got %v, want ErrUnknownLanguage", err)
	}
	if want := `unknown language "xx" (known: [bn en fr id ja ko ms ru sw te th zh])`; err.Error() != want {
		t.Errorf("message %q, want %q", err, want)
	}
}

func TestDirection(t *testing.T) {
	cases := map[[2]string]Direction{
		{"en", "en"}: EnEn, {"en", "sw"}: EnX, {"sw", "en"}: XEn, {"sw", "sw"}: XX,
	}
	for pair, want := range cases {
		got, err := DirectionOf(pair[0], pair[1])
		if err != nil || got != want {
			t.Errorf("DirectionOf%v = %q, %v; want %q", pair, got, err, want)
		}
		in, out, err := want.Pair("sw")
		if err != nil {
			t.Errorf("%s.Pair: %v", want, err)
		}
		if want != EnEn && in != pair[0] {
			t.Errorf("%s.Pair: input %s, want %s", want, in, pair[0])
		}
		if want != EnEn && out != pair[1] {
			t.Errorf("%s.Pair: reasoning %s, want %s", want, out, pair[1])
		}
	}
	if _, err := DirectionOf("fr", "sw"); !errors.Is(err, ErrNoDirection) {
		t.Fatalf("fr->sw: got %v, want ErrNoDirection", err)
	}
	if _, _, err := Direction("y-y").Pair("sw"); !errors.Is(err, ErrNoDirection) {
		t.Fatalf("y-y: got %v, want ErrNoDirection", err)
	}
}

func TestTargetLang(t *testing.T) {
	for _, c := range []struct{ in, out, want string }{{"en", "en", "en"}, {"en", "sw", "sw"}, {"sw", "en", "sw"}, {"sw", "sw", "sw"}} {
		if got := TargetLang(c.in, c.out); got != c.want {
			t.Errorf("TargetLang(%s, %s) = %s, want %s", c.in, c.out, got, c.want)
		}
	}
}

// TestParse checks every Parse function accepts each of its values and
// rejects an unknown one with its sentinel, naming the known values.
func TestParse(t *testing.T) {
	type parser struct {
		name   string
		values []string
		parse  func(string) (string, error)
		err    error
	}
	wrap := func(f func(string) (Level, error)) func(string) (string, error) {
		return func(s string) (string, error) { v, err := f(s); return string(v), err }
	}
	parsers := []parser{
		{"level", Strings(Levels...), wrap(ParseLevel), ErrUnknownLevel},
		{"direction", Strings(Directions...), func(s string) (string, error) { v, err := ParseDirection(s); return string(v), err }, ErrNoDirection},
		{"method", Strings(Methods...), func(s string) (string, error) { v, err := ParseMethod(s); return string(v), err }, ErrUnknownMethod},
		{"phase", Strings(Phases...), func(s string) (string, error) { v, err := ParsePhase(s); return string(v), err }, ErrUnknownPhase},
		{"grader", Strings(Graders...), func(s string) (string, error) { v, err := ParseGrader(s); return string(v), err }, ErrUnknownGrader},
		{"detector", Strings(Detectors...), func(s string) (string, error) { v, err := ParseDetector(s); return string(v), err }, ErrUnknownDetector},
		{"node status", Strings(NodeStatuses...), func(s string) (string, error) { v, err := ParseNodeStatus(s); return string(v), err }, ErrUnknownStatus},
		{"alignment status", Strings(AlignmentStatuses...), func(s string) (string, error) { v, err := ParseAlignmentStatus(s); return string(v), err }, ErrUnknownStatus},
	}
	for _, p := range parsers {
		for _, v := range p.values {
			got, err := p.parse(v)
			if err != nil {
				t.Errorf("%s %q: %v", p.name, v, err)
			}
			if got != v {
				t.Errorf("%s %q parsed as %q", p.name, v, got)
			}
		}
		_, err := p.parse("nope")
		if !errors.Is(err, p.err) {
			t.Errorf("%s \"nope\": got %v, want %v", p.name, err, p.err)
		}
		if err != nil && !strings.Contains(err.Error(), p.values[0]) {
			t.Errorf("%s \"nope\": %q does not name the known values", p.name, err)
		}
	}
}

func TestValidLevel(t *testing.T) {
	if !ValidLevel("top") {
		t.Error("top is a PolyMath level")
	}
	if ValidLevel("Top") {
		t.Error("Top accepted: levels are lower case")
	}
}
