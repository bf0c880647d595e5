package testenv

import (
	"context"
	"database/sql"
	"encoding/json"
	"fmt"
)

// Plan is an operator of DuckDB's EXPLAIN (ANALYZE, FORMAT JSON): what
// tests read to tell which rows a query's scans returned.
type Plan struct {
	Name     string         `json:"operator_name"`
	Rows     int64          `json:"operator_cardinality"`
	Extra    map[string]any `json:"extra_info"`
	Children []Plan         `json:"children"`
}

// Walk calls f on the operator and every operator below it.
func (n Plan) Walk(f func(Plan)) {
	f(n)
	for _, c := range n.Children {
		c.Walk(f)
	}
}

// Explainer is a database or one of its connections.
type Explainer interface {
	QueryRowContext(ctx context.Context, query string, args ...any) *sql.Row
}

// ExplainAnalyze runs query under EXPLAIN (ANALYZE, FORMAT JSON) and
// returns its plan's root operator.
func ExplainAnalyze(ctx context.Context, db Explainer, query string) (Plan, error) {
	var key, plan string
	if err := db.QueryRowContext(ctx, "EXPLAIN (ANALYZE, FORMAT JSON) "+query).Scan(&key, &plan); err != nil {
		return Plan{}, err
	}
	var root Plan
	if err := json.Unmarshal([]byte(plan), &root); err != nil {
		return Plan{}, fmt.Errorf("reading the plan: %w", err)
	}
	return root, nil
}
