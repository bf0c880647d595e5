package duck

import "syscall"

// freeSpace is the space an unprivileged user may still write on the file
// system holding dir, in bytes.
func freeSpace(dir string) (int64, error) {
	var st syscall.Statfs_t
	if err := syscall.Statfs(dir, &st); err != nil {
		return 0, err
	}
	return int64(st.Bavail) * int64(st.Bsize), nil
}
