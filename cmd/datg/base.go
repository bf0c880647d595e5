package main

import (
	"github.com/datg/datg/internal/store"

	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"slices"
	"strconv"
	"strings"
)

// Command is one datg subcommand, after the go command's base.Command.
type Command struct {
	UsageLine string // "ingest polymath --src DIR ..."; the first word is the name
	Short     string // one line for the command list
	Long      string // the help text
	Flag      flag.FlagSet
	Run       func(ctx context.Context, cmd *Command, args []string) error

	// CustomFlags: the command parses its own flags (after a source or
	// action word: datg import traces --from ...), so run leaves them.
	CustomFlags bool
	// FieldFlags names the flag that sets a Config field where it is not
	// the field's name in kebab case (MaxTokens: --max-tokens).
	FieldFlags map[string]string
}

// Name is the command's name.
func (c *Command) Name() string {
	name, _, _ := strings.Cut(c.UsageLine, " ")
	return name
}

// Usage prints the command's help.
func (c *Command) Usage(w io.Writer) {
	fmt.Fprintf(w, "usage: datg %s\n\n%s\n", c.UsageLine, strings.TrimSpace(c.Long))
	fmt.Fprintln(w, "\nflags:")
	c.Flag.SetOutput(w)
	c.Flag.PrintDefaults()
}

// The process's standard streams; commands write only through these.
var (
	stdin  io.Reader = os.Stdin
	stdout io.Writer = os.Stdout
	stderr io.Writer = os.Stderr
)

// dataFlag adds --data DIR (default $DATG_DATA or data/run) to a command.
func dataFlag(fs *flag.FlagSet) *string {
	def := os.Getenv("DATG_DATA")
	if def == "" {
		def = store.DefaultDir
	}
	return fs.String("data", def, "the run's directory (also $DATG_DATA)")
}

// listFlag is a comma-separated list flag.
type listFlag []string

func (l *listFlag) String() string { return strings.Join(*l, ",") }

func (l *listFlag) Set(s string) error {
	*l = nil
	for _, part := range strings.Split(s, ",") {
		if p := strings.TrimSpace(part); p != "" {
			*l = append(*l, p)
		}
	}
	if len(*l) == 0 {
		return fmt.Errorf("empty list")
	}
	return nil
}

// intListFlag is a comma-separated list of integers.
type intListFlag []int64

func (l *intListFlag) String() string {
	parts := make([]string, len(*l))
	for i, v := range *l {
		parts[i] = strconv.FormatInt(v, 10)
	}
	return strings.Join(parts, ",")
}

func (l *intListFlag) Set(s string) error {
	var ls listFlag
	if err := ls.Set(s); err != nil {
		return err
	}
	*l = nil
	for _, p := range ls {
		v, err := strconv.ParseInt(p, 10, 64)
		if err != nil {
			return fmt.Errorf("%q is not an integer", p)
		}
		*l = append(*l, v)
	}
	return nil
}

// apiKeyFlag adds --api-key-env NAME and returns a function reading the key.
// The key itself is never a flag, so it never appears in a process list or
// shell history.
func apiKeyFlag(fs *flag.FlagSet) func() string {
	name := fs.String("api-key-env", "OPENAI_API_KEY", "environment variable holding the API key")
	return func() string { return os.Getenv(*name) }
}

// flagWasSet reports whether the user gave the flag.
func flagWasSet(fs *flag.FlagSet, name string) bool {
	set := false
	fs.Visit(func(f *flag.Flag) {
		if f.Name == name {
			set = true
		}
	})
	return set
}

// noArgs refuses positional arguments a command does not take.
func noArgs(cmd *Command, args []string) error {
	if len(args) > 0 {
		return usageError{cmd, fmt.Sprintf("unexpected argument %q (flags go before arguments)", args[0])}
	}
	return nil
}

// usageError is a command-line mistake: the message and the command's usage.
type usageError struct {
	cmd *Command
	msg string
}

func (e usageError) Error() string { return e.msg }

// actionThenFlags reads the line of a CustomFlags command: an action word
// (one of actions: datg import traces, datg annotations sample), then
// flags, then nothing. hint is the usage said when the word is missing or
// unknown.
func actionThenFlags(cmd *Command, args []string, actions []string, hint string) (string, error) {
	if len(args) > 0 && slices.Contains([]string{"-h", "-help", "--help"}, args[0]) {
		return "", flag.ErrHelp // datg import --help: the help, as every command gives it
	}
	if len(args) == 0 || !slices.Contains(actions, args[0]) {
		return "", usageError{cmd, hint}
	}
	if err := parseFlags(cmd, args[1:]); err != nil {
		return "", err
	}
	return args[0], noArgs(cmd, cmd.Flag.Args())
}

// needRun is the error of a command that reads the run, before it starts:
// its configuration's (cfg.Validate, a usage error), else that dir is not
// a run (store.CheckRun). A mistyped --data, or the default data/run from
// another working directory, would otherwise read as a run of empty tables.
func needRun(cfg interface{ Validate() error }, dir string) error {
	if cfg != nil {
		if err := cfg.Validate(); err != nil {
			return err
		}
	}
	err := store.CheckRun(dir)
	if errors.Is(err, store.ErrNoRun) {
		return fmt.Errorf("%w (--data or $DATG_DATA; datg ingest creates one)", err)
	}
	return err
}

// flagAfterArg is the usage error for a command line with a flag after
// its positional argument args[0] (what: "query", "trace id"), or nil.
// Package flag stops at the first argument, so such a flag would be read
// as another argument; the error names it and shows the line in order.
func flagAfterArg(cmd *Command, what string, args []string) error {
	for _, a := range args[min(1, len(args)):] {
		if len(a) > 1 && a[0] == '-' {
			name, _, _ := strings.Cut(a, "=")
			return usageError{cmd, fmt.Sprintf("%s comes after the %s; flags go before it: datg %s %s %s",
				shellWords([]string{name}), what, cmd.Name(), shellWords(args[1:]), shellWords(args[:1]))}
		}
	}
	return nil
}
