package main

import (
	"context"
	"fmt"
	"regexp"
	"strconv"
	"strings"

	"github.com/datg/datg/pipelines/explain"
	"github.com/datg/datg/study"
)

var cmdExplain = &Command{
	UsageLine: "explain [--out FILE|DIR] [--aligner NAME] [--filter QUERY] [--probe-seed N] [--index-per N] [TRACE_ID...]",
	Short:     "datg view's trace pages as static HTML to share: one trace, a filter's or a list's",
	Long: `Explain writes datg view's trace pages as static files, to share:
the same templates and rendering as the viewer's trace page (the problem,
the verdicts and detections, the trace with its math rendered, repeats
folded and evidence highlighted and linked to its node, every reference
DAG of the problem drawn in layers, the harmful actions), with the links
made relative: previous and next walk the exported set, and an index
page summarizes it (n, accuracy with its Wilson interval, mean scores) and
links every page. Math is rendered by KaTeX, vendored: the pages load
nothing from the network and open from disk. Model text is escaped.

With one TRACE_ID it writes that trace's page: to --out FILE, with its
assets inline (one file that works alone), or to DIR/explain/NAME beside
its assets. With --filter (datg view's URL parameters, e.g.
'model=m&level=high&q=boxed': copy them from the viewer's address bar) it
writes the pages of every trace the filter matches, in its order; with
several TRACE_IDs, those traces' pages; with neither, every aligned
trace's. The set goes to --out DIR (default DIR/explain/) with its index
and the assets; datg's own earlier pages there are replaced, a user's
files never. The index is index.html, and for a set of more than
--index-per traces (default 1000) index-2.html, index-3.html and on,
linked to each other; a trace's page links the index page that lists
it. --aligner picks whose alignment to show (default: the first by
name). A filter's scope=probe is the direction probe's base
traces at --probe-seed (default 42; give the run's seed, as to datg view).

A page's NAME is PREFIX-HASH.html: PREFIX is up to 40 of the id's ASCII
letters, digits, '-' and '_' (other characters become '_'; "trace" when
none is left) and HASH the first 32 hex digits of the SHA-256 of the id.
Every trace id, however long or strange, gets its own page, named the same
in every run, and the index links it.

Flags go before the trace ids: datg explain --out FILE TRACE_ID.`,
}

var (
	explainCfg  = explain.DefaultConfig()
	explainData = dataFlag(&cmdExplain.Flag)
	explainSeed = cmdExplain.Flag.Int64("probe-seed", study.ProbeSeed, "the seed of the direction probe, whose base traces a filter's scope=probe selects (as datg view --probe-seed)")
)

func init() {
	cmdExplain.Run = runExplain
	fs := &cmdExplain.Flag
	fs.StringVar(&explainCfg.Out, "out", explainCfg.Out, "the page's file (or, without TRACE_ID, the directory)")
	fs.StringVar(&explainCfg.Aligner, "aligner", explainCfg.Aligner, "whose alignment to show (default: the first by name)")
	fs.StringVar(&explainCfg.Filter, "filter", explainCfg.Filter, "export the traces of this datg view filter (its URL parameters, e.g. 'model=m&level=high')")
	fs.IntVar(&explainCfg.IndexPer, "index-per", explainCfg.IndexPer, "traces an index page lists (index.html, then index-2.html, ...)")
}

func runExplain(ctx context.Context, cmd *Command, args []string) error {
	if err := flagAfterArg(cmd, "trace id", args); err != nil {
		return err
	}
	cfg := explainCfg
	cfg.Data, cfg.Stderr, cfg.ProbeSeed = *explainData, stderr, explainSeed
	switch {
	case len(args) == 1 && cfg.Filter == "":
		cfg.TraceID = args[0]
	case len(args) > 0:
		cfg.IDs = args
	}
	if err := needRun(cfg, cfg.Data); err != nil {
		return err
	}
	sum, err := explain.Run(ctx, cfg)
	if err != nil {
		return err
	}
	if sum.Index == "" {
		fmt.Fprintf(stdout, "explain: %s\n", sum.Written[0])
	} else if sum.Indexes > 1 {
		fmt.Fprintf(stdout, "explain: %d pages and an index of %d pages from %s\n", len(sum.Written)-sum.Indexes, sum.Indexes, sum.Index)
	} else {
		fmt.Fprintf(stdout, "explain: %d pages and %s\n", len(sum.Written)-1, sum.Index)
	}
	return nil
}

var plainWord = regexp.MustCompile(`^[A-Za-z0-9_./:=@+,%-]+$`)

// shellWords are the arguments as the user would retype them: plain words
// as they are, others quoted (so a newline or space in an id stays visible
// in a one-line message).
func shellWords(args []string) string {
	words := make([]string, len(args))
	for i, a := range args {
		words[i] = a
		if !plainWord.MatchString(a) {
			words[i] = strconv.Quote(a)
		}
	}
	return strings.Join(words, " ")
}
