// Package durable holds durable model answers: the record of a run, its state
// machine, the store contract the SQLite and PostgreSQL backends
// (internal/store) implement, and the Worker that executes a run under a
// lease and a fence.
//
// A model-backed answer is an external, paid and slow call, so it is not
// tied to the HTTP request that asked for it. The request is admitted as a
// run: one transaction commits the run (site, subject, session, the frozen
// snapshot digests and the trusted budget), its first event and its
// initial checkpoint, or nothing. A worker claims the run with a lease and
// a fencing token; every write it makes carries the fence, and the store
// refuses a write whose fence is no longer the run's, so a worker whose
// lease was taken over cannot write. Each provider call is an attempt
// whose start is committed before dispatch: after a crash the next
// claimant finds it started but never ended, marks it unknown (the call
// may have been billed and may have answered) and never re-dispatches an
// attempt that completed, because its outcome sits in the checkpoint.
//
// The package sits below internal/store and internal/ask (as
// internal/session does): it knows nothing of HTTP, providers or SQL.
package durable
