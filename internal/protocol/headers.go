package protocol

// HTTP headers of the Ask protocol beyond the standard ones (the run
// routes and the widget's retries; CORS lets browsers send and read them).
const (
	// IdempotencyHeader names the request header that makes a retry of
	// one question join its run.
	IdempotencyHeader = "Idempotency-Key"
	// RunHeader names the response header that carries a durable
	// answer's run id.
	RunHeader = "X-Askplane-Run"
)
