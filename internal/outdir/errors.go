package outdir

import "errors"

// ErrBusy means another process is writing the same directory's outputs.
var ErrBusy = errors.New("another datg is writing this directory")

// ErrNotFile means an entry of the directory has the name of an output but
// is not a file (a directory, a symbolic link, a socket...): datg did not
// make it, so it is not replaced.
var ErrNotFile = errors.New("an output's name is taken by something other than a file")

// ErrNotOurs means a file has an output's name but datg's record of what it
// wrote does not list it: it is the user's, and is not replaced.
var ErrNotOurs = errors.New("a file datg did not write has an output's name (move it away to let datg write it)")

// ErrChanged means a file datg wrote has been changed since: it is not
// replaced, so that the change is not lost.
var ErrChanged = errors.New("changed since datg wrote it (move it away to let datg write it anew)")

// ErrBadName means an output's name is not a plain file name.
var ErrBadName = errors.New("not a plain file name")

// ErrBadState means datg's record in the directory (.datg/) is not one datg
// wrote: an unreadable manifest or commit record, or a .datg that is not a
// directory.
var ErrBadState = errors.New("datg's record of its outputs is unreadable")
