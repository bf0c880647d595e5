package outdir

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"strings"

	"github.com/datg/datg/internal/atomicfile"
)

// The names under the directory's .datg/.
const (
	stateDir     = ".datg"
	manifestName = "manifest.json"
	commitName   = "commit.json"
	lockName     = "lock"
	format       = "datg-outdir/1"
)

// stagePattern and tempPattern are the names datg makes under .datg/ and
// deletes when a killed run left them: staging directories, and the
// temporary files of atomicfile.WriteFile.
var (
	stagePattern = regexp.MustCompile(`^stage-[0-9]+$`)
	tempPattern  = regexp.MustCompile(`^\.(manifest|commit)\.json\.tmp-[0-9]+$`)
)

// manifest is what datg wrote into the directory: output name -> SHA-256
// of its content, in hex.
type manifest struct {
	Format string            `json:"format"`
	Files  map[string]string `json:"files"`
}

// commitRecord is a committed set whose renames may not all be done: the
// next run finishes them from it.
type commitRecord struct {
	Format string `json:"format"`
	Stage  string `json:"stage"` // under .datg/: where the new outputs are ("" for none)
	// Files is the manifest once committed.
	Files map[string]string `json:"files"`
	// Write are the staged outputs, each with the SHA-256 of the file it
	// replaces ("" for none): a file with another content in its place
	// is not datg's to rename over.
	Write map[string]string `json:"write"`
	// Drop are outputs datg no longer writes, with the content it wrote:
	// removed while they still hold it.
	Drop map[string]string `json:"drop"`
}

// readManifest reads dir's manifest; none is an empty one.
func readManifest(state string) (manifest, error) {
	m := manifest{Format: format, Files: map[string]string{}}
	found, err := readRecord(filepath.Join(state, manifestName), &m)
	if err != nil || !found {
		return manifest{Format: format, Files: map[string]string{}}, err
	}
	if m.Files == nil {
		m.Files = map[string]string{}
	}
	for name, sum := range m.Files {
		if validName(name) != nil || !isHash(sum) {
			return m, fmt.Errorf("%s: entry %q: %w", filepath.Join(state, manifestName), name, ErrBadState)
		}
	}
	return m, nil
}

// readCommit reads a pending commit record, if any.
func readCommit(state string) (commitRecord, bool, error) {
	var c commitRecord
	path := filepath.Join(state, commitName)
	found, err := readRecord(path, &c)
	if err != nil || !found {
		return c, found, err
	}
	// No stage when nothing was staged (outputs only removed or adopted).
	bad := !stagePattern.MatchString(c.Stage) && (c.Stage != "" || len(c.Write) > 0)
	for _, set := range []map[string]string{c.Files, c.Write, c.Drop} {
		for name, sum := range set {
			bad = bad || validName(name) != nil || (sum != "" && !isHash(sum))
		}
	}
	for name := range c.Write {
		bad = bad || !isHash(c.Files[name])
	}
	if bad {
		return c, true, fmt.Errorf("%s: %w", path, ErrBadState)
	}
	return c, true, nil
}

// readRecord decodes the JSON file at path into v; found is false when
// there is none.
func readRecord(path string, v interface{ check() bool }) (found bool, err error) {
	b, err := os.ReadFile(path)
	if errors.Is(err, fs.ErrNotExist) {
		return false, nil
	}
	if err != nil {
		return false, err
	}
	dec := json.NewDecoder(strings.NewReader(string(b)))
	dec.DisallowUnknownFields()
	if err := dec.Decode(v); err != nil || !v.check() {
		return true, fmt.Errorf("%s: %w (move it away: datg then writes no file that is in the way)", path, ErrBadState)
	}
	return true, nil
}

func (m *manifest) check() bool     { return m.Format == format }
func (c *commitRecord) check() bool { return c.Format == format }

// writeRecord replaces the JSON file name under state with v, durably.
func writeRecord(state, name string, v any) error {
	b, err := json.MarshalIndent(v, "", "  ")
	if err != nil {
		return err
	}
	if err := atomicfile.WriteFile(filepath.Join(state, name), append(b, '\n')); err != nil {
		return err
	}
	return atomicfile.SyncDir(state)
}

// hashOf is the SHA-256 of data in hex.
func hashOf(data []byte) string {
	sum := sha256.Sum256(data)
	return hex.EncodeToString(sum[:])
}

// currentHash is the SHA-256 of the file at path, "" when there is none;
// an entry that is not a regular file (a symbolic link included) is
// ErrNotFile.
func currentHash(path string) (string, error) {
	fi, err := os.Lstat(path)
	if errors.Is(err, fs.ErrNotExist) {
		return "", nil
	}
	if err != nil {
		return "", err
	}
	if !fi.Mode().IsRegular() {
		return "", fmt.Errorf("%s: %w", path, ErrNotFile)
	}
	f, err := os.Open(path)
	if err != nil {
		return "", err
	}
	defer f.Close()
	h := sha256.New()
	if _, err := io.Copy(h, f); err != nil {
		return "", err
	}
	return hex.EncodeToString(h.Sum(nil)), nil
}

func isHash(s string) bool {
	_, err := hex.DecodeString(s)
	return err == nil && len(s) == 2*sha256.Size
}

// validName accepts a plain file name that is not datg's own .datg.
func validName(name string) error {
	if name == "" || name == "." || name == ".." || name == stateDir || strings.ContainsAny(name, "/\n\x00") {
		return fmt.Errorf("output %q: %w", name, ErrBadName)
	}
	return nil
}
