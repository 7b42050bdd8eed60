package metrics_test

import (
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/askplane/askplane/internal/metrics"
)

// The record's bytes: the reference's key order, emittedAt in UTC with
// milliseconds, and a negative value clamped to 0.
func TestMetricJSON(t *testing.T) {
	m := metrics.Metric{Name: "request.total_ms", SiteID: "s", CorpusID: "c", RequestID: "r", Value: 12.5, Unit: metrics.UnitMs,
		Outcome: "ok", EmittedAt: time.Date(2026, 11, 29, 15, 0, 0, 123_456_789, time.UTC)}
	b, _ := m.MarshalJSON()
	want := `{"protocol":"agentskit.chat.backend-metric","version":1,"name":"request.total_ms","siteId":"s","corpusId":"c","requestId":"r","value":12.5,"unit":"ms","outcome":"ok","emittedAt":"2026-11-29T15:00:00.123Z"}`
	if string(b) != want {
		t.Fatalf("%s", b)
	}
	m.Value = -3
	if b, _ := m.MarshalJSON(); !strings.Contains(string(b), `"value":0,`) {
		t.Fatalf("negative value not clamped: %s", b)
	}
}

// The sink alone: a duration is a histogram, any other unit a counter of
// the values, the feedback verdicts counters of their own, and the series
// carry only the site and the outcome (or verdict).
func TestPrometheusSeries(t *testing.T) {
	var p metrics.Prometheus
	var sink metrics.Sink = &p
	sink.Observe(metrics.Metric{Name: "retrieval.total_ms", SiteID: "a", RequestID: "req-9", Value: 3, Unit: metrics.UnitMs, Outcome: "ok"})
	sink.Observe(metrics.Metric{Name: "stream.bytes", SiteID: "a", RequestID: "req-9", Value: 40, Unit: "bytes", Outcome: "ok"})
	sink.Observe(metrics.Metric{Name: "stream.bytes", SiteID: "a", Value: 2, Unit: "bytes", Outcome: "ok"})
	p.Feedback("a", "helpful")
	p.FeedbackUnverified("a", "not_helpful")
	w := httptest.NewRecorder()
	p.ServeHTTP(w, httptest.NewRequest(http.MethodGet, "/metrics", nil))
	text := w.Body.String()
	for _, want := range []string{
		`askplane_ask_retrieval_total_ms_count{outcome="ok",site="a"} 1`,
		`askplane_ask_stream_bytes_total{outcome="ok",site="a"} 42`,
		`askplane_feedback_total{site="a",verdict="helpful"} 1`,
		`askplane_feedback_unverified_total{site="a",verdict="not_helpful"} 1`,
	} {
		if !strings.Contains(text, want+"\n") {
			t.Errorf("missing %q", want)
		}
	}
	if strings.Contains(text, "req-9") || w.Header().Get("Cache-Control") != "no-store" {
		t.Errorf("request id exported or cacheable:\n%s", text)
	}
}
