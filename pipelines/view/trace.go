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
	"sync"

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
// export walks its own set instead).
func tracePageOf(ctx context.Context, r *runDB, f Filter, id, aligner, dag string, walk bool) (*tracePage, error) {
	j, ok := r.byID[id]
	if !ok {
		return nil, fmt.Errorf("%w %q in generation %d of the run", ErrNoTrace, id, r.gen)
	}
	x := &r.rows[j]
	p := &tracePage{F: f, IndexHref: f.URL("/")}
	p.T = traceRow{ID: x.id, Model: x.vals[0], Level: x.vals[1], Direction: x.vals[2], InputLang: x.vals[4], ReasoningLang: x.vals[5],
		Problem: x.problemID, Method: x.vals[6], Seed: x.seed, Tokens: x.tokens, Truncated: x.truncated}
	// The page's reads are independent: they run at once, each on a
	// connection of its own.
	parts := []func() error{
		func() error {
			var text, finish sql.NullString
			err := r.db.QueryRowContext(ctx, `SELECT text, finish_reason FROM traces WHERE trace_id = ?`, id).Scan(&text, &finish)
			if err != nil {
				return fmt.Errorf("reading trace %q: %w", id, err)
			}
			p.T.Text, p.T.Finish = text.String, finish.String
			return nil
		},
		func() error { return p.problem(ctx, r) },
		func() error { return p.decisions(ctx, r) },
		func() error { return p.alignments(ctx, r, aligner, dag) },
		func() error { return p.neighbours(ctx, r, walk) },
	}
	errs := make([]error, len(parts))
	var wg sync.WaitGroup
	for i, part := range parts {
		wg.Add(1)
		go func() {
			defer wg.Done()
			errs[i] = part()
		}()
	}
	wg.Wait()
	if err := errors.Join(errs...); err != nil {
		return nil, err
	}
	// The marks' offsets count characters; the text is cut in bytes.
	offsets := newRuneOffsets(p.T.Text)
	for i := range p.marks {
		p.marks[i].Start, p.marks[i].End = offsets.byteAt(p.marks[i].Start), offsets.byteAt(p.marks[i].End)
	}
	p.Text = renderText(p.T.Text, p.marks, maths)
	return p, nil
}

// problem is the question in the trace's input language and in English,
// and the gold answer.
func (p *tracePage) problem(ctx context.Context, r *runDB) error {
	rows, err := r.db.QueryContext(ctx, `SELECT lang, question, answer FROM problems WHERE problem_id = ? AND lang IN (?, 'en')
		ORDER BY lang = 'en', lang`, p.T.Problem, p.T.InputLang)
	if err != nil {
		return fmt.Errorf("reading problem %q: %w", p.T.Problem, err)
	}
	defer rows.Close()
	for rows.Next() {
		var lang, question, gold string
		if err := rows.Scan(&lang, &question, &gold); err != nil {
			return err
		}
		p.Question = append(p.Question, questionView{lang, labelsHTML(question)})
		p.Gold = gold
	}
	return rows.Err()
}

// labelsHTML is prose with its math marked for rendering.
func labelsHTML(s string) template.HTML {
	var b strings.Builder
	writeProse(&b, s, 0, len(s), validSpans(maths.Spans(s), len(s)), 0, maths, &textView{})
	return template.HTML(b.String())
}

