package journal

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strconv"
	"strings"
)

// A complete line of a segment that is not a record (a torn write leaves
// no newline, so this is damage: a disk fault, an edit by hand) fails the
// journal with an error that names every damaged line and says how to
// recover. datg does not guess at a damaged record nor drop it itself: the
// line is the user's to remove, which costs its one call, sent again.

// maxNamedLines bounds how many damaged lines one error names.
const maxNamedLines = 10

// corruptLines collects the damaged lines found while opening.
type corruptLines struct {
	count int
	files []string         // in the order found
	lines map[string][]int // file -> its damaged lines named, in order
}

func (c *corruptLines) add(file string, line int) {
	c.count++
	if c.count > maxNamedLines {
		return
	}
	if c.lines == nil {
		c.lines = map[string][]int{}
	}
	if _, seen := c.lines[file]; !seen {
		c.files = append(c.files, file)
	}
	c.lines[file] = append(c.lines[file], line)
}

// err is nil when no line was damaged, else an ErrCorrupt naming the
// first damaged line, the others (up to maxNamedLines), and the command
// that removes them.
func (c *corruptLines) err() error {
	if c.count == 0 {
		return nil
	}
	first := c.files[0]
	where := fmt.Sprintf("%s:%d", first, c.lines[first][0])
	var more []string
	for _, f := range c.files {
		for i, l := range c.lines[f] {
			if f != first || i > 0 {
				more = append(more, fmt.Sprintf("%s:%d", filepath.Base(f), l))
			}
		}
	}
	if n := c.count - 1; n > 0 {
		extra := strings.Join(more, ", ")
		if n > len(more) {
			extra += ", ..."
		}
		where += fmt.Sprintf(" (and %d more: %s)", n, extra)
	}
	var cmds []string
	for _, f := range c.files {
		cmds = append(cmds, deleteLines(f, c.lines[f]))
	}
	hint := "delete the damaged line(s) (" + strings.Join(cmds, "; ") + ")"
	if c.count > maxNamedLines {
		hint = "delete the damaged lines, first " + strings.Join(cmds, "; ") + ", then run again to have the rest named"
	}
	return fmt.Errorf("%s: %w: a line of the journal of finished LLM calls is not a record; %s: the calls they held are sent again on the next run, every other record is kept", where, ErrCorrupt, hint)
}

// corruptAt is ErrCorrupt for the record at byte off of f, which read back
// damaged, naming its line.
func corruptAt(f *os.File, off int64, why string) error {
	line := lineAt(f, off)
	return fmt.Errorf("%s:%d: %w (%s); delete that line (%s): the call it held is sent again on the next run, every other record is kept",
		f.Name(), line, ErrCorrupt, why, deleteLines(f.Name(), []int{line}))
}

// lineAt is the 1-based line of f that starts at byte off (0 if f cannot
// be read that far): read only when a record is damaged.
func lineAt(f *os.File, off int64) int {
	line := 1
	buf := make([]byte, 1<<20)
	for at := int64(0); at < off; {
		n, err := f.ReadAt(buf[:min(int64(len(buf)), off-at)], at)
		line += bytes.Count(buf[:n], []byte{'\n'})
		at += int64(n)
		if err != nil && !(errors.Is(err, io.EOF) && at >= off) {
			return 0
		}
	}
	return line
}

// deleteLines is the shell command that deletes the given lines of file.
func deleteLines(file string, lines []int) string {
	var script []string
	for _, l := range lines {
		script = append(script, strconv.Itoa(l)+"d")
	}
	return "sed -i '" + strings.Join(script, ";") + "' " + shellQuote(file)
}

// shellQuote quotes s for a POSIX shell when it needs it.
func shellQuote(s string) string {
	if s != "" && strings.Trim(s, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789-_./+:@") == "" {
		return s
	}
	return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'"
}
