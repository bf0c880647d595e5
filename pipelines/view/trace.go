package view

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"html/template"
	"net/http"
	"slices"
	"strconv"
	"strings"

	"github.com/datg/datg/pipelines/align"
)

// tracePage is a trace's page.
type tracePage struct {
	F          Filter
	T          traceRow
	Question   []questionView // in the input language, then English
	Gold       string
	Verdicts   []verdictView
	Detections []detectionView
	Aligner    string        // whose alignment the text and the drawings show
	Aligners   []alignerLink // the aligners that scored the trace
	Scores     []scoreRow    // per DAG, each aligner's scores
	DAGs       []dagView     // every reference DAG of the problem
	Shown      *dagView      // the DAG whose evidence the text shows
	SideBySide []sideView    // the shown DAG under each aligner, when several
	Text       textView
	Harmful    []harmView
	NotAligned string // why the trace has no alignment, when it has none
	Prev, Next string
	Pos, Total int
	Related    []relatedRow
	IndexHref  string
	marks      []mark // the shown DAG's evidence, in character offsets
}

type traceRow struct {
	ID, Model, InputLang, ReasoningLang, Direction, Level, Problem, Method, Finish string
	Seed, Tokens                                                                   int64
	Truncated                                                                      bool
	Text                                                                           string
}

type questionView struct {
	Lang     string
	Question template.HTML
}

type verdictView struct{ Grader, Extracted, Verdict, Reason, FoundIn string }

type detectionView struct {
	Detector, Detected, Status, Shares string
	Compliant                          bool
}

type alignerLink struct {
	Name, Href string
	Shown      bool
}

type scoreRow struct {
	RefIndex  int
	DagID     string
	ByAligner []scoreCell
}

type scoreCell struct {
	Has, Best bool
	CAR, HAR  float64
	PMF       sql.NullFloat64
}

type dagView struct {
	RefIndex    int
	DagID       string
	Valid       bool
	Reason      string
	Best, Shown bool
	Href        string // the page showing this DAG's evidence
	SVG         template.HTML
	Nodes       []nodeView
	drawing     dagDrawing
	nodeKey     map[string]string
}

type nodeView struct {
	ID, Status  string
	Anchor      template.HTML
	Description template.HTML
	Final       bool
}

type sideView struct {
	Aligner string
	Shown   bool   // the aligner whose evidence the text shows
	Href    string // the page showing this aligner's evidence
	Score   scoreCell
	SVG     template.HTML
}

type harmView struct {
	N                     int
	Category, Label, Span string
	Located               bool
}

type relatedRow struct {
	Model, Direction, InputLang, ReasoningLang, Seed, Method, Verdict, Href string
	Current                                                                 bool
	id                                                                      string
}

// The drawing and the math of the pages: internal/dagdraw and
// internal/texmath (KaTeX renders the marked math in the browser).
var (
	drawer dagRenderer  = layeredDAG{}
	maths  mathRenderer = texMath{}
)

func (s *Server) trace(ctx context.Context, r *runDB, req *http.Request, info *pageInfo) (string, any, error) {
	q, err := queryOf(req.URL.RawQuery)
	if err != nil {
		return "", nil, err
	}
	id := q.Get("id")
	if id == "" {
		return "", nil, fmt.Errorf("%w id: no trace id given", ErrBadParam)
	}
	q.Del("id")
	f, err := parseFilter(q)
	if err != nil {
		return "", nil, err
	}
	f = f.withAligner(r.aligners)
	p, err := tracePageOf(ctx, r, f, id, q.Get("aligner_shown"), q.Get("dag"), true)
	if err != nil {
		return "", nil, err
	}
	info.Title = "trace " + id
	return "trace", p, nil
}

// tracePageOf gathers a trace's page: aligner and dag (a ref_index) choose
// what the text shows ("": the filter's aligner, its best DAG).
// walk says to find the trace's previous and next in the filter (an
// export walks its own set instead), while the rows are read.
func tracePageOf(ctx context.Context, r *runDB, f Filter, id, aligner, dag string, walk bool) (*tracePage, error) {
	j, ok := r.rows.find(id)
	if !ok {
		return nil, fmt.Errorf("%w %q in generation %d of the run", ErrNoTrace, id, r.gen)
	}
	var (
		nav     *place
		walkErr error
		done    = make(chan struct{})
	)
	go func() {
		defer close(done)
		if walk {
			nav, walkErr = placeOf(ctx, r, f, id)
		}
	}()
	rows, err := readTraceRows(ctx, r, []string{id}, []string{r.rows.problemOf(j)})
	<-done
	if err := errors.Join(err, walkErr); err != nil {
		return nil, err
	}
	p, err := tracePageFrom(ctx, r, rows, drawer, f, id, aligner, dag)
	if err != nil {
		return nil, err
	}
	if nav != nil {
		p.Pos, p.Total, p.Prev, p.Next = nav.pos, nav.total, nav.prev, nav.next
	}
	return p, nil
}

