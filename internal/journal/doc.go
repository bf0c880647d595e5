// Package journal is a durable, append-only record store keyed by content
// hash: the memory of every finished LLM call of a run.
//
// A journal is a directory of segment files. Each process that opens the
// journal appends to a segment of its own, one JSON line per record, written
// with a single write call, so a process killed at any instant leaves at most
// one torn line at the end of its segment; that line is ignored when the
// journal is next opened (the record it held was never acknowledged). Opening
// the journal indexes every record's key and location, not its value, so
// memory grows by a few dozen bytes per record however long the records are.
// A lock file keeps two processes from running the same stage on one journal.
package journal
