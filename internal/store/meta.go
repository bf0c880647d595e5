package store

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"runtime/debug"
	"time"

	"github.com/parquet-go/parquet-go"
)

// Metadata keys written into every Parquet file's footer.
const (
	MetaVersion    = "datg.version"
	MetaStage      = "datg.stage"
	MetaConfigHash = "datg.config_sha256"
	MetaCreated    = "datg.created_at"
	MetaTable      = "datg.table"
	// MetaCommit identifies the commit that wrote the file: the tables a
	// stage wrote together share it.
	MetaCommit = "datg.commit"
	// MetaServers records, for tables of LLM calls, what the servers said
	// of themselves (version, served models and context lengths), as JSON.
	MetaServers = "datg.servers"
)

// Version is the datg version recorded in the tables it writes.
var Version = func() string {
	if bi, ok := debug.ReadBuildInfo(); ok && bi.Main.Version != "" && bi.Main.Version != "(devel)" {
		return bi.Main.Version
	}
	return "v0.1.0-dev"
}()

// Meta says which stage wrote a table and with which configuration.
type Meta struct {
	Stage      string
	ConfigHash string
	Servers    string // JSON of the servers' own description; written when set
	// DryRun makes the transaction write nothing at all (no staging
	// directory, no lock file, no gen/): its rows are encoded and dropped,
	// and Commit fails with ErrDryRun. A stage's --dry-run sets it, so the
	// stage runs as it would and leaves the run as it was.
	DryRun bool
}

// HashConfig is the hex SHA-256 of a configuration's JSON encoding.
func HashConfig(cfg any) string {
	b, err := json.Marshal(cfg)
	if err != nil {
		// Configurations are plain data; failing to encode one is a bug.
		panic("store: hashing config: " + err.Error())
	}
	sum := sha256.Sum256(b)
	return hex.EncodeToString(sum[:])
}

func (m Meta) options(table, commit string, now time.Time) []parquet.WriterOption {
	opts := []parquet.WriterOption{
		parquet.KeyValueMetadata(MetaVersion, Version),
		parquet.KeyValueMetadata(MetaStage, m.Stage),
		parquet.KeyValueMetadata(MetaConfigHash, m.ConfigHash),
		parquet.KeyValueMetadata(MetaCreated, now.UTC().Format(time.RFC3339)),
		parquet.KeyValueMetadata(MetaTable, table),
		parquet.KeyValueMetadata(MetaCommit, commit),
	}
	if m.Servers != "" {
		opts = append(opts, parquet.KeyValueMetadata(MetaServers, m.Servers))
	}
	return opts
}
