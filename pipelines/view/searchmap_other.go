//go:build !unix

package view

import "os"

// textsMapped says mapTexts maps (tests).
const textsMapped = false

// mapTexts maps nothing here: a search reads its candidates' texts
// (mapFile would read the whole file into the Go heap).
func mapTexts(*os.File, int64) ([]byte, error) { return nil, nil }

func unmapTexts([]byte) error { return nil }
