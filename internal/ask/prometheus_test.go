package ask_test

import (
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/askplane/askplane/internal/metrics"
)

// TestPrometheusExport: a served answer shows up as series labelled only
// by site and outcome, with no user content.
func TestPrometheusExport(t *testing.T) {
	prom := &metrics.Prometheus{}
	f := newFixture(t, func(c *config) { c.Metrics = prom })
	f.post(t, "", askBody("session-1", "How do I start?"))
	f.post(t, "?corpus=other", askBody("", "How do I start?"))

	w := httptest.NewRecorder()
	prom.ServeHTTP(w, httptest.NewRequest(http.MethodGet, "/metrics", nil))
	text := w.Body.String()
	for _, want := range []string{
		"# TYPE askplane_ask_request_total_ms histogram\n",
		`askplane_ask_request_total_ms_count{outcome="ok",site="docs-site"} 1` + "\n",
		`askplane_ask_request_total_ms_count{outcome="rejected",site="docs-site"} 1` + "\n",
		`askplane_ask_stream_first_event_ms_bucket{outcome="ok",site="docs-site",le="+Inf"} 1` + "\n",
		`askplane_ask_error_count_total{outcome="rejected",site="docs-site"} 1` + "\n",
		`askplane_ask_stream_events_total{outcome="ok",site="docs-site"} 3` + "\n",
		"# TYPE askplane_ask_stream_bytes_total counter\n",
		"# TYPE go_goroutines gauge\n",
	} {
		if !strings.Contains(text, want) {
			t.Errorf("missing %q in\n%s", want, text)
		}
	}
	for _, secret := range []string{"How do I start", "session-1", subject, "request-1"} {
		if strings.Contains(text, secret) {
			t.Errorf("export contains %q", secret)
		}
	}
	if ct := w.Header().Get("Content-Type"); !strings.HasPrefix(ct, "text/plain; version=0.0.4") {
		t.Errorf("content-type %q", ct)
	}
}
