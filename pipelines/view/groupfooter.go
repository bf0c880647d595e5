package view

import (
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"os"
	"slices"

	"github.com/parquet-go/parquet-go"
	"github.com/parquet-go/parquet-go/encoding/thrift"
	"github.com/parquet-go/parquet-go/format"
)

// A row group read by the trace page is opened from a footer of its own:
// the file's footer as if the file held only that group, appended to the
// file's bytes (oneGroupFile). Its column chunks keep their offsets in the
// file, so its pages, and their offset index, are read where they are. A
// generation keeps these footers, a few hundred bytes a group, rather
// than parquet-go's decoded footer of the whole file (about 20 KB a group).

// groupFooter is the thrift-encoded footer of a file holding only rg, of
// md's schema, with only the columns keep lists (nil: all): every column
// chunk without its statistics (the key's range is kept apart, in
// keyBounds, and reading a page needs none) or its metadata's key-value
// pairs, and no bloom filter.
func groupFooter(md *format.FileMetaData, rg format.RowGroup, keep []int) ([]byte, error) {
	if keep == nil {
		keep = make([]int, len(rg.Columns))
		for i := range keep {
			keep[i] = i
		}
	}
	reduced := len(keep) < len(md.Schema)-1 // of a flat schema (footerColumns)
	if reduced && len(rg.Columns) != len(md.Schema)-1 {
		return nil, fmt.Errorf("a row group of %d columns in a flat schema of %d", len(rg.Columns), len(md.Schema)-1)
	}
	columns := make([]format.ColumnChunk, len(keep))
	for i, k := range keep {
		c := rg.Columns[k]
		c.MetaData.Statistics = format.Statistics{}
		c.MetaData.SizeStatistics = format.SizeStatistics{}
		c.MetaData.GeospatialStatistics = format.GeospatialStatistics{}
		c.MetaData.KeyValueMetadata = nil
		c.MetaData.BloomFilterOffset, c.MetaData.BloomFilterLength = 0, 0
		columns[i] = c
	}
	rg.Columns = columns
	rg.Ordinal = 0 // the one group's position in its footer (parquet-go checks it)
	one := format.FileMetaData{
		Version:   md.Version,
		Schema:    md.Schema,
		NumRows:   rg.NumRows,
		RowGroups: []format.RowGroup{rg},
		CreatedBy: md.CreatedBy,
	}
	if reduced {
		// The root, then the kept leaves.
		root := md.Schema[0]
		root.NumChildren = thrift.New(int32(len(keep)))
		one.Schema = []format.SchemaElement{root}
		for _, k := range keep {
			one.Schema = append(one.Schema, md.Schema[1+k])
		}
	}
	if len(md.ColumnOrders) == len(md.Schema)-1 {
		for _, k := range keep {
			one.ColumnOrders = append(one.ColumnOrders, md.ColumnOrders[k])
		}
	}
	return thrift.Marshal(new(thrift.CompactProtocol), &one)
}

// footerColumns are the indexes of md's columns named in names, in file
// order, when md's schema is flat (a root and its leaves, as datg writes
// every table the trace page reads): a column that is not read need not
// be in a row group's footer. nil (every column) for a schema with groups.
func footerColumns(md *format.FileMetaData, names []string) []int {
	if len(md.Schema) == 0 || int(md.Schema[0].NumChildren.V) != len(md.Schema)-1 {
		return nil
	}
	var keep []int
	for i, e := range md.Schema[1:] {
		if e.NumChildren.V != 0 {
			return nil
		}
		if slices.Contains(names, e.Name) {
			keep = append(keep, i)
		}
	}
	return keep
}

// projectionColumns are the columns P reads (its parquet tags).
func projectionColumns[P any]() []string {
	var names []string
	for _, f := range parquet.SchemaOf(new(P)).Fields() {
		names = append(names, f.Name())
	}
	return names
}

// rowGroup opens row group i of f from its own footer.
func (f *groupFile) rowGroup(i int) (parquet.RowGroup, error) {
	r := newOneGroupFile(f.file, f.size, f.footers[i])
	pf, err := parquet.OpenFile(r, r.size, parquet.SkipPageIndex(true), parquet.SkipBloomFilters(true))
	if err != nil {
		return nil, err
	}
	groups := pf.RowGroups()
	if len(groups) != 1 {
		return nil, fmt.Errorf("the footer of row group %d opened with %d groups", i, len(groups))
	}
	return groups[0], nil
}

// oneGroupFile is a Parquet file's bytes followed by another footer:
// footer, its length and the magic "PAR1", past the file's end.
type oneGroupFile struct {
	file *os.File
	end  int64  // the file's size: where tail begins
	tail []byte // footer, length, magic
	size int64
}

func newOneGroupFile(f *os.File, size int64, footer []byte) *oneGroupFile {
	tail := make([]byte, 0, len(footer)+8)
	tail = append(tail, footer...)
	tail = binary.LittleEndian.AppendUint32(tail, uint32(len(footer)))
	tail = append(tail, "PAR1"...)
	return &oneGroupFile{file: f, end: size, tail: tail, size: size + int64(len(tail))}
}

func (o *oneGroupFile) ReadAt(p []byte, off int64) (int, error) {
	if off < 0 {
		return 0, errors.New("negative offset")
	}
	n := 0
	if off < o.end {
		k := int(min(int64(len(p)), o.end-off))
		m, err := o.file.ReadAt(p[:k], off)
		n += m
		if err != nil {
			return n, err
		}
		p, off = p[k:], off+int64(k)
	}
	if len(p) == 0 {
		return n, nil
	}
	if off >= o.size {
		return n, io.EOF
	}
	m := copy(p, o.tail[off-o.end:])
	n += m
	if m < len(p) {
		return n, io.EOF
	}
	return n, nil
}
