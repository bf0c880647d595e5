package journal

import (
	"errors"
	"fmt"
	"os"
)

// ErrReadOnly means a record was put into a journal opened read-only.
var ErrReadOnly = errors.New("journal is open read-only")

// OpenReadOnly opens the journal in dir to read: it creates nothing (no
// directory, no lock file, no segment) and takes no lock, so a dry run
// leaves the run directory as it found it. A journal that does not exist
// reads as empty. A process appending meanwhile may leave its last line
// torn; that line is ignored, as Open ignores it.
func OpenReadOnly(dir string) (*Journal, error) {
	j := &Journal{dir: dir, index: map[Key]location{}, readOnly: true}
	if _, err := os.Stat(dir); errors.Is(err, os.ErrNotExist) {
		return j, nil
	} else if err != nil {
		return nil, err
	}
	names, err := segments(dir)
	if err != nil {
		return nil, err
	}
	if err := j.loadAll(names); err != nil {
		j.Close()
		return nil, err
	}
	return j, nil
}

// refuseWrite is the error of a write to a read-only journal.
func (j *Journal) refuseWrite() error {
	return fmt.Errorf("%s: %w", j.dir, ErrReadOnly)
}
