package tables

import (
	"bytes"
	"encoding/binary"
	"fmt"
	"hash/crc32"
	"image"
	"image/png"
	"math"
)

// figureDPI is the resolution of the figure's PNG, a print journal's
// minimum for line art with text.
const figureDPI = 300

// pngAtDPI encodes img as a PNG that records its resolution (a pHYs chunk,
// in pixels per metre), so a viewer or LaTeX sizes it at dpi and not at
// its default 72 or 96. Go's encoder writes no pHYs.
func pngAtDPI(img image.Image, dpi float64) ([]byte, error) {
	var enc bytes.Buffer
	if err := png.Encode(&enc, img); err != nil {
		return nil, err
	}
	// The signature (8 bytes) and IHDR (4 length, 4 type, 13 data, 4 CRC)
	// come first; pHYs goes anywhere before the image data.
	const afterIHDR = 8 + 4 + 4 + 13 + 4
	b := enc.Bytes()
	if len(b) < afterIHDR || string(b[12:16]) != "IHDR" {
		return nil, fmt.Errorf("png: no IHDR chunk first")
	}
	perMetre := uint32(math.Round(dpi / 0.0254))
	data := make([]byte, 9)
	binary.BigEndian.PutUint32(data[0:], perMetre)
	binary.BigEndian.PutUint32(data[4:], perMetre)
	data[8] = 1 // the unit is the metre
	var out bytes.Buffer
	out.Write(b[:afterIHDR])
	writePNGChunk(&out, "pHYs", data)
	out.Write(b[afterIHDR:])
	return out.Bytes(), nil
}

// writePNGChunk writes one chunk: length, type, data and the CRC of type
// and data.
func writePNGChunk(w *bytes.Buffer, kind string, data []byte) {
	var n [4]byte
	binary.BigEndian.PutUint32(n[:], uint32(len(data)))
	w.Write(n[:])
	crc := crc32.NewIEEE()
	crc.Write([]byte(kind))
	crc.Write(data)
	w.WriteString(kind)
	w.Write(data)
	binary.BigEndian.PutUint32(n[:], crc.Sum32())
	w.Write(n[:])
}
