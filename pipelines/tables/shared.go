package tables

import (
	"context"
	"database/sql"
	"fmt"
	"regexp"
)

// sharedViews are staging views that several tables read and that cost
// enough to compute once: stg_datg_intervals is a bootstrap of 13.5
// million weighted rows at the paper's design, which datg_main and
// datg_full both show. The queries read the views as any other (so each
// query alone, in datg sql or a test, gives the same rows); datg tables
// keeps each view's rows in a table of its in-memory database (seen by
// every connection, unlike a TEMP table) the first time a query it runs
// names it, and the view then reads those.
var sharedViews = []string{"stg_datg_intervals"}

// sharedInputs are the shared views kept so far in one run's database.
type sharedInputs struct {
	db   *sql.DB
	kept map[string]bool
}

func newSharedInputs(db *sql.DB) *sharedInputs {
	return &sharedInputs{db: db, kept: map[string]bool{}}
}

// prepare keeps the rows of every shared view that query names, once.
func (s *sharedInputs) prepare(ctx context.Context, query string) error {
	for _, view := range sharedViews {
		if s.kept[view] || !mentionsView(query, view) {
			continue
		}
		kept := "datg_kept_" + view
		for _, stmt := range []string{
			fmt.Sprintf("CREATE TABLE %s AS SELECT * FROM %s", kept, view),
			fmt.Sprintf("CREATE OR REPLACE VIEW %s AS SELECT * FROM %s", view, kept),
		} {
			if _, err := s.db.ExecContext(ctx, stmt); err != nil {
				return fmt.Errorf("sql/staging/%s.sql: %w", view, err)
			}
		}
		s.kept[view] = true
	}
	return nil
}

// mentionsView says whether query names view as a whole word.
func mentionsView(query, view string) bool {
	return regexp.MustCompile(`\b` + regexp.QuoteMeta(view) + `\b`).MatchString(query)
}
