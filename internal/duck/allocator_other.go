//go:build !(linux && amd64 && cgo && !duckdb_use_lib && !duckdb_use_static_lib)

package duck

// Elsewhere DuckDB allocates with the system's malloc (or a libduckdb
// whose allocator datg does not reach): nothing to flush here.

func flushAllocator() {}

func allocatorDirty() int64 { return -1 }

func returnFreedAtOnce() bool { return false }

func mallocInUse() int64 { return -1 }
