package store

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"

	"github.com/datg/datg/internal/inputerr"
)

// DefaultDir is the run directory every stage's DefaultConfig names (and
// cmd/datg's --data default, unless $DATG_DATA says otherwise).
const DefaultDir = "data/run"

// CheckDir is the problem with a Config whose run directory (its Data
// field) is not named, or nil.
func CheckDir(data string) error {
	if data == "" {
		return inputerr.BadField("Data", "no run directory")
	}
	return nil
}

// PinValid is the start of a stage that reads one generation of its run:
// cfg.Validate, then Pin(dir).
func PinValid(cfg interface{ Validate() error }, dir string) (*Snapshot, error) {
	if err := cfg.Validate(); err != nil {
		return nil, err
	}
	return Pin(dir)
}

// CheckRun is the problem with reading dir as a run, or nil. dir must be
// named (else an inputerr.ErrInvalidConfig) and be a directory that datg
// has made a run (DIR/current or DIR/gen/ is there) or that holds tables in
// place (a run from before generations, a directory of tables); else
// ErrNoRun. Without this check a mistyped --data, or the default data/run
// from the wrong working directory, reads as a run whose every table is
// empty. What a run holds is checked where it is read (Pin, Inspect).
func CheckRun(dir string) error {
	if err := CheckDir(dir); err != nil {
		return inputerr.Invalid(err)
	}
	where := dir
	if !filepath.IsAbs(dir) {
		if wd, err := os.Getwd(); err == nil {
			where = fmt.Sprintf("%s in %s", dir, wd)
		}
	}
	fi, err := os.Stat(dir)
	switch {
	case errors.Is(err, fs.ErrNotExist):
		return fmt.Errorf("%w at %s", ErrNoRun, where)
	case err != nil:
		return fmt.Errorf("%w at %s: %v", ErrNoRun, where, err)
	case !fi.IsDir():
		return fmt.Errorf("%w at %s: it is %s", ErrNoRun, where, kind(fi))
	}
	for _, name := range []string{currentLink, genDir} {
		if _, err := os.Lstat(filepath.Join(dir, name)); err == nil {
			return nil
		}
	}
	for name := range tableNames() {
		if _, err := os.Lstat(filepath.Join(dir, name+".parquet")); err == nil || isTableFolder(filepath.Join(dir, name)) {
			return nil
		}
	}
	return fmt.Errorf("%w at %s: the directory holds no current, gen/ or table of datg", ErrNoRun, where)
}
