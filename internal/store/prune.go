package store

import (
	"context"
	"time"
)

// Pruner deletes sessions last saved before a time, then, while the
// store's total bytes are over its MaxTotalBytes, the oldest-written
// sessions until they are not; it reports how many it deleted. Apart from
// a subject's own bound (checked on each Save), sessions are deleted only
// here, so a sidecar that keeps them should prune on a schedule (say
// hourly, keeping 30 days) to bound the table: between two runs the total
// may grow past MaxTotalBytes by what was written meanwhile. SQLite and
// Postgres implement it; the memory backend bounds itself on every Save
// and does not.
type Pruner interface {
	Prune(ctx context.Context, before time.Time) (int64, error)
}

// pruneBatch bounds the rows one pruning statement deletes.
const pruneBatch = 1000
