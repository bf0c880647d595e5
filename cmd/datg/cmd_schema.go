package main

import (
	"context"
	"fmt"

	"github.com/datg/datg/schema"
)

var cmdSchema = &Command{
	UsageLine: "schema",
	Short:     "print the reference of every table (Markdown)",
	Long:      `Schema prints every table's columns, types and meaning, as declared in schema/.`,
}

func init() {
	cmdSchema.Run = func(ctx context.Context, cmd *Command, args []string) error {
		if err := noArgs(cmd, args); err != nil {
			return err
		}
		_, err := fmt.Fprint(stdout, schema.Markdown())
		return err
	}
}
