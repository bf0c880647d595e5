package prompts

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"

	"github.com/datg/datg/internal/inputerr"
)

// Export writes the builtin set's files into dir (made if absent), byte for
// byte, so Load(dir) reads a set with the builtin hash. It refuses, before
// writing anything, when any of the files exists.
func Export(dir string) ([]string, error) {
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return nil, err
	}
	var paths []string
	for _, f := range Files {
		p := filepath.Join(dir, f.Name)
		if _, err := os.Lstat(p); err == nil {
			return nil, inputerr.Invalid(fmt.Errorf("%w: %s exists (export into an empty directory, or remove it)", ErrExportTarget, p))
		} else if !errors.Is(err, fs.ErrNotExist) {
			return nil, err
		}
		paths = append(paths, p)
	}
	for i, f := range Files {
		b, err := builtinFiles.ReadFile(f.Name)
		if err != nil {
			return nil, err
		}
		out, err := os.OpenFile(paths[i], os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o644)
		if err != nil {
			return nil, err
		}
		if _, err := out.Write(b); err != nil {
			out.Close()
			return nil, err
		}
		if err := out.Close(); err != nil {
			return nil, err
		}
	}
	return paths, nil
}
