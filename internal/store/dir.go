package store

import "github.com/datg/datg/internal/inputerr"

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
