package tables

import (
	"bytes"
	"encoding/csv"
	"strings"
)

// grid is a laid-out table: header rows, then parts (the floats of a long
// table: one per aligner, say), each of sections (a block of rows, like the
// paper's per-model or per-pair blocks). markdown() and latex() render it.
type grid struct {
	Caption string
	// Wide makes the LaTeX float a table* (spanning both columns of a
	// two-column paper), as the paper places the table.
	Wide bool
	// Groups are header rows of column groups above Header, top first
	// (Table 3's "Accuracy | Decoded Cost", then its levels). Markdown has
	// one header row: it joins each column's group labels and header.
	Groups [][]span
	Header []string // the last header row: one label per column
	// Align has one letter per column: l for text, c or r for numbers
	// (right-aligned in Markdown either way).
	Align string
	// Keys is how many leading columns name a block of rows (the pair of
	// the appendix DATG tables): LaTeX shows them on the block's first row
	// only, as the paper's \multirow does; Markdown repeats them on every
	// row, so the rows sort and copy whole.
	Keys int
	// PartLabel names what the parts are ("Aligner"): with several parts
	// Markdown has a first column of that name, and each LaTeX float's
	// caption names its part.
	PartLabel string
	// TitleLabel names what section titles are ("Model"): Markdown shows
	// them as a column of that name, LaTeX as a bold row above the
	// section, as the paper's appendix does.
	TitleLabel string
	Parts      []part
}

// span is a header cell over several columns; an empty label spans
// columns without a group.
type span struct {
	Label string
	Cols  int
}

// part is a group of sections that LaTeX keeps in floats of its own.
type part struct {
	Title    string
	Sections []section
}

type section struct {
	Title string // empty: no title
	Rows  [][]string
	// Bold marks the cells shown in bold (Table 3's best accuracies).
	Bold map[cellAt]bool
}

// cellAt is a cell of a section: its row and column.
type cellAt struct{ row, col int }

// add appends a section to the last part, making the first part if none.
func (g *grid) add(s section) {
	if len(g.Parts) == 0 {
		g.Parts = append(g.Parts, part{})
	}
	p := &g.Parts[len(g.Parts)-1]
	p.Sections = append(p.Sections, s)
}

// sections are every section of every part, in order.
func (g grid) sections() []section {
	var out []section
	for _, p := range g.Parts {
		out = append(out, p.Sections...)
	}
	return out
}

// hasTitles says whether any section has a title.
func (g grid) hasTitles() bool {
	for _, s := range g.sections() {
		if s.Title != "" {
			return true
		}
	}
	return false
}

// mdHeader is Markdown's one header row: for each column, its group labels
// (top first) and its header, joined.
func (g grid) mdHeader() []string {
	out := make([]string, len(g.Header))
	for i, h := range g.Header {
		var words []string
		for _, row := range g.Groups {
			if l := groupOf(row, i); l != "" {
				words = append(words, l)
			}
		}
		out[i] = strings.Join(append(words, h), " ")
	}
	return out
}

// groupOf is the label of the span of row over column i.
func groupOf(row []span, i int) string {
	col := 0
	for _, sp := range row {
		if i < col+sp.Cols {
			return sp.Label
		}
		col += sp.Cols
	}
	return ""
}

func csvBytes(r *result) []byte {
	var b bytes.Buffer
	w := csv.NewWriter(&b)
	w.Write(r.Columns)
	for _, row := range r.Rows {
		rec := make([]string, len(row))
		for i, v := range row {
			rec[i] = plain(v)
			if _, text := v.(string); text {
				rec[i] = csvCell(rec[i])
			}
		}
		w.Write(rec)
	}
	w.Flush()
	return b.Bytes()
}

// markdown renders the grid as one GitHub Markdown table under its caption
// (lead, when set, opens the caption: the table's place in the paper).
// Group labels are columns (Aligner, Model) repeated on every row, never
// rows of their own, and numbers are right-aligned.
func (g grid) markdown(lead string) []byte {
	var b strings.Builder
	caption := strings.TrimSpace(lead + " " + g.Caption)
	if caption != "" {
		b.WriteString(mdBlock(caption) + "\n\n")
	}
	parts := len(g.Parts) > 1 && g.PartLabel != ""
	titles := g.hasTitles()
	var header []string
	var align string
	if parts {
		header, align = append(header, g.PartLabel), align+"l"
	}
	if titles {
		header, align = append(header, g.TitleLabel), align+"l"
	}
	header, align = append(header, g.mdHeader()...), align+g.Align
	esc := func(cells []string) []string {
		out := make([]string, len(cells))
		for i, c := range cells {
			out[i] = mdEscape(c)
		}
		return out
	}
	line := func(cells []string) { b.WriteString("| " + strings.Join(cells, " | ") + " |\n") }
	line(esc(header))
	seps := make([]string, len(header))
	for i := range seps {
		seps[i] = "---"
		if i < len(align) && align[i] != 'l' {
			seps[i] = "---:"
		}
	}
	line(seps)
	for _, p := range g.Parts {
		for _, s := range p.Sections {
			for r, row := range s.Rows {
				var cells []string
				if parts {
					cells = append(cells, mdEscape(p.Title))
				}
				if titles {
					cells = append(cells, mdEscape(s.Title))
				}
				for c, v := range esc(row) {
					if s.Bold[cellAt{r, c}] && v != "" {
						v = "**" + v + "**"
					}
					cells = append(cells, v)
				}
				line(cells)
			}
		}
	}
	return []byte(b.String())
}
