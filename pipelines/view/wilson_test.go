package view

import (
	"context"
	"math"
	"testing"

	"github.com/datg/datg/internal/duck"
)

// The index's interval is the tables' (sql/macros/wilson.sql).
func TestWilsonIsTheMacro(t *testing.T) {
	db, err := duck.Open(context.Background(), t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	for _, c := range [][2]int{{0, 1}, {1, 1}, {0, 10}, {10, 10}, {3, 7}, {62, 125}, {1, 38250}, {19125, 38250}} {
		var lo, hi float64
		if err := db.QueryRow(`SELECT wilson_low(?::BIGINT, ?::BIGINT), wilson_high(?::BIGINT, ?::BIGINT)`, c[0], c[1], c[0], c[1]).Scan(&lo, &hi); err != nil {
			t.Fatal(err)
		}
		glo, ghi := wilson(c[0], c[1])
		if math.Abs(glo-lo) > 1e-12 || math.Abs(ghi-hi) > 1e-12 {
			t.Errorf("wilson(%d, %d) = [%v, %v], the macro [%v, %v]", c[0], c[1], glo, ghi, lo, hi)
		}
	}
}
