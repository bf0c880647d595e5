package tables

import (
	"bytes"
	"context"
	"encoding/csv"
	"encoding/xml"
	"errors"
	"image/png"
	"io"
	"maps"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"
)

// Two hostile model names. Both end in -8B, so the tables show them whole:
// one tries to run a shell command from a LaTeX comment (a bare CR ends a
// % line) and to be a spreadsheet formula, the other brings HTML, Markdown
// and table syntax, a vertical tab (not allowed in XML) and a
// right-to-left override.
const (
	evilTeX = "=1+2\r\\immediate\\write18{touch /tmp/x}\v% \\\\ & #-8B"
	evilMD  = "@x<script>alert(1)</script>|a&amp;b `c` *d* _e_ [l](javascript:x) $m$ \\|\n# h\u202e-8B"
)

// hostileModels renames the fixture's models to the hostile names.
var hostileModels = map[string]string{"Qwen/Qwen3-4B": evilTeX, "Qwen/Qwen3-8B": evilMD}

func hostileRun(t *testing.T) string {
	return fixtureRun(t, hostileModels)
}

// Every output of datg tables over a run with hostile model names: each
// name is shown, and can do nothing but print.
func TestHostileModelNamesOnlyPrint(t *testing.T) {
	dir := hostileRun(t)
	sum, err := Run(context.Background(), Config{Data: dir})
	if err != nil {
		t.Fatal(err)
	}
	for _, path := range sum.Written {
		data, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		name := filepath.Base(path)
		switch filepath.Ext(path) {
		case ".tex":
			checkTeX(t, name, string(data))
		case ".md":
			checkMarkdown(t, name, string(data))
		case ".csv":
			checkCSV(t, name, data)
		case ".svg":
			checkSVG(t, name, data)
		case ".png":
			if _, err := png.Decode(bytes.NewReader(data)); err != nil {
				t.Errorf("%s: %v", name, err)
			}
		}
	}
	// The names are shown, escaped: the labels of compliance and the
	// captions of datg_main.
	wantContains(t, "compliance.md", readOutput(t, dir, "compliance.md"), mdEscape(evilMD)+" Low", mdEscape(evilTeX)+" Low")
	wantContains(t, "datg_main.tex (its caption)", readOutput(t, dir, "datg_main.tex"), `\textbackslash{}immediate\textbackslash{}write18\{touch /tmp/x\}`)
	header, recs := readCSV(t, filepath.Join(dir, "tables", "direction_accuracy.csv"))
	models := map[string]bool{}
	for _, rec := range recs {
		models[rec[slices.Index(header, "model")]] = true
	}
	for _, name := range []string{evilTeX, evilMD} {
		if !models["'"+name] {
			t.Errorf("direction_accuracy.csv models %q, want %q among them", slices.Sorted(maps.Keys(models)), "'"+name)
		}
	}

}

// texAllowed are the only commands datg's LaTeX has: its table's and the
// escapes' (\\ ends a row).
var texAllowed = map[string]bool{
	"toprule": true, "midrule": true, "bottomrule": true, "cmidrule": true, "begin": true, "end": true,
	"multicolumn": true, "textbf": true, "usepackage": true,
	"textbackslash": true, "textasciitilde": true, "textasciicircum": true, "textless": true, "textgreater": true, "textbar": true,
	`\`: true, `&`: true, `%`: true, `$`: true, `#`: true, `_`: true, `{`: true, `}`: true,
	// The float around the table (latex.go) and paper.tex's fixed text,
	// which no run's text reaches.
	"ifdefined": true, "datgtablebox": true, "else": true, "newsavebox": true, "fi": true, "centering": true,
	"footnotesize": true, "small": true, "setlength": true, "tabcolsep": true, "resizebox": true, "ifdim": true,
	"totalheight": true, "textheight": true, "width": true, "linewidth": true, "usebox": true, "caption": true,
	"addtocounter": true, "documentclass": true, "providecommand": true, "extrafloats": true, "setcounter": true,
	"renewcommand": true, "topfraction": true, "dbltopfraction": true, "textfraction": true, "floatpagefraction": true,
	"dblfloatpagefraction": true, "section": true, "ifx": true, "datgfigure": true, "relax": true, "textwidth": true,
	"let": true,
}

