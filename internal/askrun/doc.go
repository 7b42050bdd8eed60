// Package askrun is the durable Ask answer: what a model site's question
// becomes when its answers are durable runs (internal/durable). It admits an
// admitted question (ask.Turn) as a run and streams the run's event log
// as the answer; it is the Program the run Worker executes for the site
// (one round, or the bounded tool loop over internal/provider's
// transcript, the model's text streamed into the log as it is written);
// and it serves the run routes beside /v1/ask (GET /v1/runs/{id}/events,
// POST /v1/runs/{id}/cancel).
//
// internal/durable is the machinery every durable run shares (the record,
// its state machine, the store contract, budgets, leases, the Worker);
// askrun is what an Ask run does. internal/ask, the live endpoint, knows
// it only as its Config.Durable (ask.Durable); askrun imports ask for
// the question's types and the admission of the run routes, never the
// other way round.
package askrun
