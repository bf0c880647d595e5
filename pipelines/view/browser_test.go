package view

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/chromedp/cdproto/cdp"
	"github.com/chromedp/cdproto/log"
	"github.com/chromedp/cdproto/network"
	"github.com/chromedp/cdproto/runtime"
	"github.com/chromedp/chromedp"

	"github.com/datg/datg/internal/testenv"
)

// browser is one headless Chromium tab driven by a test, recording what a
// user's developer tools would show: the console (messages, exceptions,
// CSP violations, failed loads) and every URL the page asked for.
type browser struct {
	t      testing.TB
	alloc  context.Context
	ctx    context.Context
	shots  string // where screenshots go ("": none taken)
	mu     sync.Mutex
	logged []string
	asked  []string
}

// newBrowser starts Chromium at width x height, with its own profile:
// Debian's headless browser, required when DATG_REQUIRE_CHROMIUM is set
// (CI installs it), else the test skips.
// extra are more of Chromium's options (an environment, say).
func newBrowser(t testing.TB, width, height int, extra ...chromedp.ExecAllocatorOption) *browser {
	t.Helper()
	opts := append(chromedp.DefaultExecAllocatorOptions[:], chromedp.ExecPath(testenv.Chromium(t)), chromedp.NoSandbox,
		chromedp.Flag("headless", true), chromedp.WindowSize(width, height), chromedp.UserDataDir(t.TempDir()))
	opts = append(opts, extra...)
	alloc, cancelA := chromedp.NewExecAllocator(context.Background(), opts...)
	t.Cleanup(cancelA)
	b := &browser{t: t, alloc: alloc, shots: os.Getenv("DATG_VIEW_SHOTS")}
	b.ctx = b.tab()
	return b
}

// within bounds the rest of the test's browsing by d: past it every
// action fails with the context's deadline instead of waiting forever.
func (b *browser) within(d time.Duration) {
	ctx, cancel := context.WithTimeout(b.ctx, d)
	b.t.Cleanup(cancel)
	b.ctx = ctx
}

// tab is a new tab of the same browser (a fresh page, as a user pasting
// a link), listened to like the first.
func (b *browser) tab() context.Context {
	b.t.Helper()
	parent := b.alloc
	if b.ctx != nil {
		parent = b.ctx
	}
	ctx, cancel := chromedp.NewContext(parent)
	b.t.Cleanup(cancel)
	if err := chromedp.Listen(ctx, b.record); err != nil {
		b.t.Fatal(err)
	}
	if _, err := chromedp.Call(ctx, log.Enable, cdp.Empty{}); err != nil {
		b.t.Fatal(err)
	}
	if _, err := chromedp.Call(ctx, network.Enable, network.EnableParams{}); err != nil {
		b.t.Fatal(err)
	}
	return ctx
}

func (b *browser) record(ev any) {
	b.mu.Lock()
	defer b.mu.Unlock()
	switch e := ev.(type) {
	case *runtime.EventConsoleAPICalled:
		var args []string
		for _, a := range e.Args {
			args = append(args, string(a.Value)+a.Description)
		}
		b.logged = append(b.logged, fmt.Sprintf("console.%s: %s", e.Type, strings.Join(args, " ")))
	case *runtime.EventExceptionThrown:
		b.logged = append(b.logged, fmt.Sprintf("exception: %s at %s:%d", e.ExceptionDetails.Text, e.ExceptionDetails.URL, e.ExceptionDetails.LineNumber))
	case *log.EventEntryAdded:
		b.logged = append(b.logged, fmt.Sprintf("log %s: %s %s", e.Entry.Level, e.Entry.Text, e.Entry.URL))
	case *network.EventRequestWillBeSent:
		b.asked = append(b.asked, e.Request.URL)
	}
}

// console is what the console has shown so far.
func (b *browser) console() []string {
	b.mu.Lock()
	defer b.mu.Unlock()
	return append([]string(nil), b.logged...)
}

// foreign are the URLs asked for so far that are neither under origin
// (scheme://host:port, or file:// for an export) nor data: URLs.
func (b *browser) foreign(origin string) []string {
	b.mu.Lock()
	defer b.mu.Unlock()
	var out []string
	for _, u := range b.asked {
		if strings.HasPrefix(u, "data:") || u == origin || strings.HasPrefix(u, origin+"/") {
			continue
		}
		if origin == "file://" && strings.HasPrefix(u, "file:///") {
			continue
		}
		out = append(out, u)
	}
	return out
}

// settledClick clicks the visible node sel (CSS, or XPath when it
// starts with "/" or "(") once the page has settled and sel has held
// still, in view, for ten frames. A user scrolls, sees the link, then
// clicks; chromedp scrolls and presses at once, and two things move a
// page after it has loaded:
//   - datg-math.js renders a long trace's math after the load, near the
//     screen first (window.datgMath.doneAt is set when all of it is);
//   - a trace's text blocks are content-visibility: auto (view.css), laid
//     out at a placeholder height until they come near the screen: in CI
//     the scroll to the comparison link below the trace laid out the
//     blocks it passed, the page shrank by 245 px between the mouse's
//     press (on the link) and its release, and the click went to the
//     section around them, opening nothing.
func settledClick(sel string) chromedp.Action[chromedp.Void] {
	token := clickTokens.Add(1)
	return chromedp.Steps(
		chromedp.Func(func(ctx context.Context, t *chromedp.Target) error {
			_, err := chromedp.PollFunction[bool](settleJS, chromedp.WithPollingArgs(sel, token), chromedp.WithPollingTimeout(20*time.Second))(ctx, t)
			if err != nil {
				return fmt.Errorf("waiting for %s to hold still: %w", sel, err)
			}
			return nil
		}),
		chromedp.Click(sel, chromedp.NodeVisible))
}

