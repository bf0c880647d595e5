//go:build !unix

package view

import "os"

// textsMapped says mapRegion maps (tests).
const textsMapped = false

var pageSize = int64(os.Getpagesize())

// mapRegion maps nothing here: a search reads its candidates' texts
// (mapFile would read the whole region into the Go heap).
func mapRegion(*os.File, int64, int64) ([]byte, error) { return nil, nil }

func unmapRegion([]byte) error { return nil }
