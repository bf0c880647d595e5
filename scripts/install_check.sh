#!/usr/bin/env bash
# scripts/install_check.sh (make install-check): proves a Go user can
# install datg with nothing but the go command and a C compiler (cgo, for
# DuckDB): no build tags, no replace directives, a clean module cache.
#
# It serves this repository's HEAD commit as a module from a file://
# GOPROXY (scripts/modzip: the zip golang.org/x/mod/zip makes, as the
# real proxy would) in front of the real proxy, which serves every
# dependency, then runs
#   go install github.com/datg/datg/cmd/datg@latest
# with GOMODCACHE a new empty directory, GOFLAGS empty, and checks the
# installed binary runs and reports that version and HEAD's commit. Uncommitted changes are
# not in the module: commit first. It also runs a plain `go build ./...`
# in the repository. Everything it creates goes in one temporary
# directory, which it removes. UPSTREAM (default https://proxy.golang.org)
# is the real proxy; GOCACHE stays the user's build cache (CLEAN_GOCACHE=1
# for an empty one too: the DuckDB cgo build then takes minutes).
set -euo pipefail
cd "$(dirname "$0")/.."
MODULE=github.com/datg/datg
UPSTREAM=${UPSTREAM:-https://proxy.golang.org}

if go mod edit -json | grep -q '"Replace": \['; then
  echo "install-check: go.mod has replace directives, which go install refuses:" >&2
  go mod edit -json | sed -n '/"Replace"/,/]/p' >&2
  exit 1
fi
echo "== go build ./... (no tags)"
GOFLAGS= go build ./...

tmp=$(mktemp -d "${TMPDIR:-/tmp}/datg-install-check.XXXXXX")
# The module cache is read-only: make it writable to remove it.
trap 'chmod -R u+w "$tmp" 2>/dev/null; rm -rf "$tmp"' EXIT
mkdir "$tmp/proxy" "$tmp/modcache" "$tmp/bin"
version=$(cd scripts/modzip && GOFLAGS= go run . -repo ../.. -module "$MODULE" -rev HEAD -out "$tmp/proxy")
echo "== go install $MODULE/cmd/datg@latest ($version, from file://$tmp/proxy then $UPSTREAM; GOMODCACHE empty)"
cache=()
[ "${CLEAN_GOCACHE:-}" = 1 ] && { mkdir "$tmp/gocache"; cache=(GOCACHE="$tmp/gocache"); }
env GOPROXY="file://$tmp/proxy,$UPSTREAM" GOMODCACHE="$tmp/modcache" GOFLAGS= \
  GONOSUMDB="$MODULE" GONOSUMCHECK= GOPRIVATE= GONOPROXY= GOBIN="$tmp/bin" "${cache[@]}" \
  go install "$MODULE/cmd/datg@latest"
got=$("$tmp/bin/datg" --version)
echo "   datg --version: $got"
case "$got" in
  *"$version"*) ;;
  *) echo "install-check: the installed datg reports $got, not $version" >&2; exit 1 ;;
esac
# Its commit line names HEAD: from the pseudo-version, as the build has no
# VCS record.
rev=$(git rev-parse --short=12 HEAD)
case "$got" in
  *"commit $rev"*) echo "install-check: ok" ;;
  *) echo "install-check: the installed datg's commit line is not $rev: $got" >&2; exit 1 ;;
esac
