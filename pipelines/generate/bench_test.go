package generate

import (
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"runtime/metrics"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/datg/datg/internal/pipelinetest"
	"github.com/datg/datg/internal/simulate"
)

// TestMain lets the test binary serve simulated endpoints in a child
// process, so benchmarks measure generate's memory, not the simulator's.
func TestMain(m *testing.M) {
	if urlFile := os.Getenv("DATG_BENCH_SIMULATE"); urlFile != "" {
		cfg := simulate.DefaultConfig()
		cfg.Count = 8
		cfg.Data = os.Getenv("DATG_BENCH_DATA")
		cfg.URLFile = urlFile
		cfg.Latency, _ = time.ParseDuration(os.Getenv("DATG_BENCH_LATENCY"))
		// The servers list the models the benchmark asks for, as vLLM
		// must (generate checks /v1/models before sending).
		cfg.Models = nil
		for m := range 100 {
			cfg.Models = append(cfg.Models, benchModel(m))
		}
		cfg.Notices = os.Stderr
		if _, err := simulate.Run(context.Background(), cfg); err != nil {
			fmt.Fprintln(os.Stderr, err)
			os.Exit(1)
		}
		return
	}
	os.Exit(m.Run())
}

// childSimulators starts 8 simulated endpoints in a child process.
func childSimulators(b *testing.B, data string, latency time.Duration) []string {
	b.Helper()
	urlFile := filepath.Join(b.TempDir(), "urls")
	cmd := exec.Command(os.Args[0], "-test.run=^$")
	cmd.Env = append(os.Environ(), "DATG_BENCH_SIMULATE="+urlFile, "DATG_BENCH_DATA="+data, "DATG_BENCH_LATENCY="+latency.String())
	cmd.Stderr = os.Stderr
	if err := cmd.Start(); err != nil {
		b.Fatal(err)
	}
	b.Cleanup(func() { cmd.Process.Kill(); cmd.Wait() })
	for deadline := time.Now().Add(30 * time.Second); time.Now().Before(deadline); time.Sleep(10 * time.Millisecond) {
		if body, err := os.ReadFile(urlFile); err == nil {
			return strings.Fields(string(body))
		}
	}
	b.Fatal("simulator did not start")
	return nil
}

// BenchmarkGenerate measures a whole generate run (plan, HTTP, journal,
// traces table) against 8 simulated endpoints with 16 slots each and a fixed
// latency per request, so the ideal rate is 8*16/latency. It reports the
// achieved fraction of that ideal and the peak Go heap, for runs of about
// 1k, 10k and 50k requests (memory should stay flat as the run grows).
//
//	go test ./pipelines/generate -run '^$' -bench Generate -benchtime 1x
func BenchmarkGenerate(b *testing.B) {
	const latency = 200 * time.Millisecond
	for _, requests := range []int{1000, 10000, 50000} {
		b.Run(fmt.Sprintf("requests=%d", requests), func(b *testing.B) {
			for i := 0; i < b.N; i++ {
				benchRun(b, requests, latency)
			}
		})
	}
}

func benchRun(b *testing.B, requests int, latency time.Duration) {
	b.StopTimer()
	data := pipelinetest.DemoRun(b)
	urls := childSimulators(b, data, latency)
	study := DefaultStudy()
	perCombo := 5 * 3 * 34 // demo problems x levels x direction pairs
	combos := (requests + perCombo - 1) / perCombo
	study.Models = nil
	for m := 0; m < (combos+9)/10; m++ {
		study.Models = append(study.Models, benchModel(m))
	}
	study.Seeds = nil
	for s := 0; s < min(combos, 10); s++ {
		study.Seeds = append(study.Seeds, int64(42+s))
	}
	cfg := Config{Data: data, Study: study, Endpoints: urls, Pool: pipelinetest.QuickPool()}

	runtime.GC()
	var base runtime.MemStats
	runtime.ReadMemStats(&base)
	peak := newPeakHeap()
	b.StartTimer()
	start := time.Now()
	res, err := Run(context.Background(), cfg)
	elapsed := time.Since(start)
	b.StopTimer()
	peakHeap, peakLive := peak.stop()
	if err != nil {
		b.Fatal(err)
	}
	ideal := time.Duration(float64(res.Jobs) / 128 * float64(latency))
	b.ReportMetric(float64(res.Jobs), "requests")
	b.ReportMetric(float64(res.Jobs)/elapsed.Seconds(), "req/s")
	b.ReportMetric(ideal.Seconds()/elapsed.Seconds(), "of-ideal")
	b.ReportMetric(float64(peakHeap)/(1<<20), "peak-heap-MB")
	b.ReportMetric(float64(peakLive)/(1<<20), "peak-live-MB")
}

// peakHeap samples the heap while a run goes on: the heap in use (live
// objects and garbage not yet collected) and the live heap as of the last
// collection, which is what grows if memory is not flat.
type peakHeap struct {
	mu        sync.Mutex
	max, live uint64
	done      chan struct{}
	wg        sync.WaitGroup
}

func newPeakHeap() *peakHeap {
	p := &peakHeap{done: make(chan struct{})}
	sample := []metrics.Sample{{Name: "/gc/heap/live:bytes"}}
	p.wg.Add(1)
	go func() {
		defer p.wg.Done()
		t := time.NewTicker(20 * time.Millisecond)
		defer t.Stop()
		for {
			var m runtime.MemStats
			runtime.ReadMemStats(&m)
			metrics.Read(sample)
			p.mu.Lock()
			p.max = max(p.max, m.HeapInuse)
			p.live = max(p.live, sample[0].Value.Uint64())
			p.mu.Unlock()
			select {
			case <-p.done:
				return
			case <-t.C:
			}
		}
	}()
	return p
}

func (p *peakHeap) stop() (heapInUse, live uint64) {
	close(p.done)
	p.wg.Wait()
	return p.max, p.live
}

// benchModel names the benchmark's m-th model (a 4B size for the simulator).
func benchModel(m int) string { return fmt.Sprintf("sim/model-%d-4B", m) }
