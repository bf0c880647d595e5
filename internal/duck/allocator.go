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

// MallocInUse is the memory the C heap (glibc's malloc) holds in use, in
// bytes: what DuckDB allocates outside its buffer manager (its catalog,
// Parquet footers, the bookkeeping of its buffers), which neither
// duckdb_memory() nor memory_limit counts; -1 where it cannot be told.
func MallocInUse() int64 { return mallocInUse() }

// ReturnFreedAtOnce makes DuckDB's allocator return the pages a query
// frees to the system as it frees them, during the query too, for the
// rest of the process (every database in it: the allocator is the
// process's). ReleaseMemory returns them between queries only; within
// one, jemalloc keeps what it freed for a second before purging it, and
// a query that frees and allocates tens of MB a second (score's parts,
// their hash tables spilling under the cap) then holds that much more
// resident than DuckDB uses: up to 236 MB at the peak of a part of datg
// score at ten times the paper's design, more the busier the machine
// (jemalloc's purging runs late). The cost is an madvise per freed run
// of pages (BENCHMARKS.md, "score's peak flat"). False where DuckDB's
// allocator is not reachable (allocator_other.go).
func ReturnFreedAtOnce() bool { return returnFreedAtOnce() }
