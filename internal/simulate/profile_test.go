package simulate

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/datg/datg/internal/inputerr"
)

// A profile file is read strictly: one object, no key twice at any depth,
// no unknown field, each problem with the file and line.
func TestLoadProfileIsStrict(t *testing.T) {
	write := func(content string) string {
		p := filepath.Join(t.TempDir(), "profile.json")
		os.WriteFile(p, []byte(content), 0o644)
		return p
	}
	p, err := LoadProfile(write(string(defaultProfile)))
	if err != nil {
		t.Fatalf("the embedded profile as a file: %v", err)
	}
	if got := p.Languages["sw"].Loop; got != 0.35 {
		t.Fatalf("the embedded profile as a file: sw loop %v, want 0.35", got)
	}
	p, err = LoadProfile(write(`{"comment": "sw loops less", "languages": {"sw": {"reasoning": 0.3, "input": 0.6, "loop": 0.1}}}`))
	if err != nil {
		t.Fatalf("an override: %v", err)
	}
	if diff := cmp.Diff(map[string]float64{"sw": 0.1, "te": 0.30}, map[string]float64{"sw": p.Languages["sw"].Loop, "te": p.Languages["te"].Loop}); diff != "" {
		t.Fatalf("an override of sw: loop rates (-want +got):\n%s", diff)
	}
	for name, c := range map[string]struct {
		content, want string
		line          int
	}{
		"second object": {"{\"level_accuracy\": {\"low\": 0.9}}\n{\"level_accuracy\": {\"low\": 0.1}}", "data after the JSON value", 2},
		"repeated key":  {"{\"languages\": {\"sw\": {\n\"loop\": 0.1,\n\"loop\": 0.9}}}", `duplicate key "loop"`, 3},
		"unknown field": {"{\n\"languages\": {\"sw\": {\"loop_rate\": 0.1}}}", `unknown field "loop_rate"`, 2},
	} {
		path := write(c.content)
		_, err := LoadProfile(path)
		var ie *inputerr.Error
		if !errors.Is(err, inputerr.ErrInvalidConfig) || !strings.Contains(err.Error(), c.want) || !errors.As(err, &ie) || ie.Line != c.line {
			t.Errorf("%s: got %v, want %q on line %d", name, err, c.want, c.line)
		}
	}
}
