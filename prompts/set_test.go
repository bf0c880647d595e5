package prompts

import (
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/datg/datg/internal/inputerr"
)

func exported(t *testing.T) string {
	t.Helper()
	dir := filepath.Join(t.TempDir(), "set")
	if _, err := Export(dir); err != nil {
		t.Fatal(err)
	}
	return dir
}

func write(t *testing.T, dir, name, text string) {
	t.Helper()
	if err := os.WriteFile(filepath.Join(dir, name), []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
}

// Export then Load gives the builtin set: same hash, same rendering.
func TestExportLoadRoundTrip(t *testing.T) {
	dir := exported(t)
	s, err := Load(dir)
	if err != nil {
		t.Fatal(err)
	}
	b := Builtin()
	if s.Hash() != b.Hash() || len(b.Hash()) != 64 {
		t.Fatalf("exported set hash %s, builtin %s", s.Hash(), b.Hash())
	}
	in := AlignInput{Language: "Swahili", DAG: "{}", Trace: "trace"}
	if diff := cmp.Diff(b.AlignUser(in), s.AlignUser(in)); diff != "" {
		t.Fatalf("the exported set renders the alignment request differently (-builtin +exported):\n%s", diff)
	}
	if diff := cmp.Diff(b.DAGSystem(), s.DAGSystem()); diff != "" {
		t.Fatalf("the exported set renders the DAG system message differently (-builtin +exported):\n%s", diff)
	}
	sw, _ := s.Language("sw")
	bsw, _ := b.Language("sw")
	if diff := cmp.Diff(bsw, sw); diff != "" {
		t.Fatalf("sw (-builtin +exported and loaded):\n%s", diff)
	}
	var nilSet *Set
	if got, want := nilSet.Hash(), b.Hash(); got != want {
		t.Fatalf("a nil set's hash is %s, want the builtin set's %s", got, want)
	}
	if nilSet.ReferenceSystem() != b.ReferenceSystem() {
		t.Fatal("a nil set's reference system is not the builtin one")
	}
	if _, err := Export(dir); !errors.Is(err, ErrExportTarget) || !errors.Is(err, inputerr.ErrInvalidConfig) {
		t.Fatalf("export over a set: %v", err)
	}
}

// Every byte of every file counts in the hash.
func TestHashCoversEveryFile(t *testing.T) {
	seen := map[string]string{Builtin().Hash(): "builtin"}
	for _, f := range Files {
		dir := exported(t)
		b, _ := os.ReadFile(filepath.Join(dir, f.Name))
		write(t, dir, f.Name, string(b)+"\n")
		s, err := Load(dir)
		if err != nil {
			t.Fatalf("%s: %v", f.Name, err)
		}
		if prev, dup := seen[s.Hash()]; dup {
			t.Errorf("editing %s gives the hash of %s", f.Name, prev)
		}
		seen[s.Hash()] = f.Name
	}
}

func TestLoadRefusesBadSets(t *testing.T) {
	cases := []struct {
		name       string
		edit       func(t *testing.T, dir string)
		sentinel   error
		file, want string
	}{
		{"missing file", func(t *testing.T, dir string) { os.Remove(filepath.Join(dir, "dag_repair.tmpl")) },
			ErrMissingFile, "dag_repair.tmpl", "prompt file missing"},
		{"missing languages", func(t *testing.T, dir string) { os.Remove(filepath.Join(dir, "languages.json")) },
			ErrMissingFile, "languages.json", "prompt file missing"},
		{"unknown variable", func(t *testing.T, dir string) { write(t, dir, "align_user.tmpl", "{{.DAG}}\n{{.Trace}}\n{{.Foo}}\n") },
			ErrUnknownVariable, "align_user.tmpl:3", "{{.Foo}} (this file's variables: Language, DAG, Trace)"},
		{"unknown variable in a branch", func(t *testing.T, dir string) {
			write(t, dir, "reference_user.tmpl", "{{.Question}}{{if .Question}}\n{{else}}{{.Answer}}{{end}}")
		}, ErrUnknownVariable, "reference_user.tmpl:2", "{{.Answer}}"},
		{"line counted past leading blank lines", func(t *testing.T, dir string) { write(t, dir, "dag_repair.tmpl", "\n\n{{.Error}} {{.error}}") },
			ErrUnknownVariable, "dag_repair.tmpl:3", "{{.error}}"},
		{"does not parse", func(t *testing.T, dir string) { write(t, dir, "scaffold_system.tmpl", "in {{.Language}}\n{{.Language") },
			ErrBadTemplate, "scaffold_system.tmpl:2", "prompt template is broken"},
		{"function call", func(t *testing.T, dir string) {
			write(t, dir, "reference_user.tmpl", "{{.Question}} {{printf \"%s\" .Question}}")
		},
			ErrBadTemplate, "reference_user.tmpl:1", "only a single {{.Variable}}"},
		{"range", func(t *testing.T, dir string) {
			write(t, dir, "reference_user.tmpl", "{{.Question}} {{range .Question}}{{end}}")
		},
			ErrBadTemplate, "reference_user.tmpl:1", "only {{.Variable}}"},
		{"define", func(t *testing.T, dir string) {
			write(t, dir, "reference_user.tmpl", "{{.Question}}{{define \"x\"}}y{{end}}")
		},
			ErrBadTemplate, "reference_user.tmpl", "define and block"},
		{"trace left out", func(t *testing.T, dir string) { write(t, dir, "align_user.tmpl", "{{.Language}} {{.DAG}}") },
			ErrUnusedVariable, "align_user.tmpl", "{{.Trace}}"},
		{"question only in a comment", func(t *testing.T, dir string) { write(t, dir, "reference_user.tmpl", "Solve. {{/* {{.Question}} */}}") },
			ErrUnusedVariable, "reference_user.tmpl", "{{.Question}}"},
		{"empty system message", func(t *testing.T, dir string) { write(t, dir, "dag_system.txt", " \n") },
			ErrBadTemplate, "dag_system.txt", "empty"},
		{"languages: not JSON", func(t *testing.T, dir string) { write(t, dir, "languages.json", "{\n\"languages\": [\n}") },
			ErrBadLanguages, "languages.json:3", "invalid character"},
		{"languages: misspelt field", func(t *testing.T, dir string) {
			editIn(t, dir, "languages.json", `"prefix": "Nitaanza`, `"prefx": "Nitaanza`)
		}, ErrBadLanguages, "languages.json", "prefx"},
		{"languages: one missing", func(t *testing.T, dir string) { editIn(t, dir, "languages.json", `"code": "te"`, `"code": "xx"`) },
			ErrBadLanguages, "languages.json", `"te" is missing`},
		{"languages: empty prefix", func(t *testing.T, dir string) {
			var f map[string][]map[string]string
			b, _ := os.ReadFile(filepath.Join(dir, "languages.json"))
			if err := json.Unmarshal(b, &f); err != nil {
				t.Fatal(err)
			}
			for _, l := range f["languages"] {
				if l["code"] == "sw" {
					l["prefix"] = " "
				}
			}
			b, _ = json.Marshal(f)
			write(t, dir, "languages.json", string(b))
		}, ErrBadLanguages, "languages.json", "sw: prefix is empty"},
		{"languages: resource group", func(t *testing.T, dir string) {
			editIn(t, dir, "languages.json", `"resource": "LRL"`, `"resource": "HRL"`)
		},
			ErrBadLanguages, "languages.json", "resource group is the study's"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			dir := exported(t)
			c.edit(t, dir)
			_, err := Load(dir)
			if !errors.Is(err, c.sentinel) || !errors.Is(err, inputerr.ErrInvalidConfig) {
				t.Fatalf("got %v, want %v and an invalid configuration", err, c.sentinel)
			}
			msg := err.Error()
			if !strings.Contains(msg, filepath.Join(dir, c.file)) || !strings.Contains(msg, c.want) {
				t.Fatalf("%q does not name %s and %q", msg, filepath.Join(dir, c.file), c.want)
			}
		})
	}
}

func editIn(t *testing.T, dir, name, old, new string) {
	t.Helper()
	b, err := os.ReadFile(filepath.Join(dir, name))
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(b), old) {
		t.Fatalf("%s has no %q to edit", name, old)
	}
	write(t, dir, name, strings.Replace(string(b), old, new, 1))
}

func TestLoadNeedsADirectory(t *testing.T) {
	for _, dir := range []string{"", filepath.Join(t.TempDir(), "absent")} {
		if _, err := Load(dir); !errors.Is(err, inputerr.ErrInvalidConfig) {
			t.Errorf("Load(%q): %v", dir, err)
		}
	}
}
