package outdir

import (
	"bytes"
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

// stagePattern, heldPattern and tempPattern are the names datg makes under
// .datg/ and deletes when a killed run left them: staging directories,
// links to the outputs a commit replaces, and the temporary files of
// atomicfile.WriteFile.
var (
	stagePattern = regexp.MustCompile(`^stage-[0-9]+$`)
	heldPattern  = regexp.MustCompile(`^old-[0-9]+$`)
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
	path := filepath.Join(state, manifestName)
	b, err := os.ReadFile(path)
	if errors.Is(err, fs.ErrNotExist) {
		return manifest{Format: format, Files: map[string]string{}}, nil
	}
	if err != nil {
		return manifest{}, err
	}
	return parseManifest(path, b)
}

// readCommit reads a pending commit record, if any.
func readCommit(state string) (c commitRecord, found bool, err error) {
	path := filepath.Join(state, commitName)
	b, err := os.ReadFile(path)
	if errors.Is(err, fs.ErrNotExist) {
		return c, false, nil
	}
	if err != nil {
		return c, true, err
	}
	c, err = parseCommit(path, b)
	return c, true, err
}

// parseManifest decodes a manifest read from path: every name a plain
// file name, every sum a SHA-256.
func parseManifest(path string, b []byte) (manifest, error) {
	var m manifest
	if err := decodeRecord(b, &m); err != nil || m.Format != format {
		return m, fmt.Errorf("%s: %w (move it away: datg then writes no file that is in the way)", path, ErrBadState)
	}
	if m.Files == nil {
		m.Files = map[string]string{}
	}
	for name, sum := range m.Files {
		if validName(name) != nil || !isHash(sum) {
			return m, fmt.Errorf("%s: entry %q: %w", path, name, ErrBadState)
		}
	}
	return m, nil
}

// parseCommit decodes a commit record read from path: a staging directory
// under .datg/ (none when nothing was staged), plain file names, SHA-256
// sums ("" where no file was replaced), and a new sum for every staged
// file.
func parseCommit(path string, b []byte) (commitRecord, error) {
	var c commitRecord
	bad := decodeRecord(b, &c) != nil || c.Format != format
	bad = bad || (!stagePattern.MatchString(c.Stage) && (c.Stage != "" || len(c.Write) > 0))
	for _, set := range []map[string]string{c.Files, c.Write, c.Drop} {
		for name, sum := range set {
			bad = bad || validName(name) != nil || (sum != "" && !isHash(sum))
		}
	}
	for name := range c.Write {
		bad = bad || !isHash(c.Files[name])
	}
	if bad {
		return c, fmt.Errorf("%s: %w (datg cannot finish the commit it records)", path, ErrBadState)
	}
	return c, nil
}

// decodeRecord decodes one JSON object with no field datg does not know.
func decodeRecord(b []byte, v any) error {
	dec := json.NewDecoder(bytes.NewReader(b))
	dec.DisallowUnknownFields()
	if err := dec.Decode(v); err != nil {
		return err
	}
	if dec.More() {
		return errors.New("data after the record")
	}
	return nil
}

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
