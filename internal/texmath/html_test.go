package texmath

import (
	"encoding/xml"
	"io"
	"strings"
	"testing"
)

func TestHTML(t *testing.T) {
	for _, c := range []struct{ in, want string }{
		{`<b>x</b> & "q" 'a'`, `&lt;b&gt;x&lt;/b&gt; &amp; &#34;q&#34; &#39;a&#39;`},
		{`$a<b$`, `<span class="math math-inline">a&lt;b</span>`},
		{`$$</span><script>alert(1)</script>$$`, `<span class="math math-display">&lt;/span&gt;&lt;script&gt;alert(1)&lt;/script&gt;</span>`},
		{"bad \xff utf-8 \x00\x1b", "bad \uFFFD utf-8 \uFFFD\uFFFD"},
		{`\boxed{18}`, `<span class="math math-inline">\boxed{18}</span>`},
	} {
		if got := string(HTML(c.in)); got != c.want {
			t.Errorf("HTML(%q)\n got %s\nwant %s", c.in, got, c.want)
		}
	}
}

// wellFormed says whether html parses as XML inside one element, with
// exactly the math spans' elements in it.
func wellFormed(html string, spans int) error {
	d := xml.NewDecoder(strings.NewReader("<div>" + html + "</div>"))
	elements := 0
	for {
		tok, err := d.Token()
		if err == io.EOF {
			break
		}
		if err != nil {
			return err
		}
		if _, ok := tok.(xml.StartElement); ok {
			elements++
		}
	}
	if elements != spans+1 {
		return &countError{elements - 1, spans}
	}
	return nil
}

type countError struct{ got, want int }

func (e *countError) Error() string { return "wrong element count" }