// clickTokens tells one settledClick's state in the page from another's.
var clickTokens atomic.Int64

// settleJS is settledClick's predicate, run every frame: it scrolls sel
// into view once, then counts the frames in which neither sel's box, the
// scroll nor the page's height changed.
const settleJS = `function (sel, token) {
  if (document.readyState !== "complete" || (window.datgMath && !(window.datgMath.doneAt > 0))) { return false; }
  var el = sel.charAt(0) === "/" || sel.charAt(0) === "("
    ? document.evaluate(sel, document, null, XPathResult.FIRST_ORDERED_NODE_TYPE, null).singleNodeValue
    : document.querySelector(sel);
  if (!el) { return false; }
  var s = window.__datgSettle;
  if (!s || s.token !== token) {
    el.scrollIntoView({ block: "center" });
    window.__datgSettle = s = { token: token, key: "", frames: 0 };
    return false;
  }
  var r = el.getBoundingClientRect();
  var key = [r.top, r.left, r.width, r.height, window.scrollY, document.documentElement.scrollHeight].join();
  if (key !== s.key) { s.key = key; s.frames = 0; return false; }
  return ++s.frames >= 10;
}`

// do runs actions in the tab ctx, failing the test with what.
func (b *browser) do(what string, actions ...chromedp.Action[chromedp.Void]) {
	b.t.Helper()
	if err := chromedp.Do(b.ctx, actions...); err != nil {
		b.t.Fatalf("%s: %v", what, err)
	}
}

// eval is a script's value, decoded as JSON into a T.
func eval[T any](b *browser, js string) T {
	b.t.Helper()
	v, err := chromedp.Run(b.ctx, chromedp.Evaluate[T](js))
	if err != nil {
		b.t.Fatalf("%s: %v", js, err)
	}
	return v
}

// wait polls a script until it is true.
func (b *browser) wait(what, js string) {
	b.t.Helper()
	if _, err := chromedp.Run(b.ctx, chromedp.Poll[bool](js, chromedp.WithPollingTimeout(20*time.Second))); err != nil {
		b.t.Fatalf("%s: %v", what, err)
	}
}

// settle polls a script until it is true, for up to 5 seconds, and
// returns either way: what follows checks the state, and says what is
// wrong when the script never became true (a fixed sleep waited for it
// before, as long whether it came at once or not).
func (b *browser) settle(js string) {
	b.t.Helper()
	// The context bounds it too: a poll sent to a page being replaced may
	// never answer, and its own timeout runs only once it is answered.
	ctx, cancel := context.WithTimeout(b.ctx, 6*time.Second)
	defer cancel()
	chromedp.Run(ctx, chromedp.Poll[bool](js, chromedp.WithPollingTimeout(5*time.Second)))
}

// location is the tab's URL.
func (b *browser) location() string {
	b.t.Helper()
	v, err := chromedp.Run(b.ctx, chromedp.Location())
	if err != nil {
		b.t.Fatal(err)
	}
	return v
}

// shot saves a screenshot of the whole page as name.png when screenshots
// are asked for (DATG_VIEW_SHOTS).
func (b *browser) shot(name string) {
	b.t.Helper()
	if b.shots == "" {
		return
	}
	png, err := chromedp.Run(b.ctx, chromedp.FullScreenshot(100))
	if err != nil && strings.Contains(err.Error(), "Page is too large") {
		// An export's index of thousands of traces is taller than
		// Chromium draws at once: its first screen shows what it is.
		b.t.Logf("screenshot %s: %v: the window only", name, err)
		png, err = chromedp.Run(b.ctx, chromedp.CaptureScreenshot())
	}
	if err != nil {
		b.t.Fatalf("screenshot %s: %v", name, err)
	}
	if err := os.MkdirAll(b.shots, 0o755); err != nil {
		b.t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(b.shots, name+".png"), png, 0o644); err != nil {
		b.t.Fatal(err)
	}
}

// navTiming is the Navigation Timing of the page shown, in milliseconds
// from the start of its navigation: when the server's answer had fully
// arrived, and when the page was loaded (scripts run, math rendered).
type navTiming struct {
	Response float64 `json:"response"` // responseEnd - requestStart: what the server took, as the browser saw it
	Loaded   float64 `json:"loaded"`   // loadEventEnd - startTime
}

func (b *browser) timing() navTiming {
	b.t.Helper()
	b.wait("load event", `performance.getEntriesByType("navigation")[0].loadEventEnd > 0`)
	raw := eval[string](b, `(function () { var n = performance.getEntriesByType("navigation")[0];
		return JSON.stringify({response: n.responseEnd - n.requestStart, loaded: n.loadEventEnd - n.startTime}); })()`)
	var nt navTiming
	if err := json.Unmarshal([]byte(raw), &nt); err != nil {
		b.t.Fatal(err)
	}
	return nt
}
