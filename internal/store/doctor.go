package store

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"github.com/datg/datg/schema"
)

// Diagnosis is what Diagnose found in a run directory: where current
// points, each generation with its tables and what is wrong with them
// (every file hashed), the entries in a table's place that are not datg's,
// and staging directories of commits under way or killed.
type Diagnosis struct {
	Dir string
	// Current is the generation current names; 0 when it names none.
	Current int
	// CurrentErr says why current is unusable (nil when it is usable).
	CurrentErr  error
	Generations []GenerationState
	// Strays are entries of the run directory in a table's place that are
	// not datg's link to the committed table.
	Strays []string
	// Staging lists staging directories: live (a commit holds them) or
	// left by a killed commit.
	Staging []StagingState
	// Legacy is true for a run from before generations (tables in DIR).
	Legacy bool
}

// GenerationState is one generation, checked file by file.
type GenerationState struct {
	N         int
	Commit    string
	Stage     string
	CreatedAt string
	Tables    []string
	Manifest  bool // false for a generation made before manifests
	Pinned    bool // a reader holds it
	// Problems are the files that are not what was committed, and files
	// the manifest does not list.
	Problems []error
	// Changed lists the tables with a problem.
	Changed []string
}

// Intact reports whether every file of the generation is as committed.
func (g GenerationState) Intact() bool { return len(g.Problems) == 0 }

// StagingState is a staging directory.
type StagingState struct {
	Path string
	Live bool
}

// Healthy reports whether the run needs nothing done.
func (d *Diagnosis) Healthy() bool {
	if d.Legacy {
		return true
	}
	if d.CurrentErr != nil || len(d.Strays) > 0 {
		return false
	}
	if g := d.generation(d.Current); g == nil || !g.Intact() {
		return false
	}
	for _, s := range d.Staging {
		if !s.Live {
			return false
		}
	}
	return true
}

func (d *Diagnosis) generation(n int) *GenerationState {
	for i := range d.Generations {
		if d.Generations[i].N == n {
			return &d.Generations[i]
		}
	}
	return nil
}

// Diagnose checks a run directory from top to bottom, hashing every file
// of every generation. It changes nothing.
func Diagnose(dir string) (*Diagnosis, error) {
	if _, err := os.Stat(dir); err != nil {
		return nil, err
	}
	d := &Diagnosis{Dir: dir}
	n, err := readCurrent(dir)
	switch {
	case err != nil:
		d.CurrentErr = err
	case n == 0:
		d.Legacy = hasLegacyTables(dir)
		if !d.Legacy && len(generations(dir)) == 0 {
			return d, nil // an empty run
		}
	default:
		d.Current = n
		d.CurrentErr = checkGenerationDir(dir, n)
	}
	gens := filepath.Join(dir, genDir)
	if err := realDir(gens); err != nil && !errors.Is(err, fs.ErrNotExist) {
		d.CurrentErr = errors.Join(d.CurrentErr, err)
		return d, nil
	}
	for _, g := range generations(dir) {
		d.Generations = append(d.Generations, inspectGeneration(filepath.Join(gens, genName(g)), g))
	}
	entries, _ := os.ReadDir(gens)
	for _, e := range entries {
		if strings.HasPrefix(e.Name(), txPrefix) && e.IsDir() {
			path := filepath.Join(gens, e.Name())
			l, free := tryLockDir(path)
			if free {
				l.Close()
			}
			d.Staging = append(d.Staging, StagingState{Path: path, Live: !free})
		}
	}
	if d.Current > 0 && d.CurrentErr == nil {
		cur := filepath.Join(gens, genName(d.Current))
		for name := range tableNames() {
			t, _ := schema.Lookup(name)
			if err := checkNoStray(dir, cur, t); err != nil {
				d.Strays = append(d.Strays, err.Error())
			}
		}
		slices.Sort(d.Strays)
	}
	return d, nil
}

