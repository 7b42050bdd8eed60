// Package limit keeps the sidecar's abuse limits: per-key rate limits
// (Keyed), a cap on concurrent work per site (Gate), the client address
// the limits are keyed by (ClientAddr), and the bundle of keyed limits the
// Ask handler applies (Limits).
//
// Everything here is in-process, bounded in memory and safe for
// concurrent use. Handlers consume the limits through Limiter and
// Acquirer, which the PostgreSQL store also implements so that several
// instances share one budget (internal/store, limits_postgres.go). The limits exist because a key the client chooses is
// not a limit: a client that drops its anonymous cookie gets a new subject
// on every request, so the subject limit alone gives it a fresh budget
// each time. Limits are therefore also kept per client address, minting
// new anonymous subjects is limited per address, failed bearer tokens are
// limited per address, and the number of model generations running at
// once is capped per site whatever the keys say.
package limit
