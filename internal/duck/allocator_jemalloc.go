//go:build linux && amd64 && cgo && !duckdb_use_lib && !duckdb_use_static_lib

package duck

// DuckDB's linux-amd64 build (the bindings' static libraries) allocates
// through its own jemalloc, whose functions carry a duckdb_je_ prefix; its
// mallctl is reachable from here as it is from DuckDB. (linux-arm64's
// libraries were not checked for it: they get allocator_other.go.)

/*
#include <stddef.h>
#include <stdint.h>
#include <malloc.h>

extern int duckdb_je_mallctl(const char *name, void *oldp, size_t *oldlenp, void *newp, size_t newlen);

// datg_je_flush_all is DuckDB's Allocator::FlushAll: this thread's cache
// flushed, every arena's freed pages purged, glibc's heap trimmed.
static void datg_je_flush_all(void) {
	duckdb_je_mallctl("thread.tcache.flush", NULL, NULL, NULL, 0);
	duckdb_je_mallctl("arena.4096.purge", NULL, NULL, NULL, 0); // MALLCTL_ARENAS_ALL
	malloc_trim(0);
}

// datg_je_dirty is the bytes of freed pages jemalloc keeps (dirty, not
// yet purged) over every arena; -1 when it cannot say.
static int64_t datg_je_dirty(void) {
	uint64_t epoch = 1;
	size_t len = sizeof(epoch);
	if (duckdb_je_mallctl("epoch", &epoch, &len, &epoch, len) != 0) {
		return -1;
	}
	size_t pdirty = 0, page = 0;
	len = sizeof(pdirty);
	if (duckdb_je_mallctl("stats.arenas.4096.pdirty", &pdirty, &len, NULL, 0) != 0) {
		return -1;
	}
	len = sizeof(page);
	if (duckdb_je_mallctl("arenas.page", &page, &len, NULL, 0) != 0) {
		return -1;
	}
	return (int64_t)(pdirty * page);
}
*/
import "C"

// flushAllocator returns the memory DuckDB's allocator keeps after its
// queries freed it to the system.
func flushAllocator() { C.datg_je_flush_all() }

// allocatorDirty is the memory DuckDB's allocator keeps freed but not
// returned, in bytes; -1 where it cannot be told.
func allocatorDirty() int64 { return int64(C.datg_je_dirty()) }
