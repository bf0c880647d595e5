package main

import (
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"

	"github.com/datg/datg/internal/simulate"
	"github.com/datg/datg/internal/testenv"
)

// recipeMarker opens the README's block of the real study's steps.
const recipeMarker = "# The real study, as the paper ran it"

// recipeTable3 is the line of the block where Table 3's steps begin: what
// comes before it is the direction probe and its diagnosis.
const recipeTable3 = "# Table 3 (section 6)"

// readmeRecipe is the README's real-study block, as printed.
func readmeRecipe(t *testing.T) string {
	t.Helper()
	b, err := os.ReadFile(filepath.Join(testenv.Root(t), "README.md"))
	if err != nil {
		t.Fatal(err)
	}
	_, after, found := strings.Cut(string(b), "```sh\n"+recipeMarker)
	if !found {
		t.Fatalf("README.md has no ```sh block opening with %q", recipeMarker)
	}
	block, _, closed := strings.Cut(after, "\n```")
	if !closed {
		t.Fatal("the README's recipe block has no closing fence")
	}
	return recipeMarker + block + "\n"
}

// TestRealStudyRecipeAsPrinted runs the README's real-study recipe with
// bash, line for line as printed, against fakes of the three servers it
// names, each built from its public behaviour (internal/simulate):
//   - vLLM: the repository's scripts/serve_vllm.sh itself, with a `vllm`
//     on PATH that starts the simulator in vLLM's dialect on the port the
//     script gives it (with its --max-model-len);
//   - OpenAI (GPT-5.4 for DAGs and alignment) and Alibaba Cloud Model
//     Studio (Qwen3.6-Plus for references, thinking streamed): the
//     simulator's openai and modelstudio dialects, whose loopback URLs
//     replace the printed ones.
//
// The only other substitutions: the PolyMath path is the embedded demo set
// (five problems per level, hence --per-level 5), `make build` is the test's
// binary and `make tables` what the Makefile runs. The probe's tables are
// written once Table 3's steps begin, and every one of them must be byte for
// byte the same after those steps.
func TestRealStudyRecipeAsPrinted(t *testing.T) {
	for _, tool := range []string{"bash", "curl"} {
		if _, err := exec.LookPath(tool); err != nil {
			t.Skipf("%s not installed", tool)
		}
	}
	if testing.Short() {
		t.Skip("the whole study: about a minute")
	}
	recipe := readmeRecipe(t)
	probeSteps, table3Steps, found := strings.Cut(recipe, recipeTable3)
	if !found {
		t.Fatalf("the recipe has no line %q", recipeTable3)
	}
	table3Steps = recipeTable3 + table3Steps

	work := t.TempDir()
	fakes := filepath.Join(work, ".fakes")
	for _, dir := range []string{filepath.Join(work, "bin"), fakes} {
		if err := os.MkdirAll(dir, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	self := os.Args[0]
	write := func(path, text string) {
		if err := os.WriteFile(path, []byte(text), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	write(filepath.Join(work, "bin", "datg"), "#!/bin/sh\nDATG_TEST_MAIN=1 exec \""+self+"\" \"$@\"\n")
	if err := os.Symlink(filepath.Join(testenv.Root(t), "scripts"), filepath.Join(work, "scripts")); err != nil {
		t.Fatal(err)
	}
	// make: what the Makefile's build and tables targets do, with the
	// test's binary as bin/datg.
	write(filepath.Join(fakes, "make"), `#!/bin/sh
for target in "$@"; do
  case $target in
  build) ;;
  tables) bin/datg tables --data data/run || exit $? ;;
  *) echo "fake make: no target $target" >&2; exit 2 ;;
  esac
done
`)
	// vllm serve MODEL --port N --max-model-len L ...: the simulator in
	// vLLM's dialect, answering from the run's problems.
	write(filepath.Join(fakes, "vllm"), `#!/bin/sh
port=""; len=""
while [ $# -gt 0 ]; do
  case $1 in --port) port=$2 ;; --max-model-len) len=$2 ;; esac
  shift
done
DATG_TEST_MAIN=1 exec "`+self+`" simulate --listen 127.0.0.1:$port --max-model-len $len --trust-request-chat-template --data data/run
`)

	// The hosted APIs' fakes answer from the problems, which they read when
	// they start: the demo set is ingested first (the recipe's own ingest
	// then merges the same rows).
	demo := testenv.Demo(t)
	data := filepath.Join(work, "data", "run")
	mustDatg(t, "ingest", "polymath", "--src", demo, "--per-level", "5", "--data", data)
	openai, modelStudio := simulate.DefaultConfig(), simulate.DefaultConfig()
	openai.Dialect, openai.Version = simulate.DialectOpenAI, ""
	modelStudio.Dialect, modelStudio.Version = simulate.DialectModelStudio, ""
	_, openaiURL := simulators(t, data, openai)
	_, modelStudioURL := simulators(t, data, modelStudio)

	substitute := strings.NewReplacer(
		"/path/to/PolyMath", strconv.Quote(demo)+" --per-level 5",
		"https://api.openai.com/v1", openaiURL,
		"https://dashscope-intl.aliyuncs.com/compatible-mode/v1", modelStudioURL,
	)
	base := consecutiveFreePorts(t, 2)
	env := append(os.Environ(), "PATH="+fakes+":"+os.Getenv("PATH"), "GPUS=2", "BASE_PORT="+strconv.Itoa(base), "TIMEOUT=60")
	env = slicesWithout(env, "DATG_DATA=")
	defer stopServers(work)
	run := func(what, script string) {
		t.Helper()
		cmd := exec.Command("bash", "-euo", "pipefail", "-c", substitute.Replace(script))
		cmd.Dir, cmd.Env = work, env
		var out bytes.Buffer
		cmd.Stdout, cmd.Stderr = &out, &out
		if err := cmd.Run(); err != nil {
			t.Fatalf("%s: %v\n%s", what, err, tail(out.String(), 60))
		}
	}

	run("the README's recipe up to Table 3", probeSteps)
	mustDatg(t, "tables", "--data", data)
	probe := tableFiles(t, data)
	for _, name := range []string{"direction_accuracy.csv", "datg_main.tex", "datg_correctness.md", "compliance.csv", "reference_diversity.csv", "accuracy_groups.svg", "accuracy_groups.pdf"} {
		if _, ok := probe[name]; !ok {
			t.Errorf("the probe's tables lack %s: %v", name, mapKeys(probe))
		}
	}
	run("the README's recipe from Table 3 on", table3Steps)
	after := tableFiles(t, data)
	for name, want := range probe {
		if !bytes.Equal(after[name], want) {
			t.Errorf("%s changed with Table 3's steps", name)
		}
	}
	control := string(after["control.md"])
	for _, row := range []string{"| Base |", "| Loop-Retry |", "| Formula-Retry |"} {
		if !strings.Contains(control, row) {
			t.Errorf("control.md lacks the row %q:\n%s", row, control)
		}
	}
}

// stopServers ends what serve_vllm.sh started and the recipe left running.
func stopServers(work string) {
	pids, _ := os.ReadFile(filepath.Join(work, "vllm-logs", "pids"))
	for _, p := range strings.Fields(string(pids)) {
		if pid, err := strconv.Atoi(p); err == nil {
			syscall.Kill(pid, syscall.SIGTERM)
		}
	}
}

func slicesWithout(env []string, prefix string) []string {
	out := env[:0:0]
	for _, e := range env {
		if !strings.HasPrefix(e, prefix) {
			out = append(out, e)
		}
	}
	return out
}

func tail(s string, lines int) string {
	all := strings.Split(strings.TrimRight(s, "\n"), "\n")
	if len(all) > lines {
		all = all[len(all)-lines:]
	}
	return strings.Join(all, "\n")
}
