package duck

import (
	"os"
	"path/filepath"
	"testing"
)

// fakeRoot writes files (path under root -> content) into a new root.
func fakeRoot(t *testing.T, files map[string]string) string {
	t.Helper()
	root := t.TempDir()
	for p, content := range files {
		path := filepath.Join(root, p)
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return root
}

// The cgroup memory limit, from the files the kernel's cgroup
// documentation describes: v2's memory.max ("max" for none) of the
// process's cgroup (the "0::PATH" line of /proc/self/cgroup) and of each
// cgroup above it, v1's memory.limit_in_bytes in the memory hierarchy.
func TestCgroupMemoryLimit(t *testing.T) {
	const gib = 1 << 30
	cases := []struct {
		name  string
		files map[string]string
		want  int64
	}{
		{"v2, the process's cgroup", map[string]string{
			"proc/self/cgroup":                                   "0::/user.slice/job.scope\n",
			"sys/fs/cgroup/memory.max":                           "max\n",
			"sys/fs/cgroup/user.slice/memory.max":                "max\n",
			"sys/fs/cgroup/user.slice/job.scope/memory.max":      "1073741824\n",
			"sys/fs/cgroup/user.slice/job.scope/memory.high":     "1000\n", // a throttle, not a limit
			"sys/fs/cgroup/user.slice/job.scope/memory.swap.max": "0\n",
		}, gib},
		{"v2, a parent's lower limit binds", map[string]string{
			"proc/self/cgroup":                              "0::/user.slice/job.scope\n",
			"sys/fs/cgroup/user.slice/memory.max":           "536870912\n",
			"sys/fs/cgroup/user.slice/job.scope/memory.max": "max\n",
		}, gib / 2},
		{"v2, none set", map[string]string{
			"proc/self/cgroup": "0::/user.slice/job.scope\n",
			"sys/fs/cgroup/user.slice/job.scope/memory.max": "max\n",
		}, 0},
		{"v2 in a container: its cgroup is the root of the mount", map[string]string{
			"proc/self/cgroup":         "0::/\n",
			"sys/fs/cgroup/memory.max": "2147483648\n",
		}, 2 * gib},
		{"v1, unlimited", map[string]string{
			"proc/self/cgroup": "12:pids:/\n4:memory:/docker/abc\n1:name=systemd:/\n",
			"sys/fs/cgroup/memory/docker/abc/memory.limit_in_bytes": "9223372036854771712\n",
		}, 0},
		{"v1, the memory controller mounted with another", map[string]string{
			"proc/self/cgroup": "4:cpu,memory:/docker/abc\n",
			"sys/fs/cgroup/memory/docker/abc/memory.limit_in_bytes": "1073741824\n",
		}, gib},
		{"v1 in a container: the path is the host's, the mount its own cgroup", map[string]string{
			"proc/self/cgroup":                           "4:memory:/process_api/0123\n",
			"sys/fs/cgroup/memory/memory.limit_in_bytes": "1073741824\n",
		}, gib},
		{"hybrid: v1 memory beside a v2 tree", map[string]string{
			"proc/self/cgroup": "4:memory:/a\n0::/a\n",
			"sys/fs/cgroup/memory/a/memory.limit_in_bytes": "2147483648\n",
			"sys/fs/cgroup/unified/a/memory.max":           "max\n",
		}, 2 * gib},
		{"no cgroups", map[string]string{}, 0},
		{"garbage", map[string]string{
			"proc/self/cgroup":         "nonsense\n0::/../../x\n",
			"sys/fs/cgroup/memory.max": "lots\n",
			"sys/x/memory.max":         "1024\n", // outside the mount
			"sys/memory.max":           "1024\n",
		}, 0},
	}
	for _, c := range cases {
		if got := cgroupMemoryLimit(fakeRoot(t, c.files)); got != c.want {
			t.Errorf("%s: %d, want %d", c.name, got, c.want)
		}
	}
}

func TestAvailableMemory(t *testing.T) {
	mem := physicalMemory()
	if mem <= 0 {
		t.Fatalf("physical memory %d", mem)
	}
	if avail := availableMemory(); avail <= 0 || avail > mem {
		t.Fatalf("available %d of physical %d", avail, mem)
	}
}
