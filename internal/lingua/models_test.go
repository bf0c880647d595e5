package lingua

import (
	"archive/zip"
	"bytes"
	"errors"
	"strings"
	"testing"
	"testing/fstest"

	"github.com/pemistahl/lingua-go/serialization"
	"google.golang.org/protobuf/proto"
)

// zipped is a model file holding ngrams at probability p.
func zipped(t *testing.T, p float64, ngrams ...string) []byte {
	t.Helper()
	data, err := proto.Marshal(&serialization.SerializableLanguageModel{
		NgramSets: []*serialization.SerializableNgramSet{{Probability: p, Ngrams: ngrams}},
	})
	if err != nil {
		t.Fatal(err)
	}
	var b bytes.Buffer
	w := zip.NewWriter(&b)
	f, err := w.Create("model.pb.bin")
	if err != nil {
		t.Fatal(err)
	}
	f.Write(data)
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	return b.Bytes()
}

// TestBadModelIsAnError checks that a model that cannot be read, or holds an
// n-gram of the wrong length, is ErrModel naming the file, and a good one
// is read.
func TestBadModelIsAnError(t *testing.T) {
	const path = "models/sw/trigrams.pb.bin.zip"
	for name, data := range map[string][]byte{
		"not a zip": []byte("garbage"),
		"not protobuf": func() []byte {
			var b bytes.Buffer
			w := zip.NewWriter(&b)
			f, _ := w.Create("m")
			f.Write([]byte{0xff, 0xff, 0xff})
			w.Close()
			return b.Bytes()
		}(),
		"bigram":    zipped(t, 0.5, "ab"),
		"fourgram":  zipped(t, 0.5, "abcd"),
		"rune zero": zipped(t, 0.5, "a\x00b"),
	} {
		_, err := loadModels(fstest.MapFS{path: {Data: data}})
		if !errors.Is(err, ErrModel) || !strings.Contains(err.Error(), path) {
			t.Errorf("%s: %v, want ErrModel naming %s", name, err, path)
		}
	}
	table, err := loadModels(fstest.MapFS{path: {Data: zipped(t, 0.25, "abc", "xyz")}})
	if err != nil {
		t.Fatal(err)
	}
	if e := table.lookUp(pack('a', 'b', 'c')); e.languages != 1<<swahili || table.logOf(e, swahili) != -1.3862943611198906 {
		t.Errorf("abc: %+v", e)
	}
	if e := table.lookUp(pack('a', 'b', 0)); e.languages != 0 {
		t.Errorf("ab: %+v, want no language", e)
	}
}
