package ingest

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"unicode/utf8"

	"github.com/datg/datg/internal/inputerr"
	"github.com/datg/datg/internal/store"
	"github.com/datg/datg/internal/strictjson"
	"github.com/datg/datg/schema"
	"github.com/datg/datg/study"
	"github.com/datg/datg/transforms"
	"github.com/parquet-go/parquet-go"
)

// Config is one ingest run.
type Config struct {
	Src    string   // PolyMath directory, either layout
	Data   string   // run directory
	Langs  []string // default: the study's 12 languages
	Levels []string // default: low, medium, high
	// PerLevel is the number of problems each (language, level) must hold;
	// PolyMath has 125. 0 accepts any number, the same in every language.
	PerLevel int
}

// DefaultConfig ingests the study's languages and levels from PolyMath.
func DefaultConfig() Config {
	c := Config{Data: store.DefaultDir, Levels: study.Strings(study.Low, study.Medium, study.High), PerLevel: 125}
	c.Langs = study.LanguageCodes()
	return c
}

// Validate checks languages and levels before any file is read.
func (c Config) Validate() error {
	var p inputerr.Problems
	if c.Src == "" {
		p.Add("Src", "no source directory")
	}
	if len(c.Langs) == 0 || len(c.Levels) == 0 {
		p.Add("Langs", "no languages or no levels")
	}
	for _, l := range c.Langs {
		if _, err := study.LookupLanguage(l); err != nil {
			p.Add("Langs", "%w", err)
		}
	}
	for _, l := range c.Levels {
		if !study.ValidLevel(l) {
			p.Add("Levels", "unknown level %q (known: %v)", l, study.Levels)
		}
	}
	if c.PerLevel < 0 {
		p.Add("PerLevel", "must not be negative")
	}
	return p.Err()
}

// row is one problem as the source gives it.
type row struct {
	ID       string `json:"id" parquet:"id"`
	Question string `json:"question" parquet:"question"`
	Answer   string `json:"answer" parquet:"answer"`
}

// gold remembers where a problem's gold answer was first seen.
type gold struct {
	answer, where string
}

// Summary is what a run wrote.
type Summary struct {
	Problems int // rows written (merged into the problems table)
	// ChatTokens counts the rows whose question holds a chat control token
	// (transforms.ChatControlTokens): stored as given, and broken in every
	// prompt that sends the question.
	ChatTokens int
}

// Run reads and checks every file, then writes the problems table. On any
// error nothing is written.
func Run(ctx context.Context, cfg Config) (Summary, error) {
	if err := cfg.Validate(); err != nil {
		return Summary{}, err
	}
	if fi, err := os.Stat(cfg.Src); err != nil || !fi.IsDir() {
		return Summary{}, fmt.Errorf("source %s is not a directory", cfg.Src)
	}
	golds := map[string]gold{} // problem_id -> first gold seen
	var problems []schema.Problem
	var sum Summary
	for _, level := range cfg.Levels {
		count := -1
		var countFrom string
		for _, lang := range cfg.Langs {
			if err := ctx.Err(); err != nil {
				return Summary{}, err
			}
			path, rows, err := readLevel(cfg.Src, lang, level)
			if err != nil {
				return Summary{}, err
			}
			if cfg.PerLevel > 0 && len(rows) != cfg.PerLevel {
				return Summary{}, inputerr.At(path, 0, fmt.Errorf("%w: %d, want %d", ErrCount, len(rows), cfg.PerLevel))
			}
			if count >= 0 && len(rows) != count {
				return Summary{}, inputerr.At(path, 0, fmt.Errorf("%w: %d, but %s has %d", ErrCount, len(rows), countFrom, count))
			}
			count, countFrom = len(rows), path
			for i, r := range rows {
				p, err := problem(r, lang, level, i)
				if err != nil {
					return Summary{}, inputerr.At(path, i+1, err)
				}
				p.Source, _ = filepath.Rel(cfg.Src, path)
				where := fmt.Sprintf("%s:%d", path, i+1)
				if g, ok := golds[p.ProblemID]; !ok {
					golds[p.ProblemID] = gold{p.Answer, where}
				} else if g.answer != p.Answer {
					return Summary{}, inputerr.At(path, i+1, fmt.Errorf("%w: %q here, %q at %s", ErrGoldMismatch, p.Answer, g.answer, g.where))
				}
				problems = append(problems, p)
				if transforms.HasChatControlTokens(p.Question) {
					sum.ChatTokens++
				}
			}
		}
	}
	if err := checkAgainstTable(cfg.Data, golds); err != nil {
		return Summary{}, err
	}
	m, err := store.NewMerger(cfg.Data, schema.Problems, store.Meta{Stage: "ingest", ConfigHash: store.HashConfig(cfg)})
	if err != nil {
		return Summary{}, err
	}
	defer m.Abort()
	if err := m.Write(problems...); err != nil {
		return Summary{}, err
	}
	sum.Problems = len(problems)
	return sum, m.Commit()
}

