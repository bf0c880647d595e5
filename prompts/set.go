package prompts

import (
	"bytes"
	"crypto/sha256"
	"embed"
	"encoding/hex"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"text/template"

	"github.com/datg/datg/internal/inputerr"
	"github.com/datg/datg/study"
)

//go:embed *.txt *.tmpl languages.json
var builtinFiles embed.FS

// Set is one prompt set: every system message, user template, language
// prompt and scaffold a stage sends. Builtin is datg's own; Load reads one
// from a directory (--prompts DIR). A nil *Set is the builtin one, so a
// stage's zero Config sends datg's own prompts.
type Set struct {
	dir  string // "" for the builtin set
	hash string

	referenceSystem, dagSystem, alignSystem string

	referenceUser, dagUser, dagRepair, alignUser, scaffold *template.Template

	languages []Language
}

var builtin = sync.OnceValue(func() *Set {
	s, err := load(builtinFiles, "")
	if err != nil {
		panic("prompts: the builtin set: " + err.Error())
	}
	return s
})

// Builtin is datg's own prompt set, embedded in the binary.
func Builtin() *Set { return builtin() }

// Load reads a prompt set from dir: every file of Files must be there, each
// template must parse, name only variables of its input and use the ones
// the request needs. Any problem is an invalid configuration
// (inputerr.ErrInvalidConfig) naming the file, and the line where there is
// one.
func Load(dir string) (*Set, error) {
	if dir == "" {
		return nil, inputerr.Invalid(inputerr.BadField("Prompts", "names no directory"))
	}
	if st, err := os.Stat(dir); err != nil || !st.IsDir() {
		return nil, inputerr.Invalid(inputerr.BadField("Prompts", "%s is not a directory", dir))
	}
	return load(os.DirFS(dir), dir)
}

func load(fsys fs.FS, dir string) (*Set, error) {
	s := &Set{dir: dir}
	raw := map[string][]byte{}
	var errs []error
	for _, f := range Files {
		b, err := fs.ReadFile(fsys, f.Name)
		if err != nil {
			errs = append(errs, inputerr.At(s.path(f.Name), 0, fmt.Errorf("%w: %s", ErrMissingFile, f.Name)))
			continue
		}
		raw[f.Name] = b
	}
	if len(errs) > 0 {
		return nil, inputerr.Invalid(errs...)
	}
	s.hash = hashFiles(raw)
	text := func(name string) string { return strings.TrimSpace(string(raw[name])) }
	s.referenceSystem, s.dagSystem, s.alignSystem = text("reference_system.txt"), text("dag_system.txt"), text("align_system.txt")
	for _, f := range Files {
		if f.Input == nil {
			if f.Name != languagesFile && text(f.Name) == "" {
				errs = append(errs, inputerr.At(s.path(f.Name), 0, fmt.Errorf("%w: the file is empty", ErrBadTemplate)))
			}
			continue
		}
		t, err := checkTemplate(s.path(f.Name), string(raw[f.Name]), f)
		if err != nil {
			errs = append(errs, err)
			continue
		}
		switch f.Name {
		case "reference_user.tmpl":
			s.referenceUser = t
		case "dag_user.tmpl":
			s.dagUser = t
		case "dag_repair.tmpl":
			s.dagRepair = t
		case "align_user.tmpl":
			s.alignUser = t
		case "scaffold_system.tmpl":
			s.scaffold = t
		}
	}
	langs, err := parseLanguages(s.path(languagesFile), raw[languagesFile])
	if err != nil {
		errs = append(errs, err)
	}
	s.languages = langs
	if len(errs) > 0 {
		return nil, inputerr.Invalid(errs...)
	}
	return s, nil
}

// path is how messages name a file of the set.
func (s *Set) path(name string) string {
	if s.dir == "" {
		return "builtin:" + name
	}
	return filepath.Join(s.dir, name)
}

// hashFiles is the SHA-256 of the files' names and contents, in Files'
// order, each framed by its length so no two sets collide by moving bytes
// between files.
func hashFiles(raw map[string][]byte) string {
	h := sha256.New()
	for _, f := range Files {
		fmt.Fprintf(h, "%s\x00%d\x00", f.Name, len(raw[f.Name]))
		h.Write(raw[f.Name])
	}
	return hex.EncodeToString(h.Sum(nil))
}

func (s *Set) or() *Set {
	if s == nil {
		return Builtin()
	}
	return s
}

// Hash identifies the set's contents (SHA-256, hex): the prompt_set column
// of every row made from a prompt of the set.
func (s *Set) Hash() string { return s.or().hash }

// Dir is the directory the set was read from ("" for the builtin set).
func (s *Set) Dir() string { return s.or().dir }

// ReferenceSystem is the system message of the reference requests.
func (s *Set) ReferenceSystem() string { return s.or().referenceSystem }

// DAGSystem is the system message of the DAG-construction requests.
func (s *Set) DAGSystem() string { return s.or().dagSystem }

// AlignSystem is the system message of the alignment requests.
func (s *Set) AlignSystem() string { return s.or().alignSystem }

// ReferenceUser renders the reference request.
func (s *Set) ReferenceUser(in ReferenceInput) string { return render(s.or().referenceUser, in) }

// DAGUser renders the DAG-construction request.
func (s *Set) DAGUser(in DAGInput) string { return render(s.or().dagUser, in) }

// DAGRepairUser renders the repair request sent after an invalid DAG.
func (s *Set) DAGRepairUser(in DAGRepairInput) string { return render(s.or().dagRepair, in) }

// AlignUser renders the closed-set alignment request.
func (s *Set) AlignUser(in AlignInput) string { return render(s.or().alignUser, in) }

// ScaffoldSystem renders Formula-Retry's two-phase system message (paper,
// appendix G): an English/symbolic execution state whose computed values are
// masked, then the solution in the target language.
func (s *Set) ScaffoldSystem(in ScaffoldInput) string { return render(s.or().scaffold, in) }

// Language returns the set's prompts for the language with the given code.
func (s *Set) Language(code string) (Language, error) {
	for _, l := range s.or().languages {
		if l.Code == code {
			return l, nil
		}
	}
	if _, err := study.LookupLanguage(code); err != nil {
		return Language{}, err
	}
	// Load checks that a set holds every language of the study.
	return Language{}, fmt.Errorf("prompt set %s holds no language %q", s.or().path(languagesFile), code)
}

// Languages returns the set's languages in the paper's order.
func (s *Set) Languages() []Language { return append([]Language(nil), s.or().languages...) }

// render runs a checked template. Load allows only field substitutions and
// field conditions over the template's own input type, which cannot fail
// when run (writing to a buffer does not fail), so an error is a bug.
func render(t *template.Template, data any) string {
	var b bytes.Buffer
	if err := t.Execute(&b, data); err != nil {
		panic("prompts: a checked template failed: " + err.Error())
	}
	return b.String()
}

// Between returns the text between the lines "<<<NAME" and "NAME>>>" of a
// rendered request (what the simulator reads back).
func Between(s, name string) (string, bool) {
	open, close := "<<<"+name+"\n", "\n"+name+">>>"
	i := strings.Index(s, open)
	if i < 0 {
		return "", false
	}
	rest := s[i+len(open):]
	j := strings.LastIndex(rest, close)
	if j < 0 {
		return "", false
	}
	return rest[:j], true
}