// tracePageFrom makes a trace's page from its rows (read for it alone or
// with a batch), its DAGs drawn by dr.
func tracePageFrom(ctx context.Context, r *runDB, rows *traceRows, dr dagRenderer, f Filter, id, aligner, dag string) (*tracePage, error) {
	j, ok := r.rows.find(id)
	if !ok {
		return nil, fmt.Errorf("%w %q in generation %d of the run", ErrNoTrace, id, r.gen)
	}
	rf := r.rows
	p := &tracePage{F: f, IndexHref: f.URL("/")}
	p.T = traceRow{ID: id, Model: rf.val(0, j), Level: rf.val(1, j), Direction: rf.val(2, j), InputLang: rf.val(4, j), ReasoningLang: rf.val(5, j),
		Problem: rf.problemOf(j), Method: rf.val(6, j), Seed: rf.seedOf(j), Tokens: rf.tokensOf(j), Truncated: rf.truncatedOf(j)}
	text, ok := rows.text[id]
	if !ok {
		return nil, fmt.Errorf("reading trace %q: %w", id, sql.ErrNoRows)
	}
	p.T.Text, p.T.Finish = text, rows.finish[id]
	// The question in the trace's input language and in English, and the
	// gold answer.
	for _, q := range rows.questions[p.T.Problem] {
		if q.lang == p.T.InputLang || q.lang == "en" {
			p.Question = append(p.Question, questionView{q.lang, labelsHTML(q.question)})
			p.Gold = q.gold
		}
	}
	p.Verdicts, p.Detections = rows.verdicts[id], rows.detections[id]
	if err := p.alignments(rows, dr, aligner, dag); err != nil {
		return nil, err
	}
	p.related(r)
	// The marks' offsets count characters; the text is cut in bytes.
	offsets := newRuneOffsets(p.T.Text)
	for i := range p.marks {
		p.marks[i].Start, p.marks[i].End = offsets.byteAt(p.marks[i].Start), offsets.byteAt(p.marks[i].End)
	}
	p.Text = renderText(p.T.Text, p.marks, maths)
	return p, nil
}

// labelsHTML is prose with its math marked for rendering.
func labelsHTML(s string) template.HTML {
	var b strings.Builder
	writeProse(&b, s, 0, len(s), validSpans(maths.Spans(s), len(s)), 0, maths, &textView{})
	return template.HTML(b.String())
}

// event is an alignment event or a harmful action as the page reads it.
type event struct {
	DagID, Aligner, NodeID, Status, Span string
	Start, End                           sql.NullInt32
	Block                                sql.NullInt32
}

