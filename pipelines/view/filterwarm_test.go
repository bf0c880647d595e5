package view

import (
	"bytes"
	"context"
	"testing"

	"github.com/datg/datg/schema"
)

// Opening a generation builds, in the background, the key filters of
// every table a trace page reads, so the first page does not; a page
// then scans no key column to build them.
func TestFiltersAreBuiltWhenAGenerationOpens(t *testing.T) {
	t.Parallel() // changes no package variable (see TestMain)
	dir := writeRun(t, 40)
	var log bytes.Buffer
	s, err := newServer(context.Background(), dir, t.TempDir(), &log)
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	r := s.cur
	if r.warmDone == nil {
		t.Fatal("opening the generation started no warm-up")
	}
	<-r.warmDone
	for _, k := range []struct {
		t   *schema.Table
		key string
	}{
		{schema.Traces.Table, "trace_id"}, {schema.AlignmentEvents.Table, "trace_id"}, {schema.HarmfulActions.Table, "trace_id"},
		{schema.Scores.Table, "trace_id"}, {schema.Verdicts.Table, "trace_id"}, {schema.Answers.Table, "trace_id"},
		{schema.Detections.Table, "trace_id"}, {schema.Compliances.Table, "trace_id"}, {schema.Problems.Table, "problem_id"},
		{schema.DAGs.Table, "problem_id"}, {schema.Nodes.Table, "dag_id"}, {schema.Edges.Table, "dag_id"},
	} {
		r.groups.mu.Lock()
		tf := r.groups.filters[k.t.Name+"\x00"+k.key]
		r.groups.mu.Unlock()
		if tf == nil || tf.filters == nil || tf.err != nil {
			t.Errorf("%s by %s: no key filters once the generation is open (%+v)", k.t.Name, k.key, tf)
		}
	}
	if bytes.Contains(log.Bytes(), []byte("say so too")) {
		t.Errorf("the warm-up logged an error: %s", log.String())
	}
}
