package session

import "context"

// Checker is a Store that can say whether it is usable now, for a
// readiness check: a database that answers, a file still the one opened
// and still writable. Check is cheap enough to run on every probe.
type Checker interface {
	Check(ctx context.Context) error
}
