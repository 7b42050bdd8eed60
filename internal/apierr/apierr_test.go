package apierr_test

import (
	"net/http"
	"net/http/httptest"
	"testing"
	"time"

	"github.com/askplane/askplane/internal/apierr"
)

// Every route's refusal is these bytes and headers: the body's member
// order, the retryable flag always present, Retry-After in whole seconds
// rounded up, and the cache and sniffing headers.
func TestWriteSendsTheProtocolsErrorBytes(t *testing.T) {
	for _, tt := range []struct {
		name   string
		err    *apierr.Error
		body   string
		status int
		after  string
	}{
		{"forbidden", apierr.Forbidden, `{"error":{"code":"ASK_FORBIDDEN","message":"The Ask request is not allowed for this site.","retryable":false}}`, 403, ""},
		{"rate limited, under a second", apierr.RateLimited(200 * time.Millisecond), `{"error":{"code":"ASK_RATE_LIMITED","message":"Too many Ask requests; try again later.","retryable":true}}`, 429, "1"},
		{"retry after rounded up", &apierr.Error{Status: 503, Code: "X_BUSY", Message: "Busy \"now\".", Retryable: true, RetryAfter: 2100 * time.Millisecond}, `{"error":{"code":"X_BUSY","message":"Busy \"now\".","retryable":true}}`, 503, "3"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			w := httptest.NewRecorder()
			apierr.Write(w, tt.err)
			h := w.Result().Header
			if w.Code != tt.status || w.Body.String() != tt.body {
				t.Fatalf("got %d %s, want %d %s", w.Code, w.Body, tt.status, tt.body)
			}
			if h.Get("Content-Type") != "application/json; charset=utf-8" || h.Get("Cache-Control") != "no-store" ||
				h.Get("X-Content-Type-Options") != "nosniff" || h.Get("Retry-After") != tt.after {
				t.Fatalf("headers %v", h)
			}
		})
	}
}

// A refusal sent before an announced body was read closes the
// connection; one of a request without a body does not.
func TestCloseUnreadOnlyWithABodyLeft(t *testing.T) {
	for _, n := range []int64{0, 10, -1} {
		r := httptest.NewRequest(http.MethodPost, "/", nil)
		r.ContentLength = n
		w := httptest.NewRecorder()
		apierr.CloseUnread(w, r)
		if got, want := w.Header().Get("Connection") == "close", n != 0; got != want {
			t.Errorf("ContentLength %d: Connection close %v, want %v", n, got, want)
		}
	}
}

// WriteUnauthorized carries the Bearer challenge; WriteLimit tells a
// failed limit (503) from a spent one (429).
func TestSharedRefusals(t *testing.T) {
	w := httptest.NewRecorder()
	apierr.WriteUnauthorized(w)
	if w.Code != 401 || w.Header().Get("WWW-Authenticate") != `Bearer realm="askplane"` {
		t.Fatalf("unauthorized: %d %v", w.Code, w.Header())
	}
	w = httptest.NewRecorder()
	apierr.WriteLimit(w, time.Second, http.ErrHandlerTimeout)
	if w.Code != 503 {
		t.Fatalf("failed limit: %d", w.Code)
	}
	w = httptest.NewRecorder()
	apierr.WriteLimit(w, 4*time.Second, nil)
	if w.Code != 429 || w.Header().Get("Retry-After") != "4" {
		t.Fatalf("spent limit: %d %v", w.Code, w.Header())
	}
}
