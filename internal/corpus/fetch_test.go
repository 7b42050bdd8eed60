package corpus

import (
	"context"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"
)

func TestFetch(t *testing.T) {
	files := site(tinyCorpus, "")
	srv := httptest.NewServer(http.StripPrefix("/docs", http.FileServerFS(files)))
	t.Cleanup(srv.Close)
	c, err := fetch(context.Background(), srv.URL+"/docs/", "en")
	if err != nil {
		t.Fatal(err)
	}
	if c.SiteID != "docs" || len(c.Records) != 2 || c.Version != ContentHash([]byte(tinyCorpus)) {
		t.Fatalf("corpus %+v", c)
	}
}

func TestFetchRefuses(t *testing.T) {
	tampered := site(tinyCorpus, "")
	tampered["askplane/en/corpus.0123456789ab.json"].Data = []byte(strings.Replace(tinyCorpus, "go install", "curl | sh", 1))
	serve := func(h http.Handler) string {
		srv := httptest.NewServer(h)
		t.Cleanup(srv.Close)
		return srv.URL
	}
	good := serve(http.FileServerFS(site(tinyCorpus, "")))
	huge := serve(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Write([]byte(`{"protocol":"askplane.manifest",` + strings.Repeat(" ", MaxManifestBytes) + `}`))
	}))
	redirect := serve(http.RedirectHandler(good+"/", http.StatusFound))
	slow := serve(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		select {
		case <-r.Context().Done():
		case <-time.After(5 * time.Second):
		}
	}))
	ctx, cancel := context.WithTimeout(context.Background(), 200*time.Millisecond)
	defer cancel()
	for _, c := range []struct {
		name string
		ctx  context.Context
		base string
		code string
	}{
		{"http to a public host", context.Background(), "http://docs.example.com/", CodeRead},
		{"credentials in URL", context.Background(), "https://user:secret@docs.example.com/", CodeRead},
		{"not a URL", context.Background(), "docs", CodeRead},
		{"tampered corpus", context.Background(), serve(http.FileServerFS(tampered)), CodeMismatch},
		{"missing manifest", context.Background(), good + "/nowhere", CodeRead},
		{"oversize manifest", context.Background(), huge, CodeTooLarge},
		{"redirect", context.Background(), redirect, CodeRead},
		{"deadline", ctx, slow, CodeRead},
	} {
		_, err := fetch(c.ctx, c.base, "en")
		if CodeOf(err) != c.code {
			t.Errorf("%s: err = %v, want %s", c.name, err, c.code)
		}
		if err != nil && strings.Contains(err.Error(), "secret") {
			t.Errorf("%s: error leaks the URL's password: %v", c.name, err)
		}
	}
}

// fetch is FetchRaw without the bytes.
func fetch(ctx context.Context, base, lang string) (*Corpus, error) {
	c, _, err := FetchRaw(ctx, base, lang)
	return c, err
}
