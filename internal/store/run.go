package store

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
)

// A run directory keeps its tables in generations:
//
//	DIR/current                  symlink to gen/<N>: the committed tables
//	DIR/gen/<N>/<table>.parquet  generation N (never changed once made; 0444)
//	DIR/gen/<N>/manifest.json    what generation N holds: size and sha256 of each file
//	DIR/gen/.tx-<id>/            a commit being prepared, held by a lock
//	DIR/<table>.parquet          symlink to current/<table>.parquet, for notebooks
//
// A commit makes a new generation: the tables it writes, plus hard links to
// every other table of the current one; then it points current at it with
// one rename, the only step readers can observe. So every table a stage
// writes appears at once or not at all, whatever fails or kills it. A run
// written before generations (tables directly in DIR) is read as it is and
// becomes generation 1 at its first commit.
//
// datg owns exactly what it made, and checks it: current must name
// gen/<8 digits> exactly, gen/ and the generation must be directories (no
// symlink on the way), each table file a regular file whose size and hash
// are the manifest's. Anything else is refused with ErrBadRun or
// ErrTableChanged, naming the path and how to restore it, never read as
// committed and never collected.
const (
	currentLink  = "current"
	genDir       = "gen"
	txPrefix     = ".tx-"
	manifestName = "manifest.json"
	genDigits    = 8
)

// genName is the directory name of generation n; fixed width keeps a
// listing in commit order.
func genName(n int) string { return fmt.Sprintf("%0*d", genDigits, n) }

// genNumber parses a generation directory name: exactly eight digits.
func genNumber(name string) (int, bool) {
	if len(name) != genDigits {
		return 0, false
	}
	for _, c := range name {
		if c < '0' || c > '9' {
			return 0, false
		}
	}
	n, err := strconv.Atoi(name)
	return n, err == nil && n > 0
}

// currentTarget parses the target of DIR/current: gen/<8 digits>, nothing
// else (not "gen", not an absolute path, not a path through another link).
func currentTarget(target string) (int, bool) {
	rest, ok := strings.CutPrefix(target, genDir+"/")
	if !ok {
		return 0, false
	}
	return genNumber(rest)
}

// location is where a directory given to a reader keeps its tables.
type location struct {
	run    string // the run directory; "" for a directory of tables read in place
	tables string // the directory holding the table files
	gen    int    // the generation read; 0 when the tables are read in place
}

// locate resolves dir, a run directory or a generation of one (a
// snapshot's Dir), to where its committed tables are. A run from before
// generations, and a directory of tables without a run around it (a test's
// fixture), are read in place.
func locate(dir string) (location, error) {
	if run, n, ok := generationPath(dir); ok {
		if err := checkGenerationDir(run, n); err != nil {
			return location{}, err
		}
		return location{run: run, tables: dir, gen: n}, nil
	}
	n, err := readCurrent(dir)
	if err != nil {
		return location{}, err
	}
	if n == 0 {
		return location{tables: dir}, nil
	}
	if err := checkGenerationDir(dir, n); err != nil {
		return location{}, err
	}
	return location{run: dir, tables: filepath.Join(dir, genDir, genName(n)), gen: n}, nil
}

// generationPath reports whether dir names a generation of a run,
// RUN/gen/<N> with RUN/current beside gen/, as a snapshot's Dir does.
func generationPath(dir string) (run string, n int, ok bool) {
	clean := filepath.Clean(dir)
	n, ok = genNumber(filepath.Base(clean))
	parent := filepath.Dir(clean)
	if !ok || filepath.Base(parent) != genDir {
		return "", 0, false
	}
	run = filepath.Dir(parent)
	if _, err := os.Lstat(filepath.Join(run, currentLink)); err != nil {
		return "", 0, false
	}
	return run, n, true
}

// readCurrent returns the generation DIR/current names, or 0 for a run
// without generations. A current that is not a symlink to gen/<N>, or a run
// whose generations lost their current, is ErrBadRun with the way out.
func readCurrent(dir string) (int, error) {
	path := filepath.Join(dir, currentLink)
	target, err := os.Readlink(path)
	switch {
	case err == nil:
		n, ok := currentTarget(target)
		if !ok {
			return 0, fmt.Errorf("%s points at %q, not at a generation (gen/<8 digits>): %w; %s",
				path, target, ErrBadRun, repairHint(dir))
		}
		return n, nil
	case errors.Is(err, fs.ErrNotExist):
		if !legacyRun(dir) {
			return 0, fmt.Errorf("%s is missing but %s holds generations: %w; %s",
				path, filepath.Join(dir, genDir), ErrBadRun, repairHint(dir))
		}
		return 0, nil
	case errors.Is(err, syscall.EINVAL):
		return 0, fmt.Errorf("%s is not a symlink: %w; move it away, then %s", path, ErrBadRun, repairHint(dir))
	}
	return 0, err
}

// checkGenerationDir checks that RUN/gen and RUN/gen/<N> are directories,
// not links (a gen/ linked to another run's would make this run's commits
// that run's, and collect its generations).
func checkGenerationDir(run string, n int) error {
	gens := filepath.Join(run, genDir)
	if err := realDir(gens); err != nil {
		return err
	}
	path := filepath.Join(gens, genName(n))
	fi, err := os.Lstat(path)
	if errors.Is(err, fs.ErrNotExist) {
		return fmt.Errorf("%s names generation %d, which does not exist: %w; %s",
			filepath.Join(run, currentLink), n, ErrBadRun, repairHint(run))
	}
	if err != nil {
		return err
	}
	if !fi.IsDir() {
		return fmt.Errorf("%s is not a directory (%s): %w", path, kind(fi), ErrBadRun)
	}
	return nil
}

