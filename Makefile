# datg: see README.md. `make demo` runs the study end to end offline;
# `make test` runs the tests.

GO      ?= go
BIN     ?= bin/datg
DATA    ?= data/run
SRC     ?= data/demo
LIMIT   ?=
PKGS    := ./...
# No build tags are needed (datg calls DuckDB's Arrow C functions itself,
# internal/duck/arrow.go); TAGS='-tags ...' passes some to go build/vet/test.
TAGS    ?=

.PHONY: build test demo tables paper-full bench control-eval lint readme clean install-check scale

# The commit datg --version prints. go build records it (vcs.revision), but
# not in a linked git worktree (golang/go#58218) nor with -buildvcs=false;
# git knows it in both.
COMMIT   := $(shell git rev-parse HEAD 2>/dev/null)
MODIFIED := $(if $(COMMIT),$(if $(shell git status --porcelain 2>/dev/null),true,false))
LDFLAGS  := -X main.buildCommit=$(COMMIT) -X main.buildModified=$(MODIFIED)

build:
	$(GO) build $(TAGS) -ldflags '$(LDFLAGS)' -o $(BIN) ./cmd/datg

# One `go test` builds the DuckDB driver (cgo) once for every package.
test:
	$(GO) vet $(TAGS) $(PKGS)
	$(GO) test $(TAGS) -timeout 15m $(PKGS)

demo: build
	DATG=$(BIN) SRC=$(SRC) LIMIT=$(LIMIT) scripts/demo.sh

# Every paper table from the Parquet tables of $(DATA).
tables: build
	$(BIN) tables --data $(DATA)

# The paper's full design (the simulator over ../shared/polymath, all 125
# problems per level, 38,250 probe traces) through scripts/demo.sh, its
# tables compiled with pdflatex in one and two columns, with and without
# --ci: longer than a test should take (docs/paper-tables.md).
paper-full:
	DATG_FULL_DESIGN=1 DATG_REQUIRE_PDFLATEX=1 $(GO) test $(TAGS) -timeout 3h -run '^TestFullDesignPaperTeXCompiles$$' -v ./cmd/datg

bench:
	$(GO) test $(TAGS) -run '^$$' -bench . -benchtime 1x -timeout 60m $(PKGS)

# Table 3 on the simulated model over a PolyMath copy (BENCHMARKS.md).
control-eval: build
	DATG=$(BIN) SRC=$(or $(filter-out data/demo,$(SRC)),../shared/polymath) scripts/control_eval.sh

# A Go user's install, proven: `go install github.com/datg/datg/cmd/datg@latest`
# of this commit from a clean module cache, no tags (scripts/install_check.sh).
install-check:
	scripts/install_check.sh

# Every stage at N times the paper's design, timed (BENCHMARKS.md).
N ?= 1
scale: build
	DATG=$(BIN) scripts/scale.sh $(N)

lint:
	@out=$$(gofmt -l $$(git ls-files '*.go')); if [ -n "$$out" ]; then echo "gofmt needed:"; echo "$$out"; exit 1; fi
	$(GO) vet $(TAGS) $(PKGS)

# Regenerate the generated reference pages of docs/ from the code: the
# schema (docs/schema.md), the prompt files (docs/reproducing.md) and the
# commands (docs/commands.md).
readme:
	$(GO) test $(TAGS) ./schema -run TestReadmeSchemaIsCurrent -update
	$(GO) test $(TAGS) ./prompts -run TestReadmePromptsAreCurrent -update
	$(GO) test $(TAGS) ./cmd/datg -run TestCommandsReference -update

clean:
	rm -rf bin
