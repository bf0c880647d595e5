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

// PinValid is the start of a stage that reads one generation of its run:
// cfg.Validate, then Pin(dir).
func PinValid(cfg interface{ Validate() error }, dir string) (*Snapshot, error) {
	if err := cfg.Validate(); err != nil {
		return nil, err
	}
	return Pin(dir)
}
