package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/datg/datg/internal/testenv"
)

func TestLangcheckDetectorFlag(t *testing.T) {
	data := t.TempDir()
	r := datg(t, nil, "langcheck", "--data", data, "--detector", "cld3")
	if r.code != 2 || !strings.Contains(r.stderr, `unknown language detector "cld3" (want langdetect or lingua)`) {
		t.Errorf("--detector cld3: exit %d, %q", r.code, r.stderr)
	}
	mustDatg(t, "ingest", "polymath", "--src", testenv.Demo(t), "--per-level", "5", "--data", data)
	in := filepath.Join(t.TempDir(), "traces.jsonl")
	lines := `{"model": "m", "input_lang": "en", "reasoning_lang": "sw", "level": "low", "problem_id": "low-0", "seed": 1, "method": "base", "completion_tokens": 30, "text": "<think>Bata wa Janet hutaga mayai kumi na sita kila siku. Anakula matatu na kuoka mafini kwa manne, kwa hiyo anauza tisa yaliyobaki kwa dola mbili kila moja.</think> \\boxed{18}"}
{"model": "m", "input_lang": "en", "reasoning_lang": "sw", "level": "low", "problem_id": "low-1", "seed": 1, "method": "base", "completion_tokens": 30, "text": "<think>Janet's ducks lay sixteen eggs per day. She eats three and bakes muffins with four, so she sells the remaining nine at two dollars each.</think> \\boxed{18}"}
`
	if err := os.WriteFile(in, []byte(lines), 0o644); err != nil {
		t.Fatal(err)
	}
	mustDatg(t, "import", "traces", "--data", data, "--in", in)
	for _, c := range []struct{ args, want string }{
		{"", "langcheck (langdetect): 2 traces, 1 compliant"},
		{"--detector lingua", "langcheck (lingua): 2 traces, 1 compliant"},
	} {
		args := append([]string{"langcheck", "--data", data}, strings.Fields(c.args)...)
		r := mustDatg(t, args...)
		if !strings.Contains(r.stdout, c.want) {
			t.Errorf("datg %v: %q, want %q", args, r.stdout, c.want)
		}
		// compliance.detector is the bare name (issue 20): the query a user
		// writes finds every row, and the settings are a column of their own.
		name := strings.Fields(c.args + " --detector langdetect")[1]
		q := mustDatg(t, "sql", "--data", data, "--format", "csv",
			"SELECT count(*) AS n, count(DISTINCT settings) AS settings FROM compliance WHERE detector = '"+name+"' AND settings LIKE '%"+name+"%'")
		if want := "n,settings\n2,1\n"; q.stdout != want {
			t.Errorf("compliance where detector = %q after %v: %q, want %q", name, args, q.stdout, want)
		}
	}
}
