// Package storetest is the conformance suite every session.Store must
// pass, run by internal/store against session.MemoryStore, SQLite and
// PostgreSQL alike, so the backends cannot drift apart:
//
//   - Run: the compare-and-swap contract (load-missing, first save at 0,
//     stale revisions conflict and keep the old record, revisions grow,
//     byte-exact messages, key isolation, racing writers, contexts, a
//     ready Check).
//   - RunDurable: persistence across close and reopen, and several
//     handles on one storage racing, as several sidecar instances do.
//   - RunBounds: the limits internal/store enforces before writing.
//   - RunLimits: the byte bounds (session.Limits) every store enforces on
//     Save: MaxSessionBytes refused, a subject's own oldest evicted.
//
// PostgresURL gives the test database, and decides whether a missing one
// skips (on a developer's machine) or fails (in CI).
package storetest
