package main

import (
	"bufio"
	"context"
	"io"
	"net/http"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/datg/datg/internal/store"
	"github.com/datg/datg/schema"
)

// datg view refuses a non-loopback address without --allow-remote (a
// usage error naming the address), and serves the run on a loopback one
// until interrupted.
func TestViewServesOnLoopbackOnly(t *testing.T) {
	data := t.TempDir()
	if err := store.WriteAll(data, schema.Traces, store.Meta{Stage: "test"}, []schema.Trace{{TraceID: "t<1>", Model: "m", Direction: "en-en",
		InputLang: "en", ReasoningLang: "en", Level: "low", ProblemID: "low-0", Method: "base", Text: "x"}}); err != nil {
		t.Fatal(err)
	}
	r := datg(t, nil, "view", "--data", data, "--addr", "0.0.0.0:0")
	if r.code != 2 || !strings.Contains(r.stderr, `"0.0.0.0:0": not a loopback address`) {
		t.Errorf("--addr 0.0.0.0:0: exit %d, %q", r.code, r.stderr)
	}

	// Its cache (the search index) is never in the run.
	r = datg(t, nil, "view", "--data", data, "--cache-dir", filepath.Join(data, "cache"), "--addr", "127.0.0.1:0")
	if r.code != 2 || !strings.Contains(r.stderr, "inside the run") {
		t.Errorf("--cache-dir in the run: exit %d, %q", r.code, r.stderr)
	}

	v := startView(t, "--data", data, "--addr", "127.0.0.1:0", "--cache-dir", t.TempDir())
	resp, err := http.Get("http://" + v.addr + "/")
	if err != nil {
		t.Fatal(err)
	}
	body, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	if resp.StatusCode != 200 || !strings.Contains(string(body), "t&lt;1&gt;") {
		t.Errorf("GET /: %s\n%s", resp.Status, body)
	}
	v.stop(t)
}

// datg view --probe-seed N reads the direction probe at seed N (its first
// line says so, and the index's scope "probe" is that seed's base
// traces); without it the probe is at the study's seed, 42; a seed that
// is not a number is a usage error.
func TestViewProbeSeed(t *testing.T) {
	data := writeSeedTraces(t)
	if r := datg(t, nil, "view", "--data", data, "--probe-seed", "one"); r.code != 2 || !strings.Contains(r.stderr, "--probe-seed") {
		t.Errorf("--probe-seed one: exit %d, %q", r.code, r.stderr)
	}
	cache := t.TempDir()
	for _, c := range []struct {
		args       []string
		seed, want string
	}{{[]string{"--probe-seed", "1"}, "1", "at-1"}, {nil, "42", "at-42"}} {
		v := startView(t, append([]string{"--data", data, "--addr", "127.0.0.1:0", "--cache-dir", cache}, c.args...)...)
		if !strings.Contains(v.first, "the direction probe at seed "+c.seed+")") {
			t.Errorf("%v: datg view said %q", c.args, v.first)
		}
		{
			resp, err := http.Get("http://" + v.addr + "/?scope=probe")
			if err != nil {
				t.Fatal(err)
			}
			body, _ := io.ReadAll(resp.Body)
			resp.Body.Close()
			if resp.StatusCode != 200 || !strings.Contains(string(body), "<h1>1 traces") || !strings.Contains(string(body), ">"+c.want+"<") {
				t.Errorf("%v: the probe's traces: %s\n%s", c.args, resp.Status, body)
			}
		}
		v.stop(t)
	}
}

// writeSeedTraces is a run of two base traces, at-1 at seed 1 and at-42
// at seed 42 (the study's probe seed).
func writeSeedTraces(t *testing.T) string {
	t.Helper()
	data := t.TempDir()
	if err := store.WriteAll(data, schema.Traces, store.Meta{Stage: "test"}, []schema.Trace{
		{TraceID: "at-1", Model: "m", Direction: "en-en", InputLang: "en", ReasoningLang: "en", Level: "low", ProblemID: "low-0", Method: "base", Seed: 1, Text: "x"},
		{TraceID: "at-42", Model: "m", Direction: "en-en", InputLang: "en", ReasoningLang: "en", Level: "low", ProblemID: "low-0", Method: "base", Seed: 42, Text: "y"}}); err != nil {
		t.Fatal(err)
	}
	return data
}

// runningView is a datg view process the test started.
type runningView struct {
	cmd    *exec.Cmd
	stderr io.Reader
	cancel context.CancelFunc
	first  string // its first line on stderr
	addr   string // host:port it serves, from that line
}

// startView starts datg view with args and waits for its first line,
// which names the address it serves.
func startView(t *testing.T, args ...string) *runningView {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	cmd := datgCmd(ctx, nil, append([]string{"view"}, args...)...)
	stderr, err := cmd.StderrPipe()
	if err != nil {
		cancel()
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		cancel()
		t.Fatal(err)
	}
	lines := bufio.NewScanner(stderr)
	if !lines.Scan() {
		cancel()
		t.Fatalf("%v: no line from datg view: %v", args, cmd.Wait())
	}
	addr := regexp.MustCompile(`http://(127\.0\.0\.1:[0-9]+)/`).FindStringSubmatch(lines.Text())
	if addr == nil {
		cancel()
		t.Fatalf("%v: datg view said %q", args, lines.Text())
	}
	return &runningView{cmd: cmd, stderr: stderr, cancel: cancel, first: lines.Text(), addr: addr[1]}
}

// stop interrupts the viewer as Ctrl-C does: it ends without an error.
func (v *runningView) stop(t *testing.T) {
	t.Helper()
	defer v.cancel()
	v.cmd.Process.Signal(syscall.SIGINT)
	go io.Copy(io.Discard, v.stderr)
	if err := v.cmd.Wait(); err != nil {
		t.Errorf("datg view after Ctrl-C: %v", err)
	}
}
