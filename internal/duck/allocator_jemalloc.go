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
#include <stdio.h>
#include <sys/types.h>

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

// datg_je_decay_now sets jemalloc's dirty and muzzy decay to 0 ms on every
// arena and for the arenas made later: a freed page is returned to the
// system when it is freed (madvise DONTNEED), not kept up to a second and
// purged later. The arenas not yet made refuse the setting (EFAULT) and
// take the default for new arenas when made. 0 when it is set, else the
// first error of the defaults' settings.
static int datg_je_decay_now(void) {
	ssize_t zero = 0;
	int rc = duckdb_je_mallctl("arenas.dirty_decay_ms", NULL, NULL, &zero, sizeof(zero));
	if (rc == 0) {
		rc = duckdb_je_mallctl("arenas.muzzy_decay_ms", NULL, NULL, &zero, sizeof(zero));
	}
	if (rc != 0) {
		return rc;
	}
	unsigned n = 0;
	size_t len = sizeof(n);
	if (duckdb_je_mallctl("arenas.narenas", &n, &len, NULL, 0) != 0) {
		return 0;
	}
	char name[64];
	for (unsigned i = 0; i < n; i++) {
		snprintf(name, sizeof(name), "arena.%u.dirty_decay_ms", i);
		duckdb_je_mallctl(name, NULL, NULL, &zero, sizeof(zero));
		snprintf(name, sizeof(name), "arena.%u.muzzy_decay_ms", i);
		duckdb_je_mallctl(name, NULL, NULL, &zero, sizeof(zero));
	}
	return 0;
}

// datg_malloc_in_use is the bytes glibc's malloc holds in use over every
// arena; -1 before glibc 2.33, which has no mallinfo2 (mallinfo's int
// fields wrap at 2 GB), so that datg still builds there.
static int64_t datg_malloc_in_use(void) {
#if defined(__GLIBC__) && (__GLIBC__ > 2 || (__GLIBC__ == 2 && __GLIBC_MINOR__ >= 33))
	struct mallinfo2 m = mallinfo2();
	return (int64_t)m.uordblks;
#else
	return -1;
#endif
}
*/
import "C"

// flushAllocator returns the memory DuckDB's allocator keeps after its
// queries freed it to the system.
func flushAllocator() { C.datg_je_flush_all() }

// allocatorDirty is the memory DuckDB's allocator keeps freed but not
// returned, in bytes; -1 where it cannot be told.
func allocatorDirty() int64 { return int64(C.datg_je_dirty()) }

// returnFreedAtOnce makes DuckDB's allocator return every page it frees at
// once; false when the allocator refused.
func returnFreedAtOnce() bool { return C.datg_je_decay_now() == 0 }

// mallocInUse is the bytes the C heap holds in use.
func mallocInUse() int64 { return int64(C.datg_malloc_in_use()) }
