// Package progress reports long work on stderr: done/total, rate, tokens per
// second, ETA and failures, redrawn in place when stderr is a terminal, and
// a one-line summary at the end in every case.
package progress

import (
	"fmt"
	"io"
	"os"
	"sync"
	"sync/atomic"
	"time"

	"golang.org/x/term"
)

// Progress counts units of work (requests, traces) as they finish.
type Progress struct {
	w       io.Writer
	label   string
	total   int64
	start   time.Time
	tty     bool
	Extra   func() string // appended to each line when set (e.g. endpoint health)
	done    atomic.Int64  // finished by this run
	skipped atomic.Int64  // answered without a request: journaled, or shared with an identical one
	failed  atomic.Int64
	tokens  atomic.Int64
	quiet   atomic.Bool // Quiet: nothing more is written

	stop chan struct{}
	wg   sync.WaitGroup
	once sync.Once
}

// Start begins reporting on w (nil: nowhere). Redrawing happens only when
// w is a terminal.
func Start(w io.Writer, label string, total int) *Progress {
	if w == nil {
		w = io.Discard
	}
	p := &Progress{w: w, label: label, total: int64(total), start: time.Now(), stop: make(chan struct{})}
	if f, ok := w.(*os.File); ok && term.IsTerminal(int(f.Fd())) {
		p.tty = true
		p.wg.Add(1)
		go p.loop()
	}
	return p
}

// Done records one finished unit that decoded tokens tokens.
func (p *Progress) Done(tokens int) {
	p.done.Add(1)
	p.tokens.Add(int64(tokens))
}

// Skip records units finished by an earlier run.
func (p *Progress) Skip(n int) { p.skipped.Add(int64(n)) }

// Fail records one unit that failed.
func (p *Progress) Fail() { p.failed.Add(1) }

// Counts returns finished, skipped and failed units.
func (p *Progress) Counts() (done, skipped, failed int64) {
	return p.done.Load(), p.skipped.Load(), p.failed.Load()
}

func (p *Progress) loop() {
	defer p.wg.Done()
	t := time.NewTicker(500 * time.Millisecond)
	defer t.Stop()
	for {
		select {
		case <-p.stop:
			return
		case <-t.C:
			if !p.quiet.Load() {
				fmt.Fprintf(p.w, "\r\033[K%s", p.line())
			}
		}
	}
}

func (p *Progress) line() string {
	done, skipped, failed := p.Counts()
	elapsed := time.Since(p.start).Seconds()
	rate, tps := 0.0, 0.0
	if elapsed > 0 {
		rate, tps = float64(done)/elapsed, float64(p.tokens.Load())/elapsed
	}
	finished := done + skipped + failed
	eta := "?"
	if rate > 0 {
		eta = (time.Duration(float64(p.total-finished)/rate) * time.Second).Round(time.Second).String()
	}
	pct := 100.0
	if p.total > 0 {
		pct = 100 * float64(finished) / float64(p.total)
	}
	s := fmt.Sprintf("%s %d/%d (%.1f%%) %.1f/s %.0f tok/s ETA %s", p.label, finished, p.total, pct, rate, tps, eta)
	if skipped > 0 {
		s += fmt.Sprintf(" reused %d", skipped)
	}
	if failed > 0 {
		s += fmt.Sprintf(" failed %d", failed)
	}
	if p.Extra != nil {
		if x := p.Extra(); x != "" {
			s += " " + x
		}
	}
	return s
}

// Quiet makes the progress write nothing more, its summary line included:
// a dry run sends nothing, and its plan is all it prints.
func (p *Progress) Quiet() { p.quiet.Store(true) }

// Finish stops redrawing and writes the summary line.
func (p *Progress) Finish() {
	p.once.Do(func() {
		close(p.stop)
		p.wg.Wait()
		if p.tty {
			fmt.Fprint(p.w, "\r\033[K")
		}
		if p.quiet.Load() {
			return
		}
		done, skipped, failed := p.Counts()
		s := fmt.Sprintf("%s: %d done", p.label, done)
		if skipped > 0 {
			s += fmt.Sprintf(", %d reused (journaled, or the same as another request)", skipped)
		}
		if failed > 0 {
			s += fmt.Sprintf(", %d failed", failed)
		}
		if t := p.tokens.Load(); t > 0 {
			s += fmt.Sprintf(", %d tokens", t)
		}
		fmt.Fprintf(p.w, "%s in %s\n", s, time.Since(p.start).Round(time.Millisecond))
	})
}
