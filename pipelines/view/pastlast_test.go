package view

import (
	"strings"
	"testing"
)

// A page past the filter's last (a shared URL after the filter shrank, or
// an edited one) says so and links the last page: it was an empty table
// under "page 999999 of 38" whose only links went further back one page
// at a time.
func TestPagePastTheLastLinksTheLast(t *testing.T) {
	ts := serve(t, writeRun(t, 60))
	status, body, _ := get(t, ts, "/?direction=en-x&per=25&page=9")
	if status != 200 {
		t.Fatalf("page 9 of 3: %d", status)
	}
	if !strings.Contains(body, "Page 9 is past the last page, 3,") || !strings.Contains(body, `href="/?direction=en-x&amp;page=3&amp;per=25"`) {
		t.Errorf("page 9 of 3 neither says it is past the last nor links page 3:\n%s", body[strings.Index(body, "<section class=\"results\">"):])
	}
	// Within the pages, and with no trace at all, no such note.
	for _, q := range []string{"/?direction=en-x&per=25&page=3", "/?direction=en-x&q=nothing+holds+this&page=2"} {
		if _, body, _ := get(t, ts, q); strings.Contains(body, "past the last page") {
			t.Errorf("%s says it is past the last page", q)
		}
	}
}
