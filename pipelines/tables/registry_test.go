package tables

import (
	"context"
	"errors"
	"regexp"
	"slices"
	"testing"

	"github.com/datg/datg/internal/inputerr"
	datgsql "github.com/datg/datg/sql"
)

// The registry and sql/tables name the same tables: a query without an
// entry would have no declared inputs (and so no stale-input check), an
// entry without a query would never run.
func TestRegistryMatchesQueries(t *testing.T) {
	var queries []string
	for _, f := range datgsql.Tables() {
		queries = append(queries, f.Name)
		if _, ok := registered(f.Name); !ok {
			t.Errorf("sql/tables/%s.sql has no entry in registry.go", f.Name)
		}
	}
	seen := map[string]bool{}
	for _, e := range registry {
		if seen[e.Name] {
			t.Errorf("registry.go declares %s twice", e.Name)
		}
		seen[e.Name] = true
		if !slices.Contains(queries, e.Name) {
			t.Errorf("registry.go declares %s, but there is no sql/tables/%s.sql", e.Name, e.Name)
		}
	}
}

// Every entry says what it needs, even when that is nothing, and needs only
// inputs that have a producer and stale checks; every entry has a layout and
// says which traces it reads.
func TestRegistryDeclaresNeedsAndLayout(t *testing.T) {
	for _, e := range registry {
		if e.Needs == nil {
			t.Errorf("%s: Needs is not declared (write []string{} for a table that needs no derived table)", e.Name)
		}
		for _, need := range e.Needs {
			if _, ok := inputs[need]; !ok {
				t.Errorf("%s needs %q, which inputs.go does not describe", e.Name, need)
			}
		}
		if e.Layout == nil {
			t.Errorf("%s: no Layout (long shows the rows as they come)", e.Name)
		}
		if e.Reads.where == "" {
			t.Errorf("%s: Reads is not declared (allTraces for a table over every trace)", e.Name)
		}
	}
}

// A table name Only does not know is an error naming the field, before any
// work: it used to be dropped silently.
func TestValidateNamesConfigFields(t *testing.T) {
	cfg := DefaultConfig()
	cfg.Data = ""
	cfg.Only = []string{"compliance", "complience"}
	cfg.Columns = 3
	err := cfg.Validate()
	if !errors.Is(err, inputerr.ErrInvalidConfig) || !errors.Is(err, ErrUnknownTable) || !errors.Is(err, ErrColumns) {
		t.Fatalf("Validate() = %v, want ErrInvalidConfig, ErrUnknownTable and ErrColumns", err)
	}
	var fields []string
	for _, fe := range inputerr.Fields(err) {
		fields = append(fields, fe.Field)
	}
	if want := []string{"Data", "Columns", "Only"}; !slices.Equal(fields, want) {
		t.Errorf("fields at fault = %v, want %v", fields, want)
	}
	if _, err := Run(context.Background(), cfg); !errors.Is(err, inputerr.ErrInvalidConfig) {
		t.Errorf("Run with an invalid Config: %v, want ErrInvalidConfig", err)
	}
	if err := DefaultConfig().Validate(); err != nil {
		t.Errorf("DefaultConfig().Validate() = %v", err)
	}
}

// A table the registry says reads the probe selects the probe's traces in
// its query (the probe column, probe_trace, stg_compliance_traces, which
// keeps the probe's en-x traces, or a view of the DATG tables' traces, the
// probe's en-en and en-x ones), and the others do not: the
// registry's scope is what its input checks and captions rest on.
func TestProbeTablesSelectTheProbe(t *testing.T) {
	probe := regexp.MustCompile(`\b(probe|probe_trace|stg_compliance_traces|stg_datg_(traces|best_scores|coverage))\b`)
	comment := regexp.MustCompile(`--[^\n]*`)
	for _, e := range registry {
		f, _ := datgsql.Table(e.Name)
		if reads := probe.MatchString(comment.ReplaceAllString(f.Text, "")); reads != (e.Reads == probeTraces) {
			t.Errorf("%s: registry reads %s, query selects the probe: %v", e.Name, e.Reads.name, reads)
		}
	}
}
