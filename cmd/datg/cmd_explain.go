package main

import (
	"context"
	"fmt"
	"regexp"
	"strconv"
	"strings"

	"github.com/datg/datg/pipelines/explain"
)

var cmdExplain = &Command{
	UsageLine: "explain [--out FILE] [--aligner NAME] [TRACE_ID]",
	Short:     "an HTML page of a trace aligned to its best DAG (or an index over the run)",
	Long: `Explain writes an HTML page for one trace: the trace text with the
aligner's evidence spans highlighted by node status (COMMIT, ATTEMPT,
ERROR) and the harmful actions marked, the trace's best reference DAG drawn
in layers (whole anchors in the boxes, nodes colored
COMMIT/ATTEMPT/ERROR/MISSING, edges with arrowheads routed between the
boxes and marked ordered or violated), the scores, the grader's verdict and
the language check. Math in the trace and the DAG is rendered by KaTeX,
vendored: the pages load nothing from the network. Model text is escaped.
--aligner picks whose alignment to show (default: the first by name). The
page goes to --out FILE, with KaTeX inline (default DIR/explain/NAME, with
KaTeX's files beside it).

Without TRACE_ID it writes an index page over every aligned trace of the
run and each trace's page to --out DIR (default DIR/explain/).

A page's NAME is PREFIX-HASH.html: PREFIX is up to 40 of the id's ASCII
letters, digits, '-' and '_' (other characters become '_'; "trace" when
none is left) and HASH the first 32 hex digits of the SHA-256 of the id.
Every trace id, however long or strange, gets its own page, named the same
in every run, and the index links it.

Flags go before the trace id: datg explain --out FILE TRACE_ID.`,
}

var (
	explainCfg  = explain.DefaultConfig()
	explainData = dataFlag(&cmdExplain.Flag)
)

func init() {
	cmdExplain.Run = runExplain
	fs := &cmdExplain.Flag
	fs.StringVar(&explainCfg.Out, "out", explainCfg.Out, "the page's file (or, without TRACE_ID, the directory)")
	fs.StringVar(&explainCfg.Aligner, "aligner", explainCfg.Aligner, "whose alignment to show (default: the first by name)")
}

func runExplain(ctx context.Context, cmd *Command, args []string) error {
	if err := flagAfterArg(cmd, "trace id", args); err != nil {
		return err
	}
	if len(args) > 1 {
		return usageError{cmd, "at most one trace id"}
	}
	cfg := explainCfg
	cfg.Data, cfg.Stderr = *explainData, stderr
	if len(args) == 1 {
		cfg.TraceID = args[0]
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