// inspectGeneration checks every file of a generation against its manifest.
func inspectGeneration(path string, n int) GenerationState {
	g := GenerationState{N: n}
	if l, free := tryLockDir(path); free {
		l.Close()
	} else {
		g.Pinned = true
	}
	m, err := ReadManifest(path)
	if err != nil {
		g.Problems = append(g.Problems, err)
		return g
	}
	if m == nil {
		m, err = describeGeneration(path)
		if err != nil {
			g.Problems = append(g.Problems, err)
			return g
		}
	} else {
		g.Manifest = true
		g.Commit, g.Stage, g.CreatedAt = m.Commit, m.Stage, m.CreatedAt
	}
	g.Tables = m.tables()
	slices.Sort(g.Tables)
	listed := map[string]bool{}
	for _, f := range m.Files {
		listed[f.Path] = true
		if err := f.verify(path, true); err != nil {
			g.Problems = append(g.Problems, err)
			if !slices.Contains(g.Changed, f.Table) {
				g.Changed = append(g.Changed, f.Table)
			}
		}
	}
	if g.Manifest {
		entries, _ := os.ReadDir(path)
		for _, e := range entries {
			if e.Name() == manifestName {
				continue
			}
			rels := []string{e.Name()}
			if e.IsDir() {
				rels = nil
				parts, _ := os.ReadDir(filepath.Join(path, e.Name()))
				for _, p := range parts {
					rels = append(rels, e.Name()+"/"+p.Name())
				}
			}
			for _, rel := range rels {
				if !listed[rel] {
					g.Problems = append(g.Problems, fmt.Errorf("%s: %w: the manifest does not list it", filepath.Join(path, filepath.FromSlash(rel)), ErrTableChanged))
				}
			}
		}
	}
	return g
}

// Write prints the diagnosis for a person.
func (d *Diagnosis) Write(w io.Writer) {
	fmt.Fprintf(w, "run %s\n", d.Dir)
	switch {
	case d.Legacy:
		fmt.Fprintln(w, "  a run from before generations: its tables are read in place, and its first commit moves them into gen/00000001")
		return
	case d.CurrentErr != nil:
		fmt.Fprintf(w, "  current: UNUSABLE: %v\n", d.CurrentErr)
	case d.Current == 0:
		fmt.Fprintln(w, "  no tables committed yet")
		return
	default:
		fmt.Fprintf(w, "  current -> %s\n", filepath.Join(genDir, genName(d.Current)))
	}
	for _, g := range d.Generations {
		state := "intact"
		if !g.Intact() {
			state = "CHANGED OUTSIDE DATG (" + strings.Join(g.Changed, ", ") + ")"
		}
		var notes []string
		if g.N == d.Current {
			notes = append(notes, "current")
		}
		if g.Pinned {
			notes = append(notes, "held by a reader")
		}
		if !g.Manifest {
			notes = append(notes, "no manifest (made before datg kept one)")
		}
		note := ""
		if len(notes) > 0 {
			note = " [" + strings.Join(notes, ", ") + "]"
		}
		fmt.Fprintf(w, "  %s%s: %s; commit %s by %s at %s; tables: %s\n", filepath.Join(genDir, genName(g.N)), note, state,
			orUnknown(g.Commit), orUnknown(g.Stage), orUnknown(g.CreatedAt), strings.Join(g.Tables, ", "))
		for _, p := range g.Problems {
			fmt.Fprintf(w, "    - %v\n", p)
		}
	}
	for _, s := range d.Strays {
		fmt.Fprintf(w, "  not datg's: %s\n", s)
	}
	for _, s := range d.Staging {
		if s.Live {
			fmt.Fprintf(w, "  %s: a commit under way\n", s.Path)
		} else {
			fmt.Fprintf(w, "  %s: left by a killed commit (the next commit removes it)\n", s.Path)
		}
	}
	if d.Healthy() {
		fmt.Fprintln(w, "  healthy")
	}
}

