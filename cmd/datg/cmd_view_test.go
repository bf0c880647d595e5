package main

import (
	"bufio"
	"context"
	"io"
	"net/http"
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

	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	cmd := datgCmd(ctx, nil, "view", "--data", data, "--addr", "127.0.0.1:0", "--cache-dir", t.TempDir())
	stderr, err := cmd.StderrPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	lines := bufio.NewScanner(stderr)
	if !lines.Scan() {
		t.Fatalf("no line from datg view: %v", cmd.Wait())
	}
	addr := regexp.MustCompile(`http://(127\.0\.0\.1:[0-9]+)/`).FindStringSubmatch(lines.Text())
	if addr == nil {
		t.Fatalf("datg view said %q", lines.Text())
	}
	resp, err := http.Get("http://" + addr[1] + "/")
	if err != nil {
		t.Fatal(err)
	}
	body, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	if resp.StatusCode != 200 || !strings.Contains(string(body), "t&lt;1&gt;") {
		t.Errorf("GET /: %s\n%s", resp.Status, body)
	}
	cmd.Process.Signal(syscall.SIGINT)
	go io.Copy(io.Discard, stderr)
	if err := cmd.Wait(); err != nil {
		t.Errorf("datg view after Ctrl-C: %v", err)
	}
}

// datg view --probe-seed N reads the direction probe at seed N (its first
// line says so, and the index's scope "probe" is that seed's base
// traces); without it the probe is at the study's seed, 42; a seed that
// is not a number is a usage error.
func TestViewProbeSeed(t *testing.T) {
	data := t.TempDir()
	if err := store.WriteAll(data, schema.Traces, store.Meta{Stage: "test"}, []schema.Trace{
		{TraceID: "at-1", Model: "m", Direction: "en-en", InputLang: "en", ReasoningLang: "en", Level: "low", ProblemID: "low-0", Method: "base", Seed: 1, Text: "x"},
		{TraceID: "at-42", Model: "m", Direction: "en-en", InputLang: "en", ReasoningLang: "en", Level: "low", ProblemID: "low-0", Method: "base", Seed: 42, Text: "y"}}); err != nil {
		t.Fatal(err)
	}
	if r := datg(t, nil, "view", "--data", data, "--probe-seed", "one"); r.code != 2 || !strings.Contains(r.stderr, "--probe-seed") {
		t.Errorf("--probe-seed one: exit %d, %q", r.code, r.stderr)
	}
	cache := t.TempDir()
	for _, c := range []struct {
		args       []string
		seed, want string
	}{{[]string{"--probe-seed", "1"}, "1", "at-1"}, {nil, "42", "at-42"}} {
		ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
		cmd := datgCmd(ctx, nil, append([]string{"view", "--data", data, "--addr", "127.0.0.1:0", "--cache-dir", cache}, c.args...)...)
		stderr, err := cmd.StderrPipe()
		if err != nil {
			t.Fatal(err)
		}
		if err := cmd.Start(); err != nil {
			t.Fatal(err)
		}
		lines := bufio.NewScanner(stderr)
		if !lines.Scan() {
			t.Fatalf("%v: no line from datg view: %v", c.args, cmd.Wait())
		}
		addr := regexp.MustCompile(`http://(127\.0\.0\.1:[0-9]+)/`).FindStringSubmatch(lines.Text())
		if addr == nil || !strings.Contains(lines.Text(), "the direction probe at seed "+c.seed+")") {
			t.Errorf("%v: datg view said %q", c.args, lines.Text())
		}
		if addr != nil {
			resp, err := http.Get("http://" + addr[1] + "/?scope=probe")
			if err != nil {
				t.Fatal(err)
			}
			body, _ := io.ReadAll(resp.Body)
			resp.Body.Close()
			if resp.StatusCode != 200 || !strings.Contains(string(body), "<h1>1 traces") || !strings.Contains(string(body), ">"+c.want+"<") {
				t.Errorf("%v: the probe's traces: %s\n%s", c.args, resp.Status, body)
			}
		}
		cmd.Process.Signal(syscall.SIGINT)
		go io.Copy(io.Discard, stderr)
		if err := cmd.Wait(); err != nil {
			t.Errorf("%v: datg view after Ctrl-C: %v", c.args, err)
		}
		cancel()
	}
}
