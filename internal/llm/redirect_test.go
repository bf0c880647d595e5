package llm_test

import (
	"context"
	"errors"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"

	"github.com/datg/datg/internal/llm"
	"github.com/datg/datg/internal/simulate"
)

// keySeen wraps a handler and records the Authorization headers it got.
type keySeen struct {
	next http.Handler
	mu   sync.Mutex
	auth []string
}

func (k *keySeen) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	k.mu.Lock()
	k.auth = append(k.auth, r.Header.Get("Authorization"))
	k.mu.Unlock()
	k.next.ServeHTTP(w, r)
}

func (k *keySeen) seen() []string {
	k.mu.Lock()
	defer k.mu.Unlock()
	return append([]string(nil), k.auth...)
}

// redirector answers every request with a redirect to the same path under
// target.
func redirector(status int, target string) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		http.Redirect(w, r, target+r.URL.Path, status)
	})
}

// An endpoint that redirects to another port of the same host must not
// hand it the API key: the redirect is refused, the request fails with the
// reason, and the other server never sees the key.
func TestCrossOriginRedirectNeverCarriesTheKey(t *testing.T) {
	const key = "sk-secret-key"
	for _, status := range []int{http.StatusTemporaryRedirect, http.StatusPermanentRedirect, http.StatusFound} {
		cfg := simConfig()
		cfg.RequireKey = key // answers whoever brings the key
		srv, err := simulate.NewServer(cfg)
		if err != nil {
			t.Fatal(err)
		}
		other := &keySeen{next: srv}
		otherTS := httptest.NewServer(other)
		t.Cleanup(otherTS.Close)
		endpointTS := httptest.NewServer(redirector(status, otherTS.URL))
		t.Cleanup(endpointTS.Close)

		o := fastOptions()
		o.APIKey = key
		pool, err := llm.NewPool([]string{endpointTS.URL}, o)
		if err != nil {
			t.Fatal(err)
		}
		resp, err := pool.Do(context.Background(), swahiliRequest(0))
		for _, auth := range other.seen() {
			if strings.Contains(auth, key) {
				t.Fatalf("%d: the server on the other port got the API key (%d requests)", status, len(other.seen()))
			}
		}
		if err == nil {
			t.Fatalf("%d: answered through a cross-origin redirect: %+v", status, resp)
		}
		if !errors.Is(err, llm.ErrCrossOriginRedirect) || !strings.Contains(err.Error(), otherTS.URL[len("http://"):]) {
			t.Fatalf("%d: got %v, want ErrCrossOriginRedirect naming the other origin", status, err)
		}
		if strings.Contains(err.Error(), key) {
			t.Fatalf("%d: the key is in the error: %v", status, err)
		}
	}
}

// A redirect within the endpoint's origin (a proxy that moved a path) is
// followed, with the key.
func TestSameOriginRedirectIsFollowed(t *testing.T) {
	const key = "sk-secret-key"
	cfg := simConfig()
	cfg.RequireKey = key
	srv, err := simulate.NewServer(cfg)
	if err != nil {
		t.Fatal(err)
	}
	mux := http.NewServeMux()
	mux.Handle("/v1/", srv)
	mux.HandleFunc("/old/v1/", func(w http.ResponseWriter, r *http.Request) {
		http.Redirect(w, r, strings.TrimPrefix(r.URL.Path, "/old"), http.StatusTemporaryRedirect)
	})
	ts := httptest.NewServer(mux)
	t.Cleanup(ts.Close)
	o := fastOptions()
	o.APIKey = key
	o.Server = llm.ServerVLLM // only /v1/ is served, not /version
	pool, err := llm.NewPool([]string{ts.URL + "/old/v1"}, o)
	if err != nil {
		t.Fatal(err)
	}
	if resp := answeredAtOnce(t, "same-origin redirect", pool, swahiliRequest(0)); resp.Text == "" {
		t.Fatal("same-origin redirect: an answer without text")
	}
}