// Repair brings a damaged run back to a committed state without removing
// anything datg did not make:
//   - a current that is missing, not a link to gen/<N>, or names a
//     generation that is gone or changed is pointed at the newest
//     generation whose every file is intact;
//   - a table of the current generation whose file was changed outside
//     datg is restored from a generation holding an intact copy of the same
//     commit (a copy, on a file system without hard links), or else set
//     aside: the changed file is linked to DIR/recovered/ (kept, never
//     deleted) and a new generation is committed without the table, so the
//     stage that wrote it can run again (its LLM calls replay from the
//     journal at no cost);
//   - the notebook links are made again, and staging directories of killed
//     commits removed.
//
// Entries in a table's place that are not datg's are reported, never
// touched: the user moves them away.
func Repair(dir string) ([]string, error) {
	if err := checkWritableRun(dir); err != nil {
		return nil, err
	}
	unlock, err := lockCommits(dir)
	if err != nil {
		return nil, err
	}
	defer unlock()
	d, err := Diagnose(dir)
	if err != nil {
		return nil, err
	}
	if d.Legacy || (d.Current == 0 && d.CurrentErr == nil) {
		return nil, nil
	}
	var done []string
	for _, s := range d.Staging {
		if !s.Live {
			if l, ok := tryLockDir(s.Path); ok {
				os.RemoveAll(s.Path)
				l.Close()
				done = append(done, "removed "+s.Path+", left by a killed commit")
			}
		}
	}
	cur := d.generation(d.Current)
	if fi, err := os.Lstat(filepath.Join(dir, currentLink)); err == nil && fi.Mode()&fs.ModeSymlink == 0 {
		return done, fmt.Errorf("%s is %s, not datg's link: %w; move it away and repair again", filepath.Join(dir, currentLink), kind(fi), ErrBadRun)
	}
	if err := realDir(filepath.Join(dir, genDir)); err != nil {
		return done, err
	}
	if d.CurrentErr != nil || cur == nil {
		best := newestIntact(d)
		if best == nil {
			return done, fmt.Errorf("no generation of %s is intact: %w; restore the run from a backup", dir, ErrBadRun)
		}
		if err := replaceWithSymlink(filepath.Join(dir, currentLink), filepath.Join(genDir, genName(best.N))); err != nil {
			return done, err
		}
		done = append(done, fmt.Sprintf("pointed %s at %s, the newest generation whose files are all intact", filepath.Join(dir, currentLink), filepath.Join(genDir, genName(best.N))))
		d.Current, d.CurrentErr, cur = best.N, nil, best
	}
	if !cur.Intact() {
		more, err := restoreChanged(dir, d, cur)
		done = append(done, more...)
		if err != nil {
			return done, err
		}
	} else {
		linkForNotebooks(dir, filepath.Join(dir, genDir, genName(d.Current)))
	}
	return done, nil
}

// newestIntact is the newest generation whose every file is as committed.
func newestIntact(d *Diagnosis) *GenerationState {
	for i := len(d.Generations) - 1; i >= 0; i-- {
		if g := &d.Generations[i]; g.Intact() && len(g.Tables) > 0 {
			return g
		}
	}
	return nil
}

