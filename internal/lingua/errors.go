package lingua

import "errors"

// ErrModel means an embedded language model could not be read.
var ErrModel = errors.New("lingua: bad language model")