// alignments are the trace's scores under every aligner and DAG, every
// reference DAG of the problem drawn under the shown aligner, and the text
// with the shown DAG's evidence.
func (p *tracePage) alignments(rows *traceRows, dr dagRenderer, aligner, dagParam string) error {
	scores := rows.scores[p.T.ID]
	var aligners []string
	for _, s := range scores {
		if !slices.Contains(aligners, s.aligner) {
			aligners = append(aligners, s.aligner)
		}
	}
	// The aligner shown: the one asked for, else the filter's, else the
	// first that scored the trace.
	switch {
	case aligner != "" && slices.Contains(aligners, aligner):
	case slices.Contains(aligners, p.F.Aligner):
		aligner = p.F.Aligner
	case len(aligners) > 0:
		aligner = aligners[0]
	default:
		aligner = ""
	}
	p.Aligner = aligner
	for _, a := range aligners {
		p.Aligners = append(p.Aligners, alignerLink{Name: a, Href: p.F.traceWith(p.T.ID, a, ""), Shown: a == aligner})
	}
	if aligner == "" {
		p.NotAligned = notAlignedReason(p.T.Direction)
	}
	// Every DAG of the problem, with its nodes and edges.
	p.DAGs = rows.dagsOf(p.T.Problem)
	byDag := map[string]int{}
	for i, d := range p.DAGs {
		byDag[d.DagID] = i
		row := scoreRow{RefIndex: d.RefIndex, DagID: d.DagID}
		for _, a := range aligners {
			var c scoreCell
			for _, s := range scores {
				if s.dagID == d.DagID && s.aligner == a {
					c = s.cell
				}
			}
			row.ByAligner = append(row.ByAligner, c)
		}
		p.Scores = append(p.Scores, row)
	}
	// The DAG whose evidence the text shows: the one asked for, else the
	// aligner's best.
	shown := -1
	bestOf := map[string]int{}
	for _, s := range scores {
		if s.cell.Best {
			if i, ok := byDag[s.dagID]; ok {
				bestOf[s.aligner] = i
			}
		}
	}
	if i, ok := bestOf[aligner]; ok {
		p.DAGs[i].Best = true
		shown = i
	}
	if k, err := strconv.Atoi(dagParam); err == nil {
		for i, d := range p.DAGs {
			if d.RefIndex == k {
				shown = i
			}
		}
	}
	// Events and harmful actions of the trace, every aligner and DAG.
	events, harms := rows.events[p.T.ID], rows.harms[p.T.ID]
	for i := range p.DAGs {
		d := &p.DAGs[i]
		d.Href = p.F.traceWith(p.T.ID, aligner, strconv.Itoa(d.RefIndex)) + "#text"
		d.Shown = i == shown
		if err := d.draw(events, aligner, fmt.Sprintf("r%d-%s", d.RefIndex, aligner), dr); err != nil {
			return err
		}
	}
	var marks []mark
	if shown >= 0 {
		d := &p.DAGs[shown]
		p.Shown = d
		for _, e := range events {
			if e.DagID != d.DagID || e.Aligner != aligner || !e.Start.Valid || !e.End.Valid {
				continue
			}
			marks = append(marks, mark{Start: int(e.Start.Int32), End: int(e.End.Int32),
				Kind: strings.ToLower(e.Status), Keys: []string{e.NodeID}, Title: e.NodeID + " " + e.Status})
		}
		for _, h := range harms {
			if h.DagID != d.DagID || h.Aligner != aligner {
				continue
			}
			n := len(p.Harmful)
			hv := harmView{N: n, Category: h.Status, Label: h.NodeID, Span: h.Span, Located: h.Start.Valid && h.End.Valid}
			p.Harmful = append(p.Harmful, hv)
			if hv.Located {
				marks = append(marks, mark{Start: int(h.Start.Int32), End: int(h.End.Int32),
					Kind: "harmful", Harm: n, Title: "harmful: " + h.Status})
			}
		}
		// Both aligners side by side on the shown DAG.
		if len(aligners) > 1 {
			for _, a := range aligners {
				// Its own drawing ids (the shown aligner's DAG is drawn
				// above too); a node of the other aligner's drawing opens
				// the page of that aligner's evidence.
				sv := sideView{Aligner: a, Shown: a == aligner, Href: p.F.traceWith(p.T.ID, a, strconv.Itoa(d.RefIndex)) + "#text"}
				for _, s := range scores {
					if s.dagID == d.DagID && s.aligner == a {
						sv.Score = s.cell
					}
				}
				other := *d
				if err := other.draw(events, a, fmt.Sprintf("side-r%d-%s", d.RefIndex, a), dr); err != nil {
					return err
				}
				sv.SVG = other.SVG
				p.SideBySide = append(p.SideBySide, sv)
			}
		}
	}
	p.marks = marks
	return nil
}

// notAlignedReason says why a trace has no alignment: datg align aligns
// the directions of its default unless told others.
func notAlignedReason(direction string) string {
	dirs := align.DefaultConfig().Directions
	if !slices.Contains(dirs, direction) {
		return fmt.Sprintf("Not aligned: datg align aligns %s traces (its --directions default); this trace's direction is %s.", strings.Join(dirs, " and "), direction)
	}
	return "Not aligned yet: run datg align, then datg score."
}

// position is the index of a node in the drawing (-1: none).
func (d *dagView) position(nodeID string) int {
	return slices.IndexFunc(d.drawing.Nodes, func(n dagNode) bool { return n.ID == nodeID })
}

