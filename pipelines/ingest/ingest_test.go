package ingest

import (
	"bufio"
	"context"
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/datg/datg/internal/inputerr"
	"github.com/datg/datg/internal/store"
	"github.com/datg/datg/internal/testenv"
	"github.com/datg/datg/schema"
	"github.com/parquet-go/parquet-go"
)

func TestIngestPolyMathJSONL(t *testing.T) {
	cfg := DefaultConfig()
	cfg.Src = testenv.PolyMath(t)
	cfg.Data = t.TempDir()
	sum, err := Run(context.Background(), cfg)
	if err != nil {
		t.Fatal(err)
	}
	if sum.Problems != 12*3*125 {
		t.Fatalf("ingested %d problems, want %d", sum.Problems, 12*3*125)
	}
	rows, err := store.ReadAll(cfg.Data, schema.Problems)
	if err != nil {
		t.Fatal(err)
	}
	var sw12 schema.Problem
	for _, r := range rows {
		if r.Lang == "sw" && r.ProblemID == "medium-12" {
			sw12 = r
		}
	}
	if sw12.SourceID != "medium-sw-12" || sw12.K != 12 || sw12.Source != "sw/medium.jsonl" || sw12.Question == "" {
		t.Fatalf("medium-sw-12 became %+v", sw12)
	}
}

// toParquet rewrites a JSONL layout as the Hugging Face Parquet layout.
func toParquet(t *testing.T, src string, langs, levels []string) string {
	t.Helper()
	dst := t.TempDir()
	for _, lang := range langs {
		os.MkdirAll(filepath.Join(dst, lang), 0o755)
		for _, level := range levels {
			f, err := os.Open(filepath.Join(src, lang, level+".jsonl"))
			if err != nil {
				t.Fatal(err)
			}
			var rows []row
			sc := bufio.NewScanner(f)
			sc.Buffer(nil, 1<<20)
			for sc.Scan() {
				var r row
				if err := json.Unmarshal(sc.Bytes(), &r); err != nil {
					t.Fatal(err)
				}
				rows = append(rows, r)
			}
			f.Close()
			out, _ := os.Create(filepath.Join(dst, lang, level+".parquet"))
			if err := parquet.Write(out, rows); err != nil {
				t.Fatal(err)
			}
			out.Close()
		}
	}
	return dst
}

func TestIngestParquetLayoutMatchesJSONL(t *testing.T) {
	src := testenv.PolyMath(t)
	langs, levels := []string{"en", "sw", "te"}, []string{"low", "high"}
	read := func(dir string) []schema.Problem {
		cfg := DefaultConfig()
		cfg.Src, cfg.Data, cfg.Langs, cfg.Levels = dir, t.TempDir(), langs, levels
		if _, err := Run(context.Background(), cfg); err != nil {
			t.Fatal(err)
		}
		rows, _ := store.ReadAll(cfg.Data, schema.Problems)
		return rows
	}
	a, b := read(src), read(toParquet(t, src, langs, levels))
	if len(a) != 750 || len(a) != len(b) {
		t.Fatalf("jsonl %d rows, parquet %d rows", len(a), len(b))
	}
	for i := range a {
		b[i].Source = a[i].Source
		if a[i] != b[i] {
			t.Fatalf("row %d differs:\n%+v\n%+v", i, a[i], b[i])
		}
	}
}

// fixture writes a small JSONL source with the given lines per file.
func fixture(t *testing.T, files map[string]string) string {
	t.Helper()
	dir := t.TempDir()
	for name, content := range files {
		p := filepath.Join(dir, name)
		os.MkdirAll(filepath.Dir(p), 0o755)
		os.WriteFile(p, []byte(content), 0o644)
	}
	return dir
}

func smallConfig(src string, t *testing.T) Config {
	cfg := DefaultConfig()
	cfg.Src, cfg.Data, cfg.Langs, cfg.Levels, cfg.PerLevel = src, t.TempDir(), []string{"en", "sw"}, []string{"low"}, 2
	return cfg
}

const goodEn = `{"id": "low-en-0", "question": "1+1?", "answer": "2"}
{"id": "low-en-1", "question": "2+2?", "answer": "4"}
`

