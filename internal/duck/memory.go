package duck

import (
	"bufio"
	"os"
	"path/filepath"
	"strconv"
	"strings"
)

// availableMemory is the memory this process may use, in bytes: the
// machine's, or its cgroup's limit when lower; 0 when neither can be told.
func availableMemory() int64 {
	mem := physicalMemory()
	if limit := cgroupMemoryLimit("/"); limit > 0 && (mem == 0 || limit < mem) {
		mem = limit
	}
	return mem
}

// cgroupMemoryLimit is the lowest memory limit of the cgroups this process
// is in, reading /proc/self/cgroup and the cgroup file systems under root
// (/ but in tests), or 0 when none is set. The limit of a cgroup binds the
// cgroups below it, so each one's limit from the process's up to the root
// of its hierarchy counts. cgroup v2 writes it in memory.max ("max": none)
// and v1 in memory.limit_in_bytes (a huge number: none); a host may mount
// both (v1's memory controller beside a v2 tree), and a cgroup namespace
// (a container) mounts its own cgroup as the root, which the walk also
// finds.
func cgroupMemoryLimit(root string) int64 {
	f, err := os.Open(filepath.Join(root, "proc/self/cgroup"))
	if err != nil {
		return 0
	}
	defer f.Close()
	var lowest int64
	consider := func(mount, file, path string) {
		top := filepath.Join(root, mount)
		dir := filepath.Join(top, path)
		if !strings.HasPrefix(dir, top+string(filepath.Separator)) {
			dir = top // "/", or a path climbing out of the mount
		}
		for ; ; dir = filepath.Dir(dir) {
			if limit := readLimit(filepath.Join(dir, file)); limit > 0 && (lowest == 0 || limit < lowest) {
				lowest = limit
			}
			if dir == top {
				return
			}
		}
	}
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		// hierarchy-ID:controller-list:cgroup-path
		fields := strings.SplitN(sc.Text(), ":", 3)
		if len(fields) != 3 {
			continue
		}
		controllers, path := fields[1], fields[2]
		if fields[0] == "0" && controllers == "" { // v2
			consider("sys/fs/cgroup", "memory.max", path)
			consider("sys/fs/cgroup/unified", "memory.max", path)
			continue
		}
		for _, c := range strings.Split(controllers, ",") {
			if c == "memory" {
				consider("sys/fs/cgroup/memory", "memory.limit_in_bytes", path)
			}
		}
	}
	return lowest
}

// noLimit is above any memory limit actually set: cgroup v1 writes "none"
// as the largest multiple of the page size below 2^63.
const noLimit = 1 << 62

// readLimit reads a cgroup memory limit file: 0 when absent or unlimited.
func readLimit(path string) int64 {
	b, err := os.ReadFile(path)
	if err != nil {
		return 0
	}
	n, err := strconv.ParseInt(strings.TrimSpace(string(b)), 10, 64)
	if err != nil || n <= 0 || n >= noLimit { // "max", or v1's none
		return 0
	}
	return n
}
