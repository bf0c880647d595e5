package store

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"hash"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"github.com/datg/datg/internal/atomicfile"
)

// Manifest is what a generation holds, written into it (manifest.json)
// before it becomes current and never changed after: every file of every
// table with its size and SHA-256 and the commit its footer names. Readers
// and commits compare the files with it, so a file edited in place (the
// generations share their files by hard links, so a write through
// DIR/<table>.parquet reaches them all), replaced, or turned into a link is
// refused instead of read as committed.
type Manifest struct {
	Format    int            `json:"format"`
	Commit    string         `json:"commit"` // the commit that made the generation
	Stage     string         `json:"stage"`
	CreatedAt string         `json:"created_at"`
	Files     []ManifestFile `json:"files"`
}

// ManifestFile is one file of a generation.
type ManifestFile struct {
	// Path is relative to the generation: traces.parquet, or
	// problems/part-0.parquet for a table kept as a folder.
	Path   string `json:"path"`
	Table  string `json:"table"`
	Size   int64  `json:"size"`
	SHA256 string `json:"sha256"`
	// Commit and Stage are the file's footer datg.commit and datg.stage
	// (empty for a file written before datg recorded them).
	Commit string `json:"commit"`
	Stage  string `json:"stage"`
	// MtimeNs is the file's modification time when the generation was
	// made: a file with its size and this time is taken as unchanged
	// without hashing it (every write changes the time; a file whose time
	// alone changed is hashed, and accepted when its content is the same).
	MtimeNs int64 `json:"mtime_ns"`
}

const manifestFormat = 1

// ReadManifest reads a generation's manifest; a generation made before
// manifests has none (nil, nil).
func ReadManifest(gen string) (*Manifest, error) {
	path := filepath.Join(gen, manifestName)
	b, err := os.ReadFile(path)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, err
	}
	dec := json.NewDecoder(bytes.NewReader(b))
	dec.DisallowUnknownFields()
	var m Manifest
	if err := dec.Decode(&m); err != nil || m.Format != manifestFormat {
		if err == nil {
			err = fmt.Errorf("format %d, want %d", m.Format, manifestFormat)
		}
		return nil, fmt.Errorf("%s: %v: %w (the generation's manifest was changed outside datg); %s",
			path, err, ErrTableChanged, repairHint(filepath.Dir(filepath.Dir(gen))))
	}
	return &m, nil
}

// writeManifest writes m into the staging directory of a generation.
func writeManifest(staging string, m *Manifest) error {
	m.Format = manifestFormat
	slices.SortFunc(m.Files, func(a, b ManifestFile) int { return strings.Compare(a.Path, b.Path) })
	b, err := json.MarshalIndent(m, "", "  ")
	if err != nil {
		return err
	}
	return atomicfile.WriteNew(filepath.Join(staging, manifestName), append(b, '\n'), 0o444)
}

// table returns the manifest's files of a table.
func (m *Manifest) table(name string) []ManifestFile {
	var out []ManifestFile
	for _, f := range m.Files {
		if f.Table == name {
			out = append(out, f)
		}
	}
	return out
}

// tables lists the tables the manifest holds.
func (m *Manifest) tables() []string {
	var out []string
	for _, f := range m.Files {
		if !slices.Contains(out, f.Table) {
			out = append(out, f.Table)
		}
	}
	return out
}

// verify checks one file of generation gen against its manifest entry:
// a regular file (not a link) of the recorded size and, unless its
// modification time is the recorded one, the recorded hash; full hashes it
// whatever its time.
func (f ManifestFile) verify(gen string, full bool) error {
	path := filepath.Join(gen, filepath.FromSlash(f.Path))
	fi, err := os.Lstat(path)
	switch {
	case errors.Is(err, fs.ErrNotExist):
		return f.changed(gen, "it is missing")
	case err != nil:
		return err
	case !fi.Mode().IsRegular():
		return f.changed(gen, "it is "+kind(fi)+" now, not the file datg wrote")
	case fi.Size() != f.Size:
		return f.changed(gen, fmt.Sprintf("%d bytes, committed %d", fi.Size(), f.Size))
	case !full && fi.ModTime().UnixNano() == f.MtimeNs:
		return nil
	}
	sum, err := hashFile(path)
	if err != nil {
		return err
	}
	if sum != f.SHA256 {
		return f.changed(gen, "its content differs from what was committed (sha256 "+short(sum)+", committed "+short(f.SHA256)+")")
	}
	return nil
}

// changed is the error for a file of a generation that is not what the
// manifest says: it names the file and says how to restore the table.
func (f ManifestFile) changed(gen, what string) error {
	run := filepath.Dir(filepath.Dir(gen))
	stage := f.Stage
	if stage == "" {
		stage = "an unnamed stage"
	}
	return fmt.Errorf("%s: %w: %s; table %s was committed by %s (commit %s), and the generations share their files by hard links, so older ones may hold the same change; run `datg doctor --data %s` to see what can restore it",
		filepath.Join(gen, filepath.FromSlash(f.Path)), ErrTableChanged, what, f.Table, stage, orUnknown(f.Commit), run)
}

func orUnknown(s string) string {
	if s == "" {
		return "(unknown)"
	}
	return s
}

func short(sum string) string {
	if len(sum) > 12 {
		return sum[:12] + "…"
	}
	return sum
}

// hashFile is the hex SHA-256 of a file's content.
func hashFile(path string) (string, error) {
	f, err := os.Open(path)
	if err != nil {
		return "", err
	}
	defer f.Close()
	h := sha256.New()
	if _, err := io.Copy(h, f); err != nil {
		return "", fmt.Errorf("reading %s: %w", path, err)
	}
	return hex.EncodeToString(h.Sum(nil)), nil
}

// describeFile makes the manifest entry of a file datg is putting into a
// generation: hashed unless the hash is already known (sum), its footer's
// commit and stage read, its time taken as it is now.
func describeFile(gen, rel, table, sum string) (ManifestFile, error) {
	path := filepath.Join(gen, filepath.FromSlash(rel))
	fi, err := os.Lstat(path)
	if err != nil {
		return ManifestFile{}, err
	}
	if sum == "" {
		if sum, err = hashFile(path); err != nil {
			return ManifestFile{}, err
		}
	}
	e := ManifestFile{Path: rel, Table: table, Size: fi.Size(), SHA256: sum, MtimeNs: fi.ModTime().UnixNano()}
	if meta, err := FileMeta(path); err == nil {
		e.Commit, e.Stage = meta[MetaCommit], meta[MetaStage]
	}
	return e, nil
}

// hashingWriter hashes what passes through it to a table file.
type hashingWriter struct {
	w    io.Writer
	hash hash.Hash
}

func newHashingWriter(w io.Writer) *hashingWriter {
	return &hashingWriter{w: w, hash: sha256.New()}
}

func (h *hashingWriter) Write(p []byte) (int, error) {
	n, err := h.w.Write(p)
	h.hash.Write(p[:n])
	return n, err
}

func (h *hashingWriter) sum() string { return hex.EncodeToString(h.hash.Sum(nil)) }

// now is the time written into manifests.
func now() string { return time.Now().UTC().Format(time.RFC3339) }
