package generate

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/datg/datg/internal/bounds"
	"github.com/datg/datg/internal/inputerr"
	"github.com/datg/datg/internal/pipelinetest"
	"github.com/datg/datg/internal/simulate"
	"github.com/datg/datg/internal/strictjson"
	"github.com/google/go-cmp/cmp"
)

func studyFile(t *testing.T, content string) string {
	t.Helper()
	p := filepath.Join(t.TempDir(), "study.json")
	if err := os.WriteFile(p, []byte(content), 0o644); err != nil {
		t.Fatal(err)
	}
	return p
}

// A study file's numbers are checked against the ranges a server takes,
// and each problem names the file, the line and the field.
func TestStudyFileRanges(t *testing.T) {
	cases := []struct {
		name, field, value, want string
	}{
		{"huge temperature", "temperature", "1e300", "temperature: out of range: 1e+300 is not in [0, 2]"},
		{"negative temperature", "temperature", "-0.1", "temperature: out of range"},
		{"temperature above vLLM's 2", "temperature", "2.5", "temperature: out of range"},
		{"top_p 0", "top_p", "0", "top_p: out of range"},
		{"top_p above 1", "top_p", "1.01", "top_p: out of range"},
		{"top_k below -1", "top_k", "-2", "top_k: out of range"},
		{"zero penalty", "repetition_penalty", "0", "repetition_penalty: out of range"},
		{"negative penalty", "repetition_penalty", "-1", "repetition_penalty: out of range"},
		{"budget past int32", "budgets", `{"low": 3000000000}`, "budgets.low: out of range: 3000000000 tokens is not in [1, 1048576]"},
		{"budget past the cap", "budgets", `{"medium": 1048577}`, "budgets.medium: out of range"},
		{"zero budget", "budgets", `{"high": 0}`, "budgets.high: out of range"},
		{"budget of no level", "budgets", `{"hihg": 4096}`, `budgets.hihg: names "hihg", which is no level`},
		{"negative seed", "seeds", "[42, -1]", "seeds: out of range: seed -1"},
		{"seed past 2^53", "seeds", "[9007199254740992]", "seeds: out of range"},
		{"no slots", "slots_per_endpoint", "0", "slots_per_endpoint: must be at least 1"},
		{"too many slots", "slots_per_endpoint", "100000", "slots_per_endpoint: out of range"},
		{"negative limit", "limit", "-1", "limit: must not be negative"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			path := studyFile(t, "{\n  \"api\": \"chat\",\n  \""+c.field+"\": "+c.value+"\n}\n")
			_, err := LoadStudy(path)
			if !errors.Is(err, inputerr.ErrInvalidConfig) || !strings.Contains(err.Error(), c.want) || !strings.Contains(err.Error(), path+":3") {
				t.Fatalf("got %v, want an invalid configuration with %q at %s:3", err, c.want, path)
			}
		})
	}
	// In range, and the edges of the ranges, load.
	path := studyFile(t, `{"temperature": 2, "top_p": 1, "top_k": -1, "repetition_penalty": 1.13, "budgets": {"low": 1, "top": 1048576}, "seeds": [0, 9007199254740991], "slots_per_endpoint": 4096}`)
	s, err := LoadStudy(path)
	if err != nil {
		t.Fatal(err)
	}
	// What the file gives, and the default it keeps (medium's budget).
	want := DefaultStudy()
	want.Temperature, want.TopP, want.TopK, want.RepetitionPenalty = 2, 1, -1, 1.13
	want.Budgets = map[string]int{"low": 1, "medium": 8192, "high": 16384, "top": 1048576}
	want.Seeds, want.SlotsPerEndpoint = []int64{0, 9007199254740991}, 4096
	if diff := cmp.Diff(want, s); diff != "" {
		t.Fatalf("loaded study (-want +got):\n%s", diff)
	}
	if err := s.Validate(); err != nil {
		t.Fatal(err)
	}
}

// A second object in a study file, or a key given twice at any depth, is an
// error naming the file and line: encoding/json would read the first object
// only, and keep the last of the repeated keys.
func TestStudyFileOneObjectNoRepeatedKeys(t *testing.T) {
	cases := []struct {
		name, content string
		is            error
		line          int
	}{
		{"second object", "{\"temperature\": 0.6}\n{\"temperature\": 1e300}\n", strictjson.ErrTrailingData, 2},
		{"repeated key", "{\n\"temperature\": 0.6,\n\"top_p\": 0.95,\n\"temperature\": 0.7\n}", strictjson.ErrDuplicateKey, 4},
		{"repeated key by case", "{\"top_p\": 0.95,\n\"TOP_P\": 0.5}", strictjson.ErrDuplicateKey, 2},
		{"repeated budget", "{\"budgets\": {\n\"low\": 4096,\n\"low\": 8}}", strictjson.ErrDuplicateKey, 3},
		{"trailing bracket", "{\"limit\": 3}\n]", strictjson.ErrTrailingData, 2},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			path := studyFile(t, c.content)
			_, err := LoadStudy(path)
			var ie *inputerr.Error
			if !errors.Is(err, inputerr.ErrInvalidConfig) || !errors.Is(err, c.is) || !errors.As(err, &ie) || ie.Path != path || ie.Line != c.line {
				t.Fatalf("got %v, want %v at %s:%d", err, c.is, path, c.line)
			}
		})
	}
	// An unknown field is named with its line too.
	_, err := LoadStudy(studyFile(t, "{\n\"temprature\": 0.6}"))
	if !errors.Is(err, inputerr.ErrInvalidConfig) || !strings.Contains(err.Error(), `unknown field "temprature"`) || !strings.Contains(err.Error(), "study.json:2") {
		t.Fatalf("unknown field: %v", err)
	}
}

// Out-of-range sampling set in code (or by flags) is refused by Validate as
// an invalid configuration before any request: a temperature of 1e300 no
// longer reaches the pool to fail there as an endpoint fault.
func TestRunRefusesOutOfRangeSamplingBeforeAnyRequest(t *testing.T) {
	data := pipelinetest.DemoRun(t)
	eps, urls := endpoints(t, data, simulate.DefaultConfig())
	for field, edit := range map[string]func(*Study){
		"Study.Temperature":       func(s *Study) { s.Temperature = 1e300 },
		"Study.TopP":              func(s *Study) { s.TopP = -5 },
		"Study.RepetitionPenalty": func(s *Study) { s.RepetitionPenalty = -1 },
		"Study.Budgets":           func(s *Study) { s.Budgets = map[string]int{"low": 3_000_000_000, "medium": 8192} },
	} {
		s := smallStudy()
		edit(&s)
		_, err := Run(context.Background(), Config{Data: data, Study: s, Endpoints: urls, Pool: pipelinetest.QuickPool()})
		if !errors.Is(err, inputerr.ErrInvalidConfig) || !errors.Is(err, bounds.ErrOutOfRange) {
			t.Errorf("%s: got %v, want an out-of-range invalid configuration", field, err)
		}
		if got := fieldNames(err); !slices.Equal(got, []string{field}) {
			t.Errorf("%s: fields named %q", field, got)
		}
	}
	if n, _ := served(eps); n != 0 {
		t.Fatalf("%d requests reached the server", n)
	}
}
