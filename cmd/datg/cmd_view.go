package main

import (
	"context"

	"github.com/datg/datg/pipelines/view"
	"github.com/datg/datg/study"
)

var cmdView = &Command{
	UsageLine: "view [--addr HOST:PORT] [--allow-remote] [--cache-dir DIR] [--probe-seed N]",
	Short:     "a local, read-only web viewer over the run: traces with facets and search, trace pages with the DAGs, the paper tables",
	Long: `View serves the run in a web browser, read-only, until Ctrl-C:

  /        every trace, paginated and sorted, with facets and their counts
           (model, level, direction, languages, method, seed, verdict under
           either grader, compliance under either detector, aligner, CAR,
           PMF and HAR ranges), a search in the trace text and a summary of
           the filter (n, accuracy with its 95% Wilson interval, mean scores
           and coverage per aligner). Every state is a URL.
  /trace   one trace: the problem in its language and in English, the gold,
           both graders' and both detectors' decisions, the text with math
           marked for rendering and repeats folded, every evidence span
           linked both ways to its DAG node, the harmful actions, every
           reference DAG (the best marked), both aligners side by side,
           previous and next in the filter, and the same problem in the other
           languages, directions and models.
  /tables  every paper table from sql/tables (the queries datg tables runs),
           each row linked to the index of its traces.

The probe tables read the direction probe: base traces at the probe's
seed, --probe-seed (default 42, as datg tables; scripts/scale.sh's runs
are at seed 1), which is also the index's scope "probe". Over a run with
no base trace at that seed they have no rows, and /tables names the seeds
the run's base traces are at.

The viewer reads one generation of the run and moves to a newer commit on
the next page load, saying so on the page. It listens on --addr, a loopback
address by default (127.0.0.1:8080); another address needs --allow-remote,
as anyone who reaches it can read the whole run. Pages load only the
viewer's own assets (a Content-Security-Policy forbids anything else).

Searches read a search index of the generation's texts, built in the
background when a generation opens (until it is ready a search reads every
text) and kept in datg's cache directory, never in the run: --cache-dir,
else $DATG_CACHE_DIR, else the user's cache directory (~/.cache/datg on
Linux). It is made again only when the traces change; the 4 used last are
kept. The index of facets, sort keys and scores is kept there too, a file
per generation, mapped rather than loaded, so the viewer's memory does not
grow with the number of traces.`,
}

var (
	viewCfg  = view.DefaultConfig()
	viewData = dataFlag(&cmdView.Flag)
	viewSeed = cmdView.Flag.Int64("probe-seed", study.ProbeSeed, "the seed of the direction probe, whose base traces the probe tables read (as datg tables --probe-seed)")
)

func init() {
	cmdView.Run = runView
	fs := &cmdView.Flag
	fs.StringVar(&viewCfg.Addr, "addr", viewCfg.Addr, "host:port to listen on (loopback unless --allow-remote)")
	fs.BoolVar(&viewCfg.AllowRemote, "allow-remote", viewCfg.AllowRemote, "allow an --addr that is not a loopback address")
	fs.StringVar(&viewCacheDir, "cache-dir", "", "datg's cache directory, for the index and the search index (default $DATG_CACHE_DIR, else the user's cache directory/datg; never inside the run)")
}

var viewCacheDir string

func runView(ctx context.Context, cmd *Command, args []string) error {
	if err := noArgs(cmd, args); err != nil {
		return err
	}
	cfg := viewCfg
	cfg.Data, cfg.Log, cfg.ProbeSeed = *viewData, stderr, viewSeed
	if viewCacheDir != "" {
		cfg.CacheDir = viewCacheDir
	}
	if err := needRun(cfg, cfg.Data); err != nil {
		return err
	}
	return view.Serve(ctx, cfg, nil)
}
