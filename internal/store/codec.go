package store

import (
	"sync"

	"github.com/klauspost/compress/zstd"
	"github.com/parquet-go/parquet-go"
	"github.com/parquet-go/parquet-go/format"
)

// zstdWindow is the window of the zstd encoder that compresses the pages
// the writers write: the farthest back a match may reach. parquet-go's
// codec leaves klauspost's default of 8 MiB, for which every encoder
// holds a history of 16 MiB; the encoders are pooled (sync.Pool), so a
// writer held two to four of them (32-64 MiB of live heap, doubled in
// resident memory by the collector's headroom) and made a new one after
// each collection emptied the pool. A page is about 256 KiB
// (parquet-go's page buffer) and the long texts of traces rarely pass
// 1 MiB, so matches farther than that were almost never there to find.
const zstdWindow = 1 << 20

// pageCodec compresses the writers' pages with zstd at parquet-go's
// default level, through encoders of a zstdWindow window. Files it wrote
// are read with parquet-go's own codec (any window).
type pageCodec struct{ encoders sync.Pool }

var writerCodec = &pageCodec{}

func (c *pageCodec) String() string { return "ZSTD" }

func (c *pageCodec) CompressionCodec() format.CompressionCodec { return format.Zstd }

// Encode compresses src into dst (reallocated when too small), with the
// options of parquet-go's zstd codec but the window.
func (c *pageCodec) Encode(dst, src []byte) ([]byte, error) {
	e, _ := c.encoders.Get().(*zstd.Encoder)
	if e == nil {
		var err error
		e, err = zstd.NewWriter(nil,
			zstd.WithEncoderConcurrency(1),
			zstd.WithEncoderLevel(zstd.SpeedDefault),
			zstd.WithZeroFrames(true),
			zstd.WithEncoderCRC(false),
			zstd.WithWindowSize(zstdWindow),
		)
		if err != nil {
			return nil, err
		}
	}
	defer c.encoders.Put(e)
	return e.EncodeAll(src, dst[:0]), nil
}

// Decode is parquet-go's.
func (c *pageCodec) Decode(dst, src []byte) ([]byte, error) { return parquet.Zstd.Decode(dst, src) }