// problem checks one source row: its id must be {level}-{lang}-{k} with k
// its position in the file, and question and answer must not be empty.
func problem(r row, lang, level string, index int) (schema.Problem, error) {
	want := fmt.Sprintf("%s-%s-%d", level, lang, index)
	switch {
	case r.ID == "":
		return schema.Problem{}, fmt.Errorf("%w: no id", ErrMalformed)
	case r.ID != want:
		return schema.Problem{}, fmt.Errorf("%w: id %q, want %q ({level}-{lang}-{k}, k the 0-based line)", ErrMalformed, r.ID, want)
	case strings.TrimSpace(r.Question) == "":
		return schema.Problem{}, fmt.Errorf("%w: %s has no question", ErrMalformed, r.ID)
	case strings.TrimSpace(r.Answer) == "":
		return schema.Problem{}, fmt.Errorf("%w: %s has no answer", ErrMalformed, r.ID)
	}
	return schema.Problem{
		ProblemID: transforms.ProblemID(level, index), Level: level, Lang: lang, K: int32(index),
		SourceID: r.ID, Question: r.Question, Answer: strings.TrimSpace(r.Answer),
	}, nil
}

// readLevel reads {lang}/{level}.jsonl or, failing that, .parquet.
func readLevel(src, lang, level string) (string, []row, error) {
	jsonl := filepath.Join(src, lang, level+".jsonl")
	pq := filepath.Join(src, lang, level+".parquet")
	if _, err := os.Stat(jsonl); err == nil {
		rows, err := readJSONL(jsonl)
		return jsonl, rows, err
	}
	if _, err := os.Stat(pq); err == nil {
		rows, err := readParquet(pq)
		return pq, rows, err
	}
	return jsonl, nil, inputerr.At(jsonl, 0, fmt.Errorf("%w (nor %s)", ErrMissingFile, filepath.Base(pq)))
}

func readJSONL(path string) ([]row, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	var rows []row
	r := bufio.NewReader(f)
	for line := 1; ; line++ {
		b, err := r.ReadBytes('\n')
		if len(bytes.TrimSpace(b)) > 0 {
			// Before decoding, which would turn what is not Unicode text
			// into U+FFFD without a word.
			var ue *strictjson.UnicodeError
			if errors.As(strictjson.CheckUnicode(b), &ue) {
				return nil, inputerr.Field(path, line, ue.Path,
					fmt.Errorf("%w: %w: %s (byte %d of the line)", ErrMalformed, strictjson.ErrInvalidUnicode, ue.Reason, ue.Column))
			}
			var rw row
			dec := json.NewDecoder(bytes.NewReader(b))
			if derr := dec.Decode(&rw); derr != nil {
				return nil, inputerr.At(path, line, fmt.Errorf("%w: %v", ErrMalformed, derr))
			}
			if dec.More() {
				return nil, inputerr.At(path, line, fmt.Errorf("%w: more than one JSON value on the line", ErrMalformed))
			}
			rows = append(rows, rw)
		} else if err == nil {
			return nil, inputerr.At(path, line, fmt.Errorf("%w: blank line", ErrMalformed))
		}
		if errors.Is(err, io.EOF) {
			return rows, nil
		}
		if err != nil {
			return nil, inputerr.At(path, line, err)
		}
	}
}

func readParquet(path string) ([]row, error) {
	pf, f, err := store.OpenFile(path, false)
	if err != nil {
		return nil, inputerr.At(path, 0, fmt.Errorf("%w: not a Parquet file: %v", ErrMalformed, err))
	}
	defer f.Close()
	for _, col := range []string{"id", "question", "answer"} {
		if _, ok := pf.Schema().Lookup(col); !ok {
			return nil, inputerr.At(path, 0, fmt.Errorf("%w: no %s column", ErrMalformed, col))
		}
	}
	rd := parquet.NewGenericReader[row](pf)
	defer rd.Close()
	rows := make([]row, pf.NumRows())
	n, err := rd.Read(rows)
	if err != nil && !errors.Is(err, io.EOF) {
		return nil, inputerr.At(path, n+1, fmt.Errorf("%w: %v", ErrMalformed, err))
	}
	rows = rows[:n]
	// Parquet's strings are bytes: nothing made them UTF-8.
	for i, r := range rows {
		for _, col := range []struct{ name, v string }{{"id", r.ID}, {"question", r.Question}, {"answer", r.Answer}} {
			if at := invalidUTF8(col.v); at >= 0 {
				return nil, inputerr.Field(path, i+1, col.name,
					fmt.Errorf("%w: %w: invalid UTF-8 (byte %#02x at byte %d of the value)", ErrMalformed, strictjson.ErrInvalidUnicode, col.v[at], at+1))
			}
		}
	}
	return rows, nil
}

// invalidUTF8 is the offset of the first byte of s that is not UTF-8, or -1.
func invalidUTF8(s string) int {
	if utf8.ValidString(s) {
		return -1
	}
	for i, r := range s {
		if r == utf8.RuneError {
			if _, size := utf8.DecodeRuneInString(s[i:]); size == 1 {
				return i
			}
		}
	}
	return -1
}

// checkAgainstTable refuses gold answers that differ from those of problems
// already in the table (another language ingested earlier).
func checkAgainstTable(dir string, golds map[string]gold) error {
	err := store.Scan(dir, schema.Problems, func(p *schema.Problem) error {
		if g, ok := golds[p.ProblemID]; ok && g.answer != p.Answer {
			return fmt.Errorf("%w: %s has %q at %s but %q in the problems table (%s, ingested from %s)",
				ErrGoldMismatch, p.ProblemID, g.answer, g.where, p.Answer, p.Lang, p.Source)
		}
		return nil
	})
	if errors.Is(err, store.ErrNoTable) {
		return nil
	}
	return err
}
