package main

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/datg/datg/internal/testenv"
	"github.com/datg/datg/pipelines/verify"
)

// write runs the generator into a new directory and returns the files' contents.
func write(t *testing.T, long, mixed, short int) map[string][]byte {
	t.Helper()
	dir := t.TempDir()
	if err := run(testenv.Demo(t), dir, long, mixed, short); err != nil {
		t.Fatal(err)
	}
	out := map[string][]byte{}
	for _, name := range []string{"long.jsonl", "mixed.jsonl", "short.jsonl"} {
		b, err := os.ReadFile(filepath.Join(dir, name))
		if err != nil {
			t.Fatal(err)
		}
		out[name] = b
	}
	return out
}

// The files are the same for the same flags, and each file is the same
// whatever the other files' counts, so a run measured on one file can be
// repeated after the generator grows another.
func TestInputsAreReproducible(t *testing.T) {
	a := write(t, 14, 14, 500)
	b := write(t, 14, 14, 500)
	c := write(t, 14, 40, 500)
	for name := range a {
		if !bytes.Equal(a[name], b[name]) {
			t.Errorf("%s differs between two runs with the same flags", name)
		}
	}
	for _, name := range []string{"long.jsonl", "short.jsonl"} {
		if !bytes.Equal(a[name], c[name]) {
			t.Errorf("%s changed with the count of mixed traces", name)
		}
	}
}

// Every line is a pair `datg answers check` reads without an input error,
// and the long files hold both answered and cut traces.
func TestInputsAreAnswersCheckPairs(t *testing.T) {
	files := write(t, 14, 40, 500)
	for name, b := range files {
		var out bytes.Buffer
		n, err := verify.CheckLines(context.Background(), "math-verify", bytes.NewReader(b), &out)
		if err != nil {
			t.Fatal(name, err)
		}
		if want := bytes.Count(b, []byte("\n")); n != want {
			t.Errorf("%s: %d lines checked, want %d", name, n, want)
		}
		if strings.Contains(out.String(), `"error"`) {
			t.Errorf("%s: an input line was not a pair: %s", name, out.String())
		}
		if !strings.Contains(out.String(), `"correct":true`) || !strings.Contains(out.String(), `"correct":false`) {
			t.Errorf("%s: want both right and wrong golds", name)
		}
	}
	for _, name := range []string{"long.jsonl", "mixed.jsonl"} {
		cut := 0
		for _, line := range strings.Split(strings.TrimSpace(string(files[name])), "\n") {
			if !strings.Contains(line, "</think>") {
				cut++
			}
		}
		if cut == 0 {
			t.Errorf("%s: no trace cut at the budget", name)
		}
	}
}
