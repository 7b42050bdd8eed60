package ask

import (
	"math"
	"time"

	"github.com/askplane/askplane/internal/ecmajson"
)

// MetricProtocol names an observation record.
const MetricProtocol = "agentskit.chat.backend-metric"

// Metric names, as the reference emits them.
const (
	MetricRequestTotal       = "request.total_ms"
	MetricFirstEvent         = "stream.first_event_ms"
	MetricFirstToken         = "stream.first_token_ms"
	MetricRetrievalTotal     = "retrieval.total_ms"
	MetricPersistenceTotal   = "persistence.total_ms"
	MetricStreamBytes        = "stream.bytes"
	MetricStreamEvents       = "stream.events"
	MetricStreamSnapshots    = "stream.snapshots"
	MetricFallback           = "deterministic.fallback"
	MetricRetrievalDocuments = "retrieval.documents"
	MetricCancellation       = "cancellation.count"
	MetricConflict           = "conflict.count"
	MetricError              = "error.count"
	MetricInputTokens        = "usage.input_tokens"
	MetricOutputTokens       = "usage.output_tokens"
	MetricTotalTokens        = "usage.total_tokens"
	MetricCost               = "cost.usd"
	// Durable runs (internal/askrun, internal/run's Worker): counts by site.
	MetricRunStarted     = "run.started"
	MetricRunResumed     = "run.resumed"  // a reader reconnected, or a worker took the run over
	MetricRunEnded       = "run.ended"    // outcome: completed, failed or cancelled
	MetricRunReleased    = "run.released" // an instance shutting down handed the run on
	MetricAttemptStarted = "attempt.started"
	MetricAttemptUnknown = "attempt.unknown"
	MetricRoundStarted   = "round.started"
	MetricBudgetRefused  = "budget.refused"
	MetricStreamResumed  = "stream.resumed" // a reader reconnected to a run
)

// Metric units.
const (
	UnitMs     = "ms"
	UnitBytes  = "bytes"
	UnitCount  = "count"
	UnitTokens = "tokens"
	UnitUSD    = "usd"
)

// Metric outcomes.
const (
	OutcomeOK        = "ok"
	OutcomeRejected  = "rejected"
	OutcomeCancelled = "cancelled"
	OutcomeError     = "error"
)

// Metric is one privacy-safe observation (agentskit.chat.backend-metric
// v1). It never carries the question, the answer, sources, the subject or
// the session id.
type Metric struct {
	Name      string
	SiteID    string
	CorpusID  string
	RequestID string
	Value     float64 // finite and ≥ 0
	Unit      string
	Outcome   string
	EmittedAt time.Time
}

// Metrics receives observations. Observe is called on the request's
// goroutine and must not block.
type Metrics interface {
	Observe(m Metric)
}

// MetricsFunc adapts a function to Metrics.
type MetricsFunc func(Metric)

// Observe implements Metrics.
func (f MetricsFunc) Observe(m Metric) { f(m) }

// MarshalJSON writes the record in the reference's key order, emittedAt as
// an ISO timestamp with milliseconds in UTC.
func (m Metric) MarshalJSON() ([]byte, error) {
	var w ecmajson.Writer
	w.BeginObject()
	w.StringMember("protocol", MetricProtocol)
	w.Key("version")
	w.Int(1)
	w.StringMember("name", m.Name)
	w.StringMember("siteId", m.SiteID)
	w.StringMember("corpusId", m.CorpusID)
	w.StringMember("requestId", m.RequestID)
	w.Key("value")
	w.Number(clampValue(m.Value))
	w.StringMember("unit", m.Unit)
	w.StringMember("outcome", m.Outcome)
	w.StringMember("emittedAt", m.EmittedAt.UTC().Format("2006-01-02T15:04:05.000Z"))
	w.EndObject()
	return w.Bytes(), nil
}

// clampValue keeps a value finite and non-negative.
func clampValue(v float64) float64 {
	if math.IsNaN(v) || v < 0 {
		return 0
	}
	return min(v, math.MaxFloat64)
}

func ms(d time.Duration) float64 { return float64(d.Microseconds()) / 1000 }
