package explain

import (
	"errors"

	"github.com/datg/datg/internal/store"
	"github.com/datg/datg/schema"
)

// scan reads every row of a table through fn; a table the run has not
// written has none.
func scan[T any](dir string, def schema.Def[T], fn func(*T)) error {
	err := store.Scan(dir, def, func(r *T) error { fn(r); return nil })
	if errors.Is(err, store.ErrNoTable) {
		return nil
	}
	return err
}
