package score

import (
	"context"
	"database/sql"
	"fmt"
)

// sortedInputs are the inputs of scores.sql keyed by trace that datg
// score copies, once, into temporary tables in trace id order on its
// connection: a temporary table shadows the view of its name there, in
// the staging views too, so each part's query then reads the table
// blocks of its own traces (DuckDB skips the others by their min and
// max). A run's files are not in trace order (trace ids are hashes, and
// align writes as it goes): every row group spans every trace id, so each
// part read the four tables whole, and 14 parts (ten times the paper's
// design) read the run 14 times: 7.0 CPU-s against 3.5 at the paper's
// size in parts of 5,000 against 50,000 (BENCHMARKS.md). The lineage is
// copied whole (its join with traces once), the events and harmful
// actions with the columns the staging views read. The tables spill past
// DuckDB's cap like any other.
var sortedInputs = []struct{ name, query string }{
	{"stg_alignment_lineage", "FROM main.stg_alignment_lineage"},
	{"alignment_events", "SELECT trace_id, dag_id, aligner, node_id, status, start_char, block_id FROM main.alignment_events"},
	{"harmful_actions", "SELECT trace_id, dag_id, aligner, matched_seq FROM main.harmful_actions"},
}

// minPartsToSort is the fewest parts for which datg score copies its
// inputs in trace order: the copy costs about what reading the run
// three times does (0.8 CPU-s at the paper's size, where a part's read
// of the run costs 0.3), so in 2 parts (the paper's size in parts of
// 50,000) it cost more than it saved: 4.2 CPU-s and 380 MB against 3.3
// and 321. The paper's size is 3 parts now (partAlignments): still not
// copied.
const minPartsToSort = 4

// sortInputs makes sortedInputs' tables on conn, before any part is
// chosen (every trace is then in).
func sortInputs(ctx context.Context, conn *sql.Conn) error {
	for _, in := range sortedInputs {
		if _, err := conn.ExecContext(ctx, fmt.Sprintf("CREATE TEMP TABLE %s AS %s ORDER BY trace_id", in.name, in.query)); err != nil {
			return fmt.Errorf("copying %s in trace order: %w", in.name, err)
		}
	}
	return nil
}
