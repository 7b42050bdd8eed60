package ask

import "context"

// Gate caps work done at once. Acquire returns a release func, or an
// error once the wait it allows is over (or ctx is done, or a shared
// cap's database failed). internal/limit's Gate and the PostgreSQL store's
// shared gate are the ones the sidecar uses.
type Gate interface {
	Acquire(ctx context.Context) (release func(), err error)
}