// texFixed are the fixed constructs whose specials (_ in a table's file
// name, $ around the paper's arrows) are datg's own: removed before the
// check, so any other special still fails it.
var texFixed = regexp.MustCompile(`\\(label|input|IfFileExists|includegraphics(\[[a-z=.0-9\\,]*\])?|def\\datgfigure)\{[A-Za-z0-9:_.\-\\]*\}|\$\\(uparrow|downarrow|pm)\$`)

var texLines = regexp.MustCompile(`\r\n?|\n`)

// checkTeX reads LaTeX as TeX would: only allowed commands, a % only where
// a line starts a comment, no line break but LF, balanced groups.
func checkTeX(t *testing.T, name, tex string) {
	t.Helper()
	if strings.Contains(tex, "\r") {
		t.Errorf("%s has a CR", name)
	}
	// TeX ends a line at a CR too.
	for n, line := range texLines.Split(tex, -1) {
		if oneLine(line) != line {
			t.Errorf("%s:%d: a control or separator character in %q", name, n+1, line)
		}
		line = texFixed.ReplaceAllString(line, "")
		depth := 0
		for i := 0; i < len(line); i++ {
			switch c := line[i]; c {
			case '\\':
				j := i + 1
				for j < len(line) && (line[j] >= 'a' && line[j] <= 'z' || line[j] >= 'A' && line[j] <= 'Z') {
					j++
				}
				if j == i+1 && j < len(line) {
					j++
				}
				if cmd := line[i+1 : j]; !texAllowed[cmd] {
					t.Errorf("%s:%d: command \\%s in %q", name, n+1, cmd, line)
				}
				i = j - 1
			case '%':
				if i != 0 {
					t.Errorf("%s:%d: a comment starts inside %q", name, n+1, line)
				}
				i = len(line)
			case '{':
				depth++
			case '}':
				if depth--; depth < 0 {
					t.Errorf("%s:%d: unbalanced } in %q", name, n+1, line)
				}
			case '^', '~', '$', '#', '_':
				t.Errorf("%s:%d: special %q in %q", name, n+1, c, line)
			}
		}
		if depth != 0 {
			t.Errorf("%s:%d: unbalanced { in %q", name, n+1, line)
		}
	}
}

var mdPipe = regexp.MustCompile(`(^|[^\\])(\\\\)*\|`)

// checkMarkdown: no HTML, no line break but LF, an & only in the entities
// the escape writes, a caption that is a plain paragraph, and every table
// row with as many cells as the header.
func checkMarkdown(t *testing.T, name, md string) {
	t.Helper()
	if strings.Contains(md, "<") {
		t.Errorf("%s has a < unescaped:\n%s", name, md)
	}
	if n := strings.Count(md, "&") - strings.Count(md, "&amp;") - strings.Count(md, "&lt;") - strings.Count(md, "&gt;"); n != 0 {
		t.Errorf("%s has %d & outside an entity:\n%s", name, n, md)
	}
	cells := -1
	for n, line := range strings.Split(md, "\n") {
		if oneLine(line) != line {
			t.Errorf("%s:%d: a control or separator character in %q", name, n+1, line)
		}
		if !strings.HasPrefix(line, "|") {
			if line != "" && strings.ContainsAny(line[:1], "#+-=> \t0123456789") {
				t.Errorf("%s:%d: a paragraph starts with a block marker: %q", name, n+1, line)
			}
			continue
		}
		got := len(mdPipe.FindAllStringIndex(line, -1))
		if cells < 0 {
			cells = got
		}
		if got != cells {
			t.Errorf("%s:%d: %d cells under a header of %d: %q", name, n+1, got-1, cells-1, line)
		}
	}
}

