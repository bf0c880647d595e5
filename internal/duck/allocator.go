package duck

// DuckDB's allocator (jemalloc, in its Linux builds) keeps the pages a
// query freed for up to about 10 s (5 s dirty, 5 s more "muzzy"), on the
// resident memory of the process but outside memory_limit and
// duckdb_memory(). A stage that runs queries one after another (the paper
// tables: 14 queries and the input checks) then carries one query's
// freed pages into the next: at 382,500 traces 130 MB of them after a
// table's query whose own memory was back to 1 MB (BENCHMARKS.md, "The
// viewer's first start"). DuckDB flushes them itself when its thread
// count changes (SET threads), which a locked configuration forbids; its
// per-task flush (allocator_flush_threshold) did not return them in
// DuckDB 1.4.1, with or without allocator_background_threads.

// ReleaseMemory returns to the system the memory DuckDB's allocator keeps
// after the queries that freed it (every arena's freed pages purged,
// glibc's heap trimmed): what DuckDB's own Allocator::FlushAll does. Call
// it between queries of a stage, never during one's reads (it is cheap:
// a few milliseconds of madvise).
func ReleaseMemory() { flushAllocator() }

// AllocatorKept is the memory DuckDB's allocator holds freed but not yet
// returned to the system, in bytes; -1 where it cannot be told.
func AllocatorKept() int64 { return allocatorDirty() }
