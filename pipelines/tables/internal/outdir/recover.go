package outdir

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"regexp"

	"github.com/datg/datg/internal/atomicfile"
)

// recover finishes what a killed run left beside the directory: the
// previous directory put back where there is none (a fallback swap cut
// between its renames), a marker left in the directory (a run cut before
// its swap) removed, unfinished new directories deleted, previous
// directories restored (what users keep in them moved back) and deleted,
// half-deleted ones deleted.
func (l *locked) recover() error {
	entries, err := os.ReadDir(l.parent)
	if err != nil {
		return err
	}
	leftover := regexp.MustCompile(`^\.` + regexp.QuoteMeta(l.base) + `\.(new|old|trash)-[0-9]+$`)
	var news, olds, trash []string
	for _, e := range entries {
		m := leftover.FindStringSubmatch(e.Name())
		if m == nil || !e.IsDir() {
			continue
		}
		path := filepath.Join(l.parent, e.Name())
		switch _, err := os.Lstat(filepath.Join(path, marker)); {
		case m[1] == "trash":
			trash = append(trash, path)
		case err == nil:
			olds = append(olds, path)
		case errors.Is(err, fs.ErrNotExist):
			news = append(news, path)
		default:
			return err
		}
	}
	if len(news)+len(olds)+len(trash) == 0 {
		return removeIfExists(filepath.Join(l.dir, marker))
	}
	if err := step("recover"); err != nil {
		return err
	}
	if _, err := os.Lstat(l.dir); errors.Is(err, fs.ErrNotExist) && len(olds) > 0 {
		if err := os.Rename(olds[0], l.dir); err != nil {
			return fmt.Errorf("putting back %s: %w", l.dir, err)
		}
		olds = olds[1:]
		if err := atomicfile.SyncDir(l.parent); err != nil {
			return err
		}
	}
	if err := removeIfExists(filepath.Join(l.dir, marker)); err != nil {
		return err
	}
	for _, path := range news {
		if err := l.trash(path); err != nil {
			return err
		}
	}
	for _, path := range olds {
		if err := l.restore(path, false); err != nil {
			return err
		}
	}
	for _, path := range trash {
		if err := l.trash(path); err != nil {
			return err
		}
	}
	return nil
}
