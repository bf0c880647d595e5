package latextest

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// Problems finds each kind of problem in a log as pdflatex writes it (the
// lines below are from TeX Live 2024's pdflatex), and lets pass what a
// paper may have.
func TestProblems(t *testing.T) {
	log := strings.Join([]string{
		`Overfull \hbox (0.41pt too wide) in paragraph at lines 12--13`,
		`Overfull \hbox (365.2pt too wide) in alignment at lines 20--40`,
		`Underfull \hbox (badness 10000) in paragraph at lines 3--4`,
		`LaTeX Warning: Float too large for page by 463.0pt on input line 55.`,
		`! Undefined control sequence.`,
		`l.7 \frobnicate`,
		`                {}`,
		`LaTeX Warning: Reference 'tab:x' on page 1 undefined on input line 3.`,
	}, "\n")
	got := Problems(log)
	want := []string{
		`Overfull \hbox (365.2pt too wide) in alignment at lines 20--40`,
		`LaTeX Warning: Float too large for page by 463.0pt on input line 55.`,
		`! Undefined control sequence. | l.7 \frobnicate |                 {}`,
	}
	if !slices.Equal(got, want) {
		t.Errorf("Problems =\n%q\nwant\n%q", got, want)
	}
}

// Compile reports what pdflatex finds in a document, and nothing in a
// clean one.
func TestCompile(t *testing.T) {
	Require(t)
	dir := t.TempDir()
	docs := map[string]string{
		"clean.tex": `\documentclass{article}\begin{document}Hello.\end{document}`,
		"wide.tex":  `\documentclass{article}\begin{document}\noindent\rule{2\textwidth}{1pt}\end{document}`,
		"tall.tex":  `\documentclass{article}\begin{document}\begin{table}\rule{1pt}{2\textheight}\end{table}\end{document}`,
		"error.tex": `\documentclass{article}\begin{document}\frobnicate\end{document}`,
	}
	for name, text := range docs {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	if p := Compile(t, dir, "clean.tex"); len(p) != 0 {
		t.Errorf("clean.tex: %q", p)
	}
	for name, want := range map[string]string{"wide.tex": `Overfull \hbox`, "tall.tex": "Float too large", "error.tex": "! Undefined control sequence."} {
		p := Compile(t, dir, name)
		if len(p) == 0 || !strings.Contains(strings.Join(p, "\n"), want) {
			t.Errorf("%s: problems %q, want %q among them", name, p, want)
		}
	}
}