// restoreChanged commits a generation made of the current one's intact
// tables, its changed tables restored from intact copies where one exists,
// and without the others (their changed files set aside in DIR/recovered/).
// It runs under the commit lock.
func restoreChanged(dir string, d *Diagnosis, cur *GenerationState) ([]string, error) {
	gens := filepath.Join(dir, genDir)
	base := filepath.Join(gens, genName(cur.N))
	m, err := ReadManifest(base)
	if err != nil {
		return nil, err
	}
	if m == nil {
		if m, err = describeGeneration(base); err != nil {
			return nil, err
		}
	}
	staging, err := os.MkdirTemp(gens, txPrefix)
	if err != nil {
		return nil, err
	}
	defer os.RemoveAll(staging) // gone once renamed into a generation
	var done []string
	var written []ManifestFile
	drop := map[string]bool{}
	stamp := time.Now().UTC().Format("20060102T150405Z")
	for _, table := range cur.Changed {
		files := m.table(table)
		if copies := intactCopy(d, gens, files); copies != nil {
			for i, src := range copies {
				f, err := linkInto(staging, src, files[i])
				if err != nil {
					return done, err
				}
				written = append(written, f)
			}
			done = append(done, fmt.Sprintf("restored table %s from an intact copy of commit %s", table, orUnknown(files[0].Commit)))
			continue
		}
		drop[table] = true
		recovered := filepath.Join(dir, "recovered")
		if err := os.MkdirAll(recovered, 0o755); err != nil {
			return done, err
		}
		for _, f := range files {
			src := filepath.Join(base, filepath.FromSlash(f.Path))
			if fi, err := os.Lstat(src); err != nil || !fi.Mode().IsRegular() {
				continue
			}
			kept := filepath.Join(recovered, fmt.Sprintf("%s-%s-%s", genName(cur.N), stamp, strings.ReplaceAll(f.Path, "/", "-")))
			if err := linkOrCopy(src, kept); err != nil {
				return done, fmt.Errorf("keeping the changed %s at %s: %w", src, kept, err)
			}
			done = append(done, fmt.Sprintf("kept the changed file %s at %s", src, kept))
		}
		done = append(done, fmt.Sprintf("committed a generation without table %s: no generation holds an intact copy; run `datg %s` again to write it (an LLM stage replays its finished calls from the journal at no cost), or import it again",
			table, stageCommand(files[0].Stage)))
	}
	head := Manifest{Commit: "repair", Stage: "doctor", CreatedAt: now()}
	for _, f := range written {
		drop[f.Table] = true
	}
	carried, err := carryOver(base, staging, drop)
	if err != nil {
		return done, err
	}
	head.Files = append(written, carried...)
	if err := writeManifest(staging, &head); err != nil {
		return done, err
	}
	n, err := swapIn(dir, gens, staging)
	if err != nil {
		return done, err
	}
	linkForNotebooks(dir, filepath.Join(gens, genName(n)))
	return append(done, fmt.Sprintf("current -> %s", filepath.Join(genDir, genName(n)))), nil
}

// stageCommand names the datg command that writes tables of a stage (a
// stage is named as its command: verify, import traces).
func stageCommand(stage string) string {
	if stage == "" {
		return "<the stage that wrote it>"
	}
	return stage
}

// intactCopy finds, in another generation, intact files with the hashes
// of files (a copy rather than a hard link of the same changed file).
func intactCopy(d *Diagnosis, gens string, files []ManifestFile) []string {
	for i := len(d.Generations) - 1; i >= 0; i-- {
		g := d.Generations[i]
		path := filepath.Join(gens, genName(g.N))
		m, err := ReadManifest(path)
		if err != nil || m == nil {
			continue
		}
		var found []string
		for _, want := range files {
			for _, f := range m.Files {
				if f.SHA256 == want.SHA256 && f.Path == want.Path && f.verify(path, true) == nil {
					found = append(found, filepath.Join(path, filepath.FromSlash(f.Path)))
					break
				}
			}
		}
		if len(found) == len(files) {
			return found
		}
	}
	return nil
}

// ErrUnhealthy means datg doctor found a run that needs repair.
var ErrUnhealthy = errors.New("the run needs repair")

// Doctor is datg doctor: it writes the run's diagnosis to w and, with
// repair, repairs what it can and diagnoses again. It fails with
// ErrUnhealthy when the run is left needing something.
func Doctor(dir string, repair bool, w io.Writer) error {
	if repair {
		done, err := Repair(dir)
		for _, a := range done {
			fmt.Fprintf(w, "repaired: %s\n", a)
		}
		if err != nil {
			return err
		}
	}
	d, err := Diagnose(dir)
	if err != nil {
		return err
	}
	d.Write(w)
	if d.Healthy() {
		return nil
	}
	if repair {
		return fmt.Errorf("%s: %w: what is left is not datg's to change (see above)", dir, ErrUnhealthy)
	}
	return fmt.Errorf("%s: %w: run `datg doctor --repair --data %s`", dir, ErrUnhealthy, dir)
}
