package store

import (
	"context"
	"time"
)

// Pruner deletes sessions last saved before a time, and reports how many.
// Sessions are never deleted otherwise, so a sidecar that keeps them
// should prune on a schedule (say hourly, keeping 30 days) to bound the
// table. SQLite and Postgres implement it; the memory backend forgets on
// restart and does not.
type Pruner interface {
	Prune(ctx context.Context, before time.Time) (int64, error)
}

// pruneBatch bounds the rows one pruning statement deletes.
const pruneBatch = 1000
