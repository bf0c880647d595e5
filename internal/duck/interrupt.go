package duck

import (
	"context"
	"database/sql/driver"
	"fmt"
	"reflect"
	"sync"
	"time"
	"unsafe"

	"github.com/duckdb/duckdb-go/v2"
	"github.com/duckdb/duckdb-go/v2/mapping"
)

// The driver (duckdb-go v2.5.6, as go-duckdb v2.4.3 before it)
// interrupts a statement run through database/sql when its context ends,
// but not the last statement of an Arrow query
// (Arrow.QueryContext runs it with duckdb_execute_prepared_arrow, which
// blocks until the query is done): datg sql would run on for as long as
// the query takes after Ctrl-C, SIGTERM or its --timeout. datg interrupts
// that connection itself (duckdb_interrupt), which needs the C connection
// go-duckdb keeps in an unexported field.

// interruptFunc interrupts the query running on one connection.
type interruptFunc func()

// interrupter returns the function that interrupts the query running on
// dc, a go-duckdb connection. It fails, rather than guess, when the driver's
// connection no longer has the layout it reads (after an upgrade of
// go-duckdb: the tests of this package then fail too).
func interrupter(dc driver.Conn) (interruptFunc, error) {
	conn, err := rawConnection(dc)
	if err != nil {
		return nil, fmt.Errorf("interrupting DuckDB: %w", err)
	}
	return func() { mapping.Interrupt(conn) }, nil
}

// rawConnection is the C connection of dc, a go-duckdb connection, read
// from its unexported field; an error, rather than a guess, when the
// field is gone or the connection closed.
func rawConnection(dc driver.Conn) (mapping.Connection, error) {
	c, ok := dc.(*duckdb.Conn)
	if !ok {
		return mapping.Connection{}, fmt.Errorf("a %T is not a *duckdb.Conn", dc)
	}
	field := reflect.ValueOf(c).Elem().FieldByName("conn")
	if !field.IsValid() || field.Type() != reflect.TypeFor[mapping.Connection]() {
		return mapping.Connection{}, fmt.Errorf("duckdb.Conn has no conn field of type mapping.Connection (go-duckdb changed)")
	}
	conn := *(*mapping.Connection)(unsafe.Pointer(field.UnsafeAddr()))
	if conn.Ptr == nil {
		return mapping.Connection{}, fmt.Errorf("the connection is closed")
	}
	return conn, nil
}

// interruptEvery is how often an ended context interrupts again: DuckDB
// clears the interrupt when a statement starts, so one sent between two
// statements of a query would be lost.
const interruptEvery = 20 * time.Millisecond

// interruptOnDone interrupts the connection's query once ctx ends, and
// again every interruptEvery until stop is called. stop returns once no
// interrupt can come any more, so the next query on the connection is
// never interrupted by this one's context.
func interruptOnDone(ctx context.Context, interrupt interruptFunc) (stop func()) {
	done := make(chan struct{})
	var wg sync.WaitGroup
	wg.Add(1)
	go func() {
		defer wg.Done()
		select {
		case <-done:
			return
		case <-ctx.Done():
		}
		tick := time.NewTicker(interruptEvery)
		defer tick.Stop()
		for {
			interrupt()
			select {
			case <-done:
				return
			case <-tick.C:
			}
		}
	}()
	return func() {
		close(done)
		wg.Wait()
	}
}