func TestIngestErrorsNameFileAndLine(t *testing.T) {
	cases := []struct {
		name  string
		sw    string
		want  error
		where string
	}{
		{"malformed JSON", "{\"id\": \"low-sw-0\", \"question\": \"a\", \"answer\": \"2\"}\n{\"id\": oops}\n", ErrMalformed, "sw/low.jsonl:2"},
		{"wrong id", "{\"id\": \"low-sw-1\", \"question\": \"a\", \"answer\": \"2\"}\n{\"id\": \"low-sw-1\", \"question\": \"b\", \"answer\": \"4\"}\n", ErrMalformed, "sw/low.jsonl:1"},
		{"no answer", "{\"id\": \"low-sw-0\", \"question\": \"a\", \"answer\": \"\"}\n{\"id\": \"low-sw-1\", \"question\": \"b\", \"answer\": \"4\"}\n", ErrMalformed, "sw/low.jsonl:1"},
		{"gold differs", "{\"id\": \"low-sw-0\", \"question\": \"a\", \"answer\": \"2\"}\n{\"id\": \"low-sw-1\", \"question\": \"b\", \"answer\": \"5\"}\n", ErrGoldMismatch, "sw/low.jsonl:2"},
		{"too few", "{\"id\": \"low-sw-0\", \"question\": \"a\", \"answer\": \"2\"}\n", ErrCount, "sw/low.jsonl"},
		{"blank line", "{\"id\": \"low-sw-0\", \"question\": \"a\", \"answer\": \"2\"}\n\n{\"id\": \"low-sw-1\", \"question\": \"b\", \"answer\": \"4\"}\n", ErrMalformed, "sw/low.jsonl:2"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			cfg := smallConfig(fixture(t, map[string]string{"en/low.jsonl": goodEn, "sw/low.jsonl": c.sw}), t)
			_, err := Run(context.Background(), cfg)
			if !errors.Is(err, c.want) || !strings.Contains(err.Error(), c.where) {
				t.Fatalf("got %v, want %v at %s", err, c.want, c.where)
			}
			if store.Exists(cfg.Data, schema.Problems.Table) {
				t.Fatal("a failed ingest wrote the problems table")
			}
		})
	}
}

func TestIngestMissingFileAndUnknownLanguage(t *testing.T) {
	cfg := smallConfig(fixture(t, map[string]string{"en/low.jsonl": goodEn}), t)
	_, err := Run(context.Background(), cfg)
	if !errors.Is(err, ErrMissingFile) || !strings.Contains(err.Error(), filepath.Join("sw", "low.jsonl")) {
		t.Fatalf("got %v", err)
	}
	cfg.Langs = []string{"en", "xx"}
	if _, err := Run(context.Background(), cfg); err == nil || !strings.Contains(err.Error(), `"xx"`) {
		t.Fatalf("unknown language: got %v", err)
	}
}

func TestIngestMergesLanguagesAndChecksGold(t *testing.T) {
	src := fixture(t, map[string]string{
		"en/low.jsonl": goodEn,
		"sw/low.jsonl": "{\"id\": \"low-sw-0\", \"question\": \"a\", \"answer\": \"2\"}\n{\"id\": \"low-sw-1\", \"question\": \"b\", \"answer\": \"4\"}\n",
		"te/low.jsonl": "{\"id\": \"low-te-0\", \"question\": \"a\", \"answer\": \"3\"}\n{\"id\": \"low-te-1\", \"question\": \"b\", \"answer\": \"4\"}\n",
	})
	cfg := smallConfig(src, t)
	if _, err := Run(context.Background(), cfg); err != nil {
		t.Fatal(err)
	}
	cfg.Langs = []string{"te"}
	_, err := Run(context.Background(), cfg)
	if !errors.Is(err, ErrGoldMismatch) || !strings.Contains(err.Error(), "te/low.jsonl:1") {
		t.Fatalf("got %v, want a gold mismatch against the table", err)
	}
	rows, _ := store.ReadAll(cfg.Data, schema.Problems)
	if len(rows) != 4 {
		t.Fatalf("table has %d rows after a refused ingest, want 4", len(rows))
	}
}

func FuzzReadJSONL(f *testing.F) {
	f.Add([]byte(goodEn))
	f.Add([]byte("{\"id\": 1}\n"))
	f.Add([]byte("\xff\xfe"))
	f.Fuzz(func(t *testing.T, data []byte) {
		p := filepath.Join(t.TempDir(), "x.jsonl")
		os.WriteFile(p, data, 0o644)
		readJSONL(p) // must not panic
	})
}

// A library caller is told which Config field is wrong, not which flag.
func TestValidateNamesConfigFields(t *testing.T) {
	cfg := DefaultConfig()
	cfg.PerLevel = -1
	cfg.Levels = []string{"hard"}
	var got []string
	for _, fe := range inputerr.Fields(cfg.Validate()) {
		got = append(got, fe.Field)
	}
	if want := []string{"Src", "Levels", "PerLevel"}; !slices.Equal(got, want) {
		t.Fatalf("fields at fault = %v, want %v", got, want)
	}
}