// checkCSV: RFC 4180 records of one width, and no text cell a spreadsheet
// would take for a formula.
func checkCSV(t *testing.T, name string, data []byte) {
	t.Helper()
	recs, err := csv.NewReader(bytes.NewReader(data)).ReadAll()
	if err != nil {
		t.Errorf("%s: %v", name, err)
		return
	}
	for n, rec := range recs {
		for _, cell := range rec {
			if cell == "" || !strings.ContainsRune("=+-@\t\r", rune(cell[0])) {
				continue
			}
			if _, err := strconv.ParseFloat(cell, 64); err != nil {
				t.Errorf("%s:%d: a formula %q", name, n+1, cell)
			}
		}
	}
}

// checkSVG: well-formed XML without a script element or an event handler.
func checkSVG(t *testing.T, name string, svg []byte) {
	t.Helper()
	dec := xml.NewDecoder(bytes.NewReader(svg))
	for {
		tok, err := dec.Token()
		if errors.Is(err, io.EOF) {
			return
		}
		if err != nil {
			t.Errorf("%s is not well-formed XML: %v", name, err)
			return
		}
		if el, ok := tok.(xml.StartElement); ok {
			if strings.EqualFold(el.Name.Local, "script") || strings.EqualFold(el.Name.Local, "foreignObject") {
				t.Errorf("%s: a %s element", name, el.Name.Local)
			}
			for _, a := range el.Attr {
				if strings.HasPrefix(strings.ToLower(a.Name.Local), "on") {
					t.Errorf("%s: attribute %s", name, a.Name.Local)
				}
			}
		}
	}
}

// The escapes one by one, for what the run test cannot show.
func TestEscapes(t *testing.T) {
	for in, want := range map[string]string{
		`50% of $x_1$ & {y} \ ~^#`:      `50\% of \$x\_1\$ \& \{y\} \textbackslash{} \textasciitilde{}\textasciicircum{}\#`,
		"a\rb\nc\td\x00e\u2028f\u202eg": "a b c d e f g",
		"[1em] <b>|</b>":                `{[}1em{]} \textless{}b\textgreater{}\textbar{}\textless{}/b\textgreater{}`,
		"\xff":                          "\uFFFD",
	} {
		if got := texEscape(in); got != want {
			t.Errorf("texEscape(%q) = %q, want %q", in, got, want)
		}
	}
	if got := texRow([]string{"*", "x"}, nil); got != `{}* & x \\` {
		t.Errorf("texRow = %q", got)
	}
	for in, want := range map[string]string{
		"a|b <script>*x*\nc":          `a\|b &lt;script&gt;\*x\* c`,
		`\|`:                          `\\\|`,
		"&lt; [l](u) `c` ~s~ $m$ _e_": "&amp;lt; \\[l\\](u) \\`c\\` \\~s\\~ \\$m\\$ \\_e\\_",
	} {
		if got := mdEscape(in); got != want {
			t.Errorf("mdEscape(%q) = %q, want %q", in, got, want)
		}
	}
	for in, want := range map[string]string{
		"# h": `\# h`, "- l": `\- l`, "+ l": `\+ l`, "=": `\=`, "> q": "&gt; q", "12. x": `12\. x`, "3) x": `3\) x`,
		"    code": "code", "1.7B models": `1\.7B models`, "Plain (%).": "Plain (%).",
	} {
		if got := mdBlock(in); got != want {
			t.Errorf("mdBlock(%q) = %q, want %q", in, got, want)
		}
	}
	for in, want := range map[string]string{
		"=1+2": "'=1+2", "+1+1": "'+1+1", "-2+3": "'-2+3", "@SUM(A1)": "'@SUM(A1)", "\t=1": "'\t=1", "\r=1": "'\r=1",
		"-0.5": "-0.5", "+3": "+3", "en-x": "en-x", "": "",
	} {
		if got := csvCell(in); got != want {
			t.Errorf("csvCell(%q) = %q, want %q", in, got, want)
		}
	}
}
