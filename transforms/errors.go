package transforms

import "errors"

// ErrNoDirection means an (input, reasoning) language pair is none of the
// study's directions (en-en, en-x, x-en, x-x with the same x).
var ErrNoDirection = errors.New("not a study direction")
