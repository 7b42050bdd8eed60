package askrun

// The observations of durable runs (this package's and internal/durable's
// Worker's, which the sidecar forwards): counts by site, in the units and
// outcomes of internal/ask's.
const (
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