// draw sets the nodes' statuses and the edges' marks under aligner's
// events (as the scores read them: COMMIT over ERROR over ATTEMPT, an
// edge ordered when the parent's first located COMMIT is no later than
// the child's or both are in one block) and draws the DAG.
func (d *dagView) draw(events []event, aligner, drawingID string, dr dagRenderer) error {
	rank := map[string]int{"COMMIT": 3, "ERROR": 2, "ATTEMPT": 1}
	n := len(d.drawing.Nodes)
	status := make([]string, n)
	pos, block := make([]int, n), make([]int, n)
	for i := range n {
		status[i], pos[i], block[i] = "MISSING", -1, -1
	}
	for _, e := range events {
		if e.DagID != d.DagID || e.Aligner != aligner {
			continue
		}
		i := d.position(e.NodeID)
		if i < 0 {
			continue
		}
		if rank[e.Status] > rank[status[i]] {
			status[i] = e.Status
		}
		if e.Status == "COMMIT" && e.Start.Valid && (pos[i] < 0 || int(e.Start.Int32) < pos[i]) {
			pos[i], block[i] = int(e.Start.Int32), -1
			if e.Block.Valid {
				block[i] = int(e.Block.Int32)
			}
		}
	}
	drawing := dagDrawing{ID: drawingID, Label: "reference DAG " + d.DagID + " (" + aligner + ")",
		Nodes: slices.Clone(d.drawing.Nodes), Edges: slices.Clone(d.drawing.Edges)}
	for i := range drawing.Nodes {
		drawing.Nodes[i].Status = strings.ToLower(status[i])
		if i < len(d.Nodes) {
			d.Nodes[i].Status = strings.ToLower(status[i])
		}
	}
	for k, e := range drawing.Edges {
		mark := "open"
		if status[e.From] == "COMMIT" && status[e.To] == "COMMIT" && pos[e.From] >= 0 && pos[e.To] >= 0 {
			mark = "violated"
			if pos[e.From] <= pos[e.To] || (block[e.From] >= 0 && block[e.From] == block[e.To]) {
				mark = "ordered"
			}
		}
		drawing.Edges[k].Mark = mark
	}
	svg, err := dr.SVG(drawing)
	if err != nil {
		return fmt.Errorf("drawing %s: %w", d.DagID, err)
	}
	d.SVG = svg
	return nil
}

// place is a trace's place in a filter: its position of total, its
// previous and next.
type place struct {
	pos, total int
	prev, next string
}

// placeOf finds the trace's place, previous and next in the filter (nil:
// not in it): among the filter's rows in its order (runDB.filteredRows:
// kept, or its set of rows and a walk of its order), or, for a filter that
// holds every row, a walk of its order up to the trace's next.
func placeOf(ctx context.Context, r *runDB, f Filter, id string) (*place, error) {
	var search bitmap
	if f.Q != "" {
		var err error
		if search, err = r.searchRows(ctx, f.Q); err != nil {
			return nil, err
		}
	}
	self, ok := r.rows.find(id)
	if !ok {
		return nil, nil
	}
	m := r.compile(f, search)
	// A filter that holds every row (none but an order) tests none, and
	// the walk stops at the trace's next: the total is every row.
	all := m.all()
	if !all { // the filter's rows, kept or walked once (placecache.go)
		return r.placeAmong(f, r.filteredRows(f, m), self), nil
	}
	prev, next, pos, total := -1, -1, 0, 0
	r.rows.walk(f.Sort, f.Desc, f.alignerIdx, func(j int) bool {
		if !all && m.fails(j) != 0 {
			return true
		}
		total++
		switch {
		case j == self:
			pos = total
		case pos == 0:
			prev = j
		case next < 0:
			next = j
			return !all
		}
		return true
	})
	if all {
		total = r.rows.N
	}
	if pos == 0 {
		return nil, nil
	}
	nav := &place{pos: pos, total: total}
	if prev >= 0 {
		nav.prev = f.Trace(r.rows.id(prev))
	}
	if next >= 0 {
		nav.next = f.Trace(r.rows.id(next))
	}
	return nav, nil
}

// related are the same problem's traces, from the index: in the default
// order, at most maxRelated; the problem's rows of the row file's
// by-problem order (in the default order), each tested against the
// filter of the problem.
func (p *tracePage) related(r *runDB) {
	byProblem := Filter{Problem: p.T.Problem, Per: defaultPer, Page: 1}.withAligner(r.aligners)
	m := r.compile(byProblem, nil)
	rf := r.rows
	code, ok := rf.problemCode[p.T.Problem]
	if !ok {
		return
	}
	rf.problemRows(uint32(code), func(j int) bool {
		if m.fails(j) != 0 {
			return true
		}
		id := rf.id(j)
		p.Related = append(p.Related, relatedRow{Model: rf.val(0, j), Direction: rf.val(2, j), InputLang: rf.val(4, j), ReasoningLang: rf.val(5, j),
			Seed: rf.val(7, j), Method: rf.val(6, j), Verdict: rf.val(9, j), Current: id == p.T.ID, Href: Filter{}.Trace(id), id: id})
		return len(p.Related) < maxRelated
	})
}

// maxRelated bounds the list of a problem's traces on a trace page.
const maxRelated = 1000

// traceWith is a trace's page under the filter, showing aligner's
// alignment of the DAG of ref_index dag ("": the defaults).
func (f Filter) traceWith(id, aligner, dag string) string {
	u := f.Trace(id)
	if aligner != "" {
		u += "&aligner_shown=" + urlQueryEscape(aligner)
	}
	if dag != "" {
		u += "&dag=" + urlQueryEscape(dag)
	}
	return u
}
