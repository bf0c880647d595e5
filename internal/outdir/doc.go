// Package outdir writes a set of outputs into a directory that may also be
// the user's (a paper's tables/ beside its main.tex): the directory itself
// is never replaced, so it keeps its inode, owner, group, mode bits (setgid,
// sticky), ACLs and every entry datg did not write; only datg's own files in
// it change, and they change as one set.
//
// What datg wrote is recorded in the directory, in .datg/manifest.json:
// each output's name and SHA-256. A file is datg's to replace or remove
// only while the manifest lists it with its current content; a file of an
// output's name that the manifest does not list (the user's), or whose
// content changed since (the user edited it), is refused with an error
// naming it (ErrNotOurs, ErrChanged), never overwritten. A file identical
// to the output it would become is recorded as datg's and left as is; an
// unchanged output is not rewritten (its mtime stays).
//
// A set is committed in three moves:
//
//  1. every new or changed output is written and synced into a staging
//     directory, .datg/stage-N; the directory's outputs are untouched;
//  2. a commit record, .datg/commit.json (the new manifest, and for each
//     output to move in or remove the content it replaces), is written to
//     a temporary name, synced and renamed into place: the commit point;
//  3. each staged file is renamed over its output, outputs datg no longer
//     writes are removed, the new manifest replaces the old one, and the
//     commit record and staging directory are deleted.
//
// POSIX renames one name at a time, so "at once" is: nothing is visible
// before the commit point, and after it the renames take a few
// milliseconds; a process killed between the two leaves the commit
// record, and the next run (Begin, Replace, Recover) finishes the renames
// before anything else, so the directory holds the previous set or the new
// one once datg has looked at it. A reader that must never see the
// milliseconds of a mix can check that .datg/commit.json is absent.
//
// Everything datg makes beyond the outputs stays under .datg/ (the lock,
// .datg/lock, keeps two writers apart); the directory holding the output
// directory is never written, so a mount point or a directory in a
// read-only parent is a valid output directory.
package outdir
