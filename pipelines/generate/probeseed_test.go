package generate

import (
	"slices"
	"testing"

	"github.com/datg/datg/study"
)

// The study samples the probe at the seed the probe tables read: were
// study.json's seed changed alone, datg generate would sample a probe that
// datg tables (study.ProbeSeed, its --probe-seed default) leaves out.
func TestStudySamplesTheProbeSeed(t *testing.T) {
	if seeds := DefaultStudy().Seeds; !slices.Equal(seeds, []int64{study.ProbeSeed}) {
		t.Fatalf("study.json seeds %v, study.ProbeSeed %d", seeds, study.ProbeSeed)
	}
}
