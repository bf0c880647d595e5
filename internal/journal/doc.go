// Package journal is a durable, append-only record store keyed by content
// hash: the memory of every finished LLM call of a run.
//
// A journal is a directory of segment files. Each process that opens the
// journal appends to a segment of its own, one JSON line per record, written
// with a single write call, so a process killed at any instant leaves at most
// one torn line at the end of its segment; that line is ignored when the
// journal is next opened (the record it held was never acknowledged). A
// complete line that is not a record cannot come from a kill: it is damage
// (a disk fault, an edit), and opening fails with ErrCorrupt naming every
// such line and the command that deletes them (the calls they held are
// sent again); datg neither guesses at nor drops a damaged record itself.
// A record that reads back damaged fails alike, naming its line. Opening
// the journal indexes every record's key and location, not its value, so
// memory grows by a few dozen bytes per record however long the records are.
// A lock file keeps two processes from running the same stage on one journal.
package journal