// realDir checks that path is a directory itself, not a link to one.
func realDir(path string) error {
	fi, err := os.Lstat(path)
	if err != nil {
		return err
	}
	if !fi.IsDir() {
		return fmt.Errorf("%s is not a directory (%s): %w; datg keeps a run's generations in a directory of its own",
			path, kind(fi), ErrBadRun)
	}
	return nil
}

// kind names what a file is, for errors.
func kind(fi fs.FileInfo) string {
	switch m := fi.Mode(); {
	case m&fs.ModeSymlink != 0:
		return "a symlink"
	case m.IsDir():
		return "a directory"
	case m.IsRegular():
		return "a regular file"
	default:
		return "a " + m.Type().String() + " file"
	}
}

// repairHint tells how to get a damaged run back.
func repairHint(dir string) string {
	newest := generations(dir)
	hint := "run `datg doctor --data " + dir + "` to see the run's state, and `datg doctor --repair` to point current at the newest generation whose files are intact"
	if len(newest) > 0 {
		hint += fmt.Sprintf(" (the newest present is %s)", filepath.Join(genDir, genName(newest[len(newest)-1])))
	}
	return hint
}

// generations lists the numbers of RUN/gen/<N> directories, in order.
func generations(run string) []int {
	entries, err := os.ReadDir(filepath.Join(run, genDir))
	if err != nil {
		return nil
	}
	var out []int
	for _, e := range entries {
		if n, ok := genNumber(e.Name()); ok && e.IsDir() {
			out = append(out, n)
		}
	}
	return out
}

// legacyRun reports whether a run without current is one from before
// generations, read in place: it has no generation, or only generations a
// killed migration of its tables left (the next commit migrates again). A
// run whose current was removed is not, whatever files are in DIR.
func legacyRun(dir string) bool {
	for _, n := range generations(dir) {
		m, err := ReadManifest(filepath.Join(dir, genDir, genName(n)))
		if err != nil || m == nil || m.Commit != migratedCommit {
			return false
		}
	}
	return true
}

// hasLegacyTables reports whether dir holds tables the way runs before
// generations did: a regular table file, or a folder of parts.
func hasLegacyTables(dir string) bool {
	for name := range tableNames() {
		if fi, err := os.Lstat(filepath.Join(dir, name+".parquet")); err == nil && fi.Mode().IsRegular() {
			return true
		}
		if isTableFolder(filepath.Join(dir, name)) {
			return true
		}
	}
	return false
}

// Snapshot is one generation of a run, held for reading: while it is open
// no commit removes it, so every table read through Dir comes from the same
// commit, however many commits happen meanwhile.
type Snapshot struct {
	// Dir holds the snapshot's tables; pass it wherever a run directory is
	// read (Scan, ReadAll, duck.Open). Never write to it.
	Dir string
	// Generation is the generation's number; 0 for a run from before
	// generations (read in place, without the guarantee).
	Generation int
	lock       *os.File
}

// Pin opens the run's current generation for reading.
func Pin(dir string) (*Snapshot, error) {
	var lastErr error
	for attempt := 0; attempt <= 10; attempt++ {
		n, err := readCurrent(dir)
		if err != nil {
			return nil, err
		}
		if n == 0 {
			return &Snapshot{Dir: dir}, nil
		}
		if err := checkGenerationDir(dir, n); err != nil {
			// Collected between reading current and looking at it: current
			// has moved on (two commits since); read it again. A current
			// that still names it is damaged.
			if again, _ := readCurrent(dir); again != n {
				lastErr = err
				continue
			}
			return nil, err
		}
		path := filepath.Join(dir, genDir, genName(n))
		f, err := os.Open(path)
		if err == nil {
			// A shared lock on the directory itself: collection takes an
			// exclusive one and skips generations it cannot get.
			err = syscall.Flock(int(f.Fd()), syscall.LOCK_SH)
			if err == nil && stillThere(f, path) {
				return &Snapshot{Dir: path, Generation: n, lock: f}, nil
			}
			f.Close()
		}
		lastErr = err
	}
	return nil, fmt.Errorf("pinning %s: the current generation keeps disappearing (%v): %w; %s", dir, lastErr, ErrBadRun, repairHint(dir))
}

// stillThere reports whether the open directory f is still at path.
func stillThere(f *os.File, path string) bool {
	a, err1 := f.Stat()
	b, err2 := os.Stat(path)
	return err1 == nil && err2 == nil && os.SameFile(a, b)
}

// CurrentGeneration is the generation the run's current commit names, 0
// for a run from before generations. A long-lived reader (datg view)
// compares it with its snapshot's Generation to tell a newer commit.
func CurrentGeneration(dir string) (int, error) { return readCurrent(dir) }

// Close releases the snapshot.
func (s *Snapshot) Close() error {
	if s == nil || s.lock == nil {
		return nil
	}
	err := s.lock.Close()
	s.lock = nil
	return err
}
