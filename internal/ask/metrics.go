package ask

import (
	"time"

	"github.com/askplane/askplane/internal/metrics"
)

// The observations the handler emits (internal/askrun names its own), to its
// Config.Metrics (internal/metrics' Sink): names as the reference emits
// them, units and outcomes.

// Metric names.
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
)

// Metric units.
const (
	UnitMs     = metrics.UnitMs
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

func clampValue(v float64) float64 { return metrics.Clamp(v) }

func ms(d time.Duration) float64 { return float64(d.Microseconds()) / 1000 }
