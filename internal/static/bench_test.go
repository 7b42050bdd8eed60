package static

import (
	"net/http"
	"net/http/httptest"
	"os"
	"testing"
)

// BenchmarkServeHTML serves the same page, a folder's index.html, with the
// Handler and with what it replaces, http.FileServerFS(os.DirFS), in one
// run. The request goes straight to ServeHTTP (no network), so the numbers
// are the handlers' own cost: path checks, opens and stats through the
// os.Root, headers.
func BenchmarkServeHTML(b *testing.B) {
	pub := newTree(b)
	h, err := New(pub, Options{})
	if err != nil {
		b.Fatal(err)
	}
	defer h.Close()
	for _, c := range []struct {
		name    string
		handler http.Handler
	}{
		{"static", h},
		{"FileServerFS", http.FileServerFS(os.DirFS(pub))},
	} {
		b.Run(c.name, func(b *testing.B) {
			req := httptest.NewRequest("GET", "/guide/", nil)
			b.ReportAllocs()
			for b.Loop() {
				rec := httptest.NewRecorder()
				c.handler.ServeHTTP(rec, req)
				if rec.Code != http.StatusOK {
					b.Fatalf("status %d", rec.Code)
				}
			}
		})
	}
}