// decisions are both graders' verdicts and both detectors' decisions
// (from verdicts and detections, else answers and compliance).
func (p *tracePage) decisions(ctx context.Context, r *runDB) error {
	rows, err := r.db.QueryContext(ctx, `SELECT grader, extracted, has_answer, correct, reason, found_in FROM verdicts WHERE trace_id = ?
		UNION ALL SELECT grader, extracted, has_answer, correct, reason, found_in FROM answers a WHERE trace_id = ?
			AND NOT EXISTS (SELECT 1 FROM verdicts v WHERE v.trace_id = a.trace_id AND v.grader = split_part(a.grader, ' ', 1))
		ORDER BY 1`, p.T.ID, p.T.ID)
	if err != nil {
		return fmt.Errorf("reading the verdicts of %q: %w", p.T.ID, err)
	}
	defer rows.Close()
	for rows.Next() {
		var v verdictView
		var has, correct bool
		if err := rows.Scan(&v.Grader, &v.Extracted, &has, &correct, &v.Reason, &v.FoundIn); err != nil {
			return err
		}
		switch {
		case v.Reason == "gold-unparsed":
			v.Verdict = "gold-unparsed"
		case !has:
			v.Verdict = "no-answer"
		case correct:
			v.Verdict = "correct"
		default:
			v.Verdict = "incorrect"
		}
		p.Verdicts = append(p.Verdicts, v)
	}
	if err := rows.Err(); err != nil {
		return err
	}
	drows, err := r.db.QueryContext(ctx, `SELECT detector, detected, compliant, status, shares FROM detections WHERE trace_id = ?
		UNION ALL SELECT detector, detected, compliant, status, shares FROM compliance c WHERE trace_id = ?
			AND NOT EXISTS (SELECT 1 FROM detections d WHERE d.trace_id = c.trace_id AND d.detector = c.detector)
		ORDER BY 1`, p.T.ID, p.T.ID)
	if err != nil {
		return fmt.Errorf("reading the language checks of %q: %w", p.T.ID, err)
	}
	defer drows.Close()
	for drows.Next() {
		var d detectionView
		if err := drows.Scan(&d.Detector, &d.Detected, &d.Compliant, &d.Status, &d.Shares); err != nil {
			return err
		}
		p.Detections = append(p.Detections, d)
	}
	return drows.Err()
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
func (p *tracePage) alignments(ctx context.Context, r *runDB, aligner, dagParam string) error {
	type score struct {
		dagID, aligner string
		ref            int
		cell           scoreCell
	}
	var scores []score
	rows, err := r.db.QueryContext(ctx, `SELECT dag_id, aligner, ref_index, car, pmf, har, best FROM scores WHERE trace_id = ? ORDER BY aligner, ref_index`, p.T.ID)
	if err != nil {
		return fmt.Errorf("reading the scores of %q: %w", p.T.ID, err)
	}
	defer rows.Close()
	var aligners []string
	for rows.Next() {
		var s score
		s.cell.Has = true
		if err := rows.Scan(&s.dagID, &s.aligner, &s.ref, &s.cell.CAR, &s.cell.PMF, &s.cell.HAR, &s.cell.Best); err != nil {
			return err
		}
		scores = append(scores, s)
		if !slices.Contains(aligners, s.aligner) {
			aligners = append(aligners, s.aligner)
		}
	}
	if err := rows.Err(); err != nil {
		return err
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
	if err := p.dags(ctx, r); err != nil {
		return err
	}
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
	events, harms, err := p.events(ctx, r)
	if err != nil {
		return err
	}
	for i := range p.DAGs {
		d := &p.DAGs[i]
		d.Href = p.F.traceWith(p.T.ID, aligner, strconv.Itoa(d.RefIndex)) + "#text"
		d.Shown = i == shown
		if err := d.draw(events, aligner); err != nil {
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
				sv := sideView{Aligner: a}
				for _, s := range scores {
					if s.dagID == d.DagID && s.aligner == a {
						sv.Score = s.cell
					}
				}
				other := *d
				if err := other.draw(events, a); err != nil {
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
		return fmt.Sprintf("Not aligned: datg align aligns %s traces (its --directions default); this is a %s trace.", strings.Join(dirs, " and "), direction)
	}
	return "Not aligned yet: run datg align, then datg score."
}

// dags reads every reference DAG of the trace's problem.
func (p *tracePage) dags(ctx context.Context, r *runDB) error {
	rows, err := r.db.QueryContext(ctx, `SELECT dag_id, ref_index, valid, reason FROM dags WHERE problem_id = ? ORDER BY ref_index`, p.T.Problem)
	if err != nil {
		return fmt.Errorf("reading the DAGs of %q: %w", p.T.Problem, err)
	}
	defer rows.Close()
	for rows.Next() {
		var d dagView
		if err := rows.Scan(&d.DagID, &d.RefIndex, &d.Valid, &d.Reason); err != nil {
			return err
		}
		p.DAGs = append(p.DAGs, d)
	}
	if err := rows.Err(); err != nil {
		return err
	}
	index := map[string]int{}
	for i, d := range p.DAGs {
		index[d.DagID] = i
	}
	nrows, err := r.db.QueryContext(ctx, `SELECT n.dag_id, n.node_id, n.position, n.anchor, n.description, n.final
		FROM nodes n JOIN dags d USING (dag_id) WHERE d.problem_id = ? ORDER BY n.dag_id, n.position`, p.T.Problem)
	if err != nil {
		return fmt.Errorf("reading the DAGs' nodes of %q: %w", p.T.Problem, err)
	}
	defer nrows.Close()
	for nrows.Next() {
		var dagID, nodeID, anchor, desc string
		var pos int
		var final bool
		if err := nrows.Scan(&dagID, &nodeID, &pos, &anchor, &desc, &final); err != nil {
			return err
		}
		i, ok := index[dagID]
		if !ok {
			continue
		}
		d := &p.DAGs[i]
		d.drawing.Nodes = append(d.drawing.Nodes, dagNode{ID: nodeID, Label: anchor, Detail: desc, Final: final})
		d.Nodes = append(d.Nodes, nodeView{ID: nodeID, Anchor: labelHTML(anchor), Description: labelsHTML(desc), Final: final})
	}
	if err := nrows.Err(); err != nil {
		return err
	}
	erows, err := r.db.QueryContext(ctx, `SELECT e.dag_id, e.parent_id, e.child_id FROM edges e JOIN dags d USING (dag_id)
		WHERE d.problem_id = ? ORDER BY e.dag_id, e.parent_id, e.child_id`, p.T.Problem)
	if err != nil {
		return fmt.Errorf("reading the DAGs' edges of %q: %w", p.T.Problem, err)
	}
	defer erows.Close()
	for erows.Next() {
		var dagID, parent, child string
		if err := erows.Scan(&dagID, &parent, &child); err != nil {
			return err
		}
		i, ok := index[dagID]
		if !ok {
			continue
		}
		d := &p.DAGs[i]
		from, to := d.position(parent), d.position(child)
		if from >= 0 && to >= 0 {
			d.drawing.Edges = append(d.drawing.Edges, dagEdge{From: from, To: to})
		}
	}
	return erows.Err()
}

// position is the index of a node in the drawing (-1: none).
func (d *dagView) position(nodeID string) int {
	return slices.IndexFunc(d.drawing.Nodes, func(n dagNode) bool { return n.ID == nodeID })
}

// events reads the trace's alignment events and harmful actions (a
// harmful action as an event: Status its category, NodeID its label).
func (p *tracePage) events(ctx context.Context, r *runDB) ([]event, []event, error) {
	read := func(q string) ([]event, error) {
		rows, err := r.db.QueryContext(ctx, q, p.T.ID)
		if err != nil {
			return nil, fmt.Errorf("reading the alignment of %q: %w", p.T.ID, err)
		}
		defer rows.Close()
		var out []event
		for rows.Next() {
			var e event
			if err := rows.Scan(&e.DagID, &e.Aligner, &e.NodeID, &e.Status, &e.Span, &e.Start, &e.End, &e.Block); err != nil {
				return nil, err
			}
			out = append(out, e)
		}
		return out, rows.Err()
	}
	events, err := read(`SELECT dag_id, aligner, node_id, status, evidence_span, start_char, end_char, block_id
		FROM alignment_events WHERE trace_id = ? ORDER BY aligner, dag_id, node_id, seq`)
	if err != nil {
		return nil, nil, err
	}
	harms, err := read(`SELECT dag_id, aligner, label, category, evidence_span, start_char, end_char, NULL
		FROM harmful_actions WHERE trace_id = ? ORDER BY aligner, dag_id, category, seq`)
	return events, harms, err
}

// draw sets the nodes' statuses and the edges' marks under aligner's
// events (as the scores read them: COMMIT over ERROR over ATTEMPT, an
// edge ordered when the parent's first located COMMIT is no later than
// the child's or both are in one block) and draws the DAG.
func (d *dagView) draw(events []event, aligner string) error {
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
	drawing := dagDrawing{ID: fmt.Sprintf("r%d-%s", d.RefIndex, aligner), Label: "reference DAG " + d.DagID + " (" + aligner + ")",
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
	svg, err := drawer.SVG(drawing)
	if err != nil {
		return fmt.Errorf("drawing %s: %w", d.DagID, err)
	}
	d.SVG = svg
	return nil
}

// neighbours are the previous and next traces in the filter's order, and
// the same problem's traces in the other languages, directions and models.
func (p *tracePage) neighbours(ctx context.Context, r *runDB, walk bool) error {
	if walk {
		if err := p.walk(ctx, r); err != nil {
			return err
		}
	}
	p.related(r)
	return nil
}

// walk finds the trace's place, previous and next in the page's filter.
func (p *tracePage) walk(ctx context.Context, r *runDB) error {
	f := p.F
	var search map[string]bool
	if f.Q != "" {
		var err error
		if search, err = r.searchIDs(ctx, f.Q); err != nil {
			return err
		}
	}
	res := r.query(f, search)
	r.order(f, res.matched)
	for k, j := range res.matched {
		if r.rows[j].id != p.T.ID {
			continue
		}
		p.Pos, p.Total = k+1, len(res.matched)
		if k > 0 {
			p.Prev = f.Trace(r.rows[res.matched[k-1]].id)
		}
		if k+1 < len(res.matched) {
			p.Next = f.Trace(r.rows[res.matched[k+1]].id)
		}
	}
	return nil
}

// related are the same problem's traces, from the index: in the default
// order, at most maxRelated.
func (p *tracePage) related(r *runDB) {
	byProblem := Filter{Problem: p.T.Problem, Per: defaultPer, Page: 1}.withAligner(r.aligners)
	same := r.query(byProblem, nil).matched
	r.order(byProblem, same)
	for _, j := range same[:min(len(same), maxRelated)] {
		x := &r.rows[j]
		p.Related = append(p.Related, relatedRow{Model: x.vals[0], Direction: x.vals[2], InputLang: x.vals[4], ReasoningLang: x.vals[5],
			Seed: x.vals[7], Method: x.vals[6], Verdict: x.vals[9], Current: x.id == p.T.ID, Href: Filter{}.Trace(x.id), id: x.id})
	}
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
