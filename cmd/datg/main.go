// Command datg reproduces and extends the DATG study of multilingual
// reasoning traces: it samples traces from vLLM servers, grades them, and
// computes the paper's tables with DuckDB SQL over Parquet tables.
//
// Each subcommand is a Command value listed in commands; its logic lives in
// a package under pipelines/ (or internal/) and is called from here.
package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"os/signal"
	"syscall"

	"github.com/datg/datg/internal/inputerr"
	"github.com/datg/datg/internal/termtext"
)

// commands lists every subcommand, in the order of a study.
var commands = []*Command{
	cmdIngest,
	cmdSimulate,
	cmdGenerate,
	cmdImport,
	cmdVerify,
	cmdLangcheck,
	cmdReferences,
	cmdDAGs,
	cmdAlign,
	cmdScore,
	cmdAnnotations,
	cmdControl,
	cmdPrompts,
	cmdLoop,
	cmdAnswers,
	cmdTables,
	cmdExplain,
	cmdView,
	cmdSQL,
	cmdDoctor,
	cmdSchema,
	cmdVersion,
}

// internalCommands are run by datg itself, not by hand: neither datg help
// nor the README lists them.
var internalCommands = []*Command{
	cmdViewTables,
}

func main() {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	code := run(ctx, os.Args[1:])
	stop()
	os.Exit(code)
}

// run executes one command line and returns the exit status.
func run(ctx context.Context, args []string) int {
	if len(args) == 0 || args[0] == "help" || args[0] == "-h" || args[0] == "--help" {
		if len(args) > 1 {
			cmd := lookup(args[1])
			if cmd == nil {
				fmt.Fprintf(stderr, "datg: help: unknown command %q; run 'datg help' for the list\n", args[1])
				return 2
			}
			cmd.Usage(stdout)
			return 0
		}
		usage()
		if len(args) == 0 {
			return 2
		}
		return 0
	}
	name := args[0]
	if name == "--version" || name == "-version" {
		name = cmdVersion.Name()
	}
	cmd := lookup(name)
	if cmd == nil {
		fmt.Fprintf(stderr, "datg: unknown command %q; run 'datg help'\n", args[0])
		return 2
	}
	// Flag errors are reported by run, in one line, not by package flag.
	cmd.Flag.Usage = func() {}
	cmd.Flag.SetOutput(io.Discard)
	rest := args[1:]
	var err error
	if !cmd.CustomFlags {
		if err = parseFlags(cmd, rest); err == nil {
			rest = cmd.Flag.Args()
		}
	}
	if err == nil {
		err = cmd.Run(ctx, cmd, rest)
	}
	var ue usageError
	switch {
	case err == nil:
		return 0
	case errors.Is(err, flag.ErrHelp):
		cmd.Usage(stdout)
		return 0
	case errors.As(err, &ue):
		fmt.Fprintf(stderr, "datg: %s: %s (usage: datg %s)\n", cmd.Name(), termtext.OneLine(ue.Error()), cmd.UsageLine)
		return 2
	case errors.Is(err, inputerr.ErrInvalidConfig):
		fmt.Fprintf(stderr, "datg: %s: %s\n", cmd.Name(), cmd.describe(err))
		return 2
	}
	fmt.Fprintf(stderr, "datg: %s: %s\n", cmd.Name(), cmd.describe(err))
	return 1
}

// parseFlags parses a command's flags; a bad flag is a usage error.
func parseFlags(cmd *Command, args []string) error {
	if err := cmd.Flag.Parse(args); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			return err
		}
		return usageError{cmd, err.Error()}
	}
	return nil
}

func lookup(name string) *Command {
	for _, list := range [][]*Command{commands, internalCommands} {
		for _, c := range list {
			if c.Name() == name {
				return c
			}
		}
	}
	return nil
}

func usage() {
	fmt.Fprintf(stdout, "datg: multilingual reasoning traces, graded and diagnosed.\n\nusage: datg <command> [flags] [arguments]\n\ncommands:\n")
	for _, c := range commands {
		fmt.Fprintf(stdout, "  %-10s %s\n", c.Name(), c.Short)
	}
	fmt.Fprintf(stdout, "\nEvery command takes --data DIR (default data/run, or $DATG_DATA).\nRun 'datg help <command>' for a command's flags, 'datg --version' for the version.\n")
}
