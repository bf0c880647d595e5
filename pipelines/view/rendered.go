package view

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"net/http"
	"strconv"
	"strings"
	"sync"

	"github.com/klauspost/compress/gzip"
)

// A page that does not change within a generation (the paper tables,
// once computed: 3.2 MB of HTML on the demo, 0.1-0.7 s to render) is
// rendered once, gzipped once, and served with an ETag: a browser that
// has it asks again with If-None-Match and gets a 304.

// renderedPage is a page's bytes as served.
type renderedPage struct {
	body []byte // the HTML
	gz   []byte // body gzipped
	etag string // a weak validator: the same page gzipped or not is the same page
}

// renderedPages keeps a page's renderings, one per frame (pageInfo): the
// frame differs only on the first request after a commit, which says the
// run moved on (Moved), so a generation holds at most two.
type renderedPages struct {
	mu     sync.Mutex
	byInfo map[pageInfo]*renderedPage
}

// prerendered is a page's data that keeps its renderings (nil: it does
// not): the server renders it once per frame.
type prerendered interface {
	renderings() *renderedPages
}

// get is the page rendered in the frame info, rendering it the first
// time (under the lock: concurrent first requests render it once).
func (rs *renderedPages) get(name string, info *pageInfo, data any) (*renderedPage, error) {
	rs.mu.Lock()
	defer rs.mu.Unlock()
	if p, ok := rs.byInfo[*info]; ok {
		return p, nil
	}
	body, err := render(name, info, data)
	if err != nil {
		return nil, err
	}
	p, err := newRenderedPage([]byte(body))
	if err != nil {
		return nil, err
	}
	if rs.byInfo == nil {
		rs.byInfo = map[pageInfo]*renderedPage{}
	}
	rs.byInfo[*info] = p
	return p, nil
}

func newRenderedPage(body []byte) (*renderedPage, error) {
	var gz bytes.Buffer
	zw, err := gzip.NewWriterLevel(&gz, gzip.DefaultCompression)
	if err != nil {
		return nil, err
	}
	if _, err := zw.Write(body); err != nil {
		return nil, err
	}
	if err := zw.Close(); err != nil {
		return nil, err
	}
	sum := sha256.Sum256(body)
	return &renderedPage{body: body, gz: gz.Bytes(), etag: `W/"` + hex.EncodeToString(sum[:16]) + `"`}, nil
}

// serve writes the page: a 304 when the request holds its ETag, else
// the page, gzipped when the request accepts gzip. The browser may keep
// it but asks again each time (no-cache), so a new generation's page is
// never taken for it: its ETag differs, as its bytes do.
func (p *renderedPage) serve(w http.ResponseWriter, req *http.Request) {
	h := w.Header()
	h.Set("Cache-Control", "no-cache")
	h.Set("ETag", p.etag)
	h.Add("Vary", "Accept-Encoding")
	if etagMatches(req.Header.Get("If-None-Match"), p.etag) {
		w.WriteHeader(http.StatusNotModified)
		return
	}
	body := p.body
	if acceptsGzip(req.Header.Get("Accept-Encoding")) {
		body = p.gz
		h.Set("Content-Encoding", "gzip")
	}
	h.Set("Content-Type", "text/html; charset=utf-8")
	h.Set("Content-Length", strconv.Itoa(len(body)))
	w.WriteHeader(http.StatusOK)
	if req.Method != http.MethodHead {
		w.Write(body)
	}
}

// etagMatches says whether an If-None-Match header holds etag, compared
// weakly (RFC 9110 13.1.2): "*", or one of its list with or without W/.
func etagMatches(header, etag string) bool {
	if header == "" {
		return false
	}
	opaque := strings.TrimPrefix(etag, "W/")
	for _, tag := range strings.Split(header, ",") {
		tag = strings.TrimSpace(tag)
		if tag == "*" || strings.TrimPrefix(tag, "W/") == opaque {
			return true
		}
	}
	return false
}

// acceptsGzip says whether an Accept-Encoding header accepts gzip (RFC
// 9110 12.5.3): gzip (or x-gzip) listed with a weight above 0, or, when
// it is not listed, "*" with one. klauspost/compress's gzhttp parses this
// too but does not export it, and its handler compresses every response
// anew, where this page is compressed once.
func acceptsGzip(header string) bool {
	gzipQ, starQ := -1.0, -1.0
	for _, part := range strings.Split(header, ",") {
		coding, params, _ := strings.Cut(part, ";")
		coding = strings.ToLower(strings.TrimSpace(coding))
		q := 1.0
		for _, p := range strings.Split(params, ";") {
			k, v, ok := strings.Cut(strings.TrimSpace(p), "=")
			if ok && strings.EqualFold(strings.TrimSpace(k), "q") {
				x, err := strconv.ParseFloat(strings.TrimSpace(v), 64)
				if err != nil || x < 0 || x > 1 {
					x = 0 // a weight it cannot read: not accepted
				}
				q = x
			}
		}
		switch coding {
		case "gzip", "x-gzip":
			gzipQ = max(gzipQ, q)
		case "*":
			starQ = max(starQ, q)
		}
	}
	if gzipQ >= 0 {
		return gzipQ > 0
	}
	return starQ > 0
}

// String is for test failures.
func (p *renderedPage) String() string {
	return fmt.Sprintf("%d bytes (%d gzipped) %s", len(p.body), len(p.gz), p.etag)
}
