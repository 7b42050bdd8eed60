// Package metrics is the sink of the sidecar's privacy-safe
// observations: the agentskit.chat.backend-metric v1 record (Metric), the
// one-method interface every emitter writes to (Sink), and the
// Prometheus registry that aggregates them and serves GET /metrics, with
// the feedback counters beside them. The emitters (internal/ask,
// internal/askrun, the run Worker through internal/sidecar) name their
// observations; this package names none, so a new observation touches
// only its emitter.
package metrics

import (
	"math"
	"time"

	"github.com/askplane/askplane/internal/ecmajson"
)

// Protocol names an observation record.
const Protocol = "agentskit.chat.backend-metric"

// UnitMs is the unit of durations: the one unit the Prometheus sink keeps
// as a histogram (every other unit is summed as a counter).
const UnitMs = "ms"

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

// Sink receives observations. Observe is called on the request's
// goroutine and must not block.
type Sink interface {
	Observe(m Metric)
}

// Func adapts a function to Sink.
type Func func(Metric)

// Observe implements Sink.
func (f Func) Observe(m Metric) { f(m) }

// MarshalJSON writes the record in the reference's key order, emittedAt as
// an ISO timestamp with milliseconds in UTC.
func (m Metric) MarshalJSON() ([]byte, error) {
	var w ecmajson.Writer
	w.BeginObject()
	w.StringMember("protocol", Protocol)
	w.Key("version")
	w.Int(1)
	w.StringMember("name", m.Name)
	w.StringMember("siteId", m.SiteID)
	w.StringMember("corpusId", m.CorpusID)
	w.StringMember("requestId", m.RequestID)
	w.Key("value")
	w.Number(Clamp(m.Value))
	w.StringMember("unit", m.Unit)
	w.StringMember("outcome", m.Outcome)
	w.StringMember("emittedAt", m.EmittedAt.UTC().Format("2006-01-02T15:04:05.000Z"))
	w.EndObject()
	return w.Bytes(), nil
}

// Clamp keeps a value finite and non-negative.
func Clamp(v float64) float64 {
	if math.IsNaN(v) || v < 0 {
		return 0
	}
	return min(v, math.MaxFloat64)
}
