package main

import (
	"context"
	"fmt"

	"github.com/datg/datg/internal/store"
)

var cmdVersion = &Command{
	UsageLine: "version",
	Short:     "print datg's version",
	Long:      `Version prints the version recorded in every table datg writes.`,
}

func init() {
	cmdVersion.Run = func(ctx context.Context, cmd *Command, args []string) error {
		_, err := fmt.Fprintf(stdout, "datg %s\n", store.Version)
		return err
	}
}
