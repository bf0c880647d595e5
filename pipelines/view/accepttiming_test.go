package view

import (
	"net/url"
	"os"
	"sort"
	"strconv"
	"strings"
	"testing"

	"github.com/chromedp/chromedp"
)

// TestViewerTimings times issue 22's pages as Chromium gets them from a
// `datg view` already serving a run, first and repeated: each page's
// Navigation Timing (response: requestStart to responseEnd, the server's
// answer as the browser saw it) and, given the server's process id, the
// CPU time the server spent on it (/proc/PID/stat's user + system time
// over the loads: what an unshared core would take), then the server's
// memory after the tour (/proc/PID/status).
//
//	DATG_VIEW_URL=http://127.0.0.1:8080 DATG_VIEW_PID=PID DATG_VIEW_RUN=RUN DATG=$PWD/bin/datg \
//	  go test -run TestViewerTimings -v ./pipelines/view
//
// It asserts nothing about time (the machine is shared): it logs.
func TestViewerTimings(t *testing.T) {
	base := strings.TrimSuffix(os.Getenv("DATG_VIEW_URL"), "/")
	if base == "" {
		t.Skip("DATG_VIEW_URL is not set (a running datg view)")
	}
	pid := os.Getenv("DATG_VIEW_PID")
	cpu := func() float64 { // the server's CPU time so far, in ms
		if pid == "" {
			return 0
		}
		b, err := os.ReadFile("/proc/" + pid + "/stat")
		if err != nil {
			t.Fatal(err)
		}
		s := string(b)
		f := strings.Fields(s[strings.LastIndexByte(s, ')')+2:])
		u, _ := strconv.ParseFloat(f[11], 64)
		k, _ := strconv.ParseFloat(f[12], 64)
		return (u + k) * 10 // clock ticks of 10 ms
	}
	b := newBrowser(t, 1280, 900)
	// A trace of the run in the middle of its ids, an en-x one (aligned).
	// (A run too small for these pages, the demo, is told, not waited on:
	// TestViewerAcceptance takes any run.)
	b.do("index", chromedp.Navigate(base+"/?direction=en-x&sort=car&desc=1&page=7"), chromedp.WaitVisible(`h1`))
	if n := eval[int](b, `document.querySelectorAll("a.trace-link").length`); n < 18 {
		t.Skipf("page 7 of the en-x traces has %d traces: these timings are of a run of the paper's size (38,250 traces)", n)
	}
	id := eval[string](b, `document.querySelectorAll("a.trace-link")[17].textContent`)
	problem := eval[string](b, `document.querySelectorAll("table.traces tbody tr")[17].cells[3].textContent`)
	b.do("index", chromedp.Navigate(base+"/?direction=x-en&page=11"), chromedp.WaitVisible(`h1`))
	if n := eval[int](b, `document.querySelectorAll("a.trace-link").length`); n < 4 {
		t.Skipf("page 11 of the x-en traces has %d traces: these timings are of a run of the paper's size (38,250 traces)", n)
	}
	other := eval[string](b, `document.querySelectorAll("a.trace-link")[3].textContent`)
	trace := "/trace?id=" + url.QueryEscape(id)
	pages := []struct{ name, path string }{
		{"index", "/"},
		{"filter: direction, level, verdict", "/?direction=en-x&level=high&mv=correct"},
		{"filter: two facets more", "/?direction=en-x&level=high&mv=correct&reasoning=bn&reasoning=te&model=Qwen%2FQwen3-4B"},
		{"CAR range + sort by HAR + page 3", "/?car_min=0.4&car_max=0.8&sort=har&desc=1&page=3"},
		{"sort by tokens, page 200", "/?sort=tokens&desc=1&page=200"},
		{"search, Bengali word", "/?q=" + url.QueryEscape("বাংলায়")},
		{"search + facet", "/?q=" + url.QueryEscape(`\frac{`) + "&direction=x-en"},
		{"comparison view (problem)", "/?problem=" + url.QueryEscape(problem)},
		{"trace page, aligned en-x", trace},
		{"trace page, x-en", "/trace?id=" + url.QueryEscape(other)},
		{"trace page within a filter", trace + "&direction=en-x&sort=car&desc=1"},
		{"tables", "/tables"},
	}
	for _, p := range pages {
		var first navTiming
		var resp []float64
		var firstCPU, cpuSum float64
		for i := range 6 {
			c0 := cpu()
			b.do("load "+p.path, chromedp.Navigate(base+p.path), chromedp.WaitVisible(`h1`))
			nt := b.timing()
			c := cpu() - c0
			if i == 0 {
				first, firstCPU = nt, c
				continue
			}
			resp = append(resp, nt.Response)
			cpuSum += c
		}
		sort.Float64s(resp)
		t.Logf("| %s | %.0f ms (CPU %.0f ms) | %.0f ms | %.0f | %.0f ms | %.0f ms |", p.name, first.Response, firstCPU, resp[len(resp)/2],
			resp, cpuSum/float64(len(resp)), first.Loaded)
	}
	if pid != "" {
		status, err := os.ReadFile("/proc/" + pid + "/status")
		if err != nil {
			t.Fatal(err)
		}
		for _, l := range strings.Split(string(status), "\n") {
			for _, k := range []string{"VmHWM", "VmRSS", "RssAnon", "RssFile"} {
				if strings.HasPrefix(l, k+":") {
					t.Log(strings.Join(strings.Fields(l), " "))
				}
			}
		}
	}
}
