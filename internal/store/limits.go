package store

import (
	"errors"
	"time"
)

// Time bounds. A caller's earlier deadline always wins.
const (
	// OpTimeout bounds one Load or Save, including waiting for a pooled
	// connection or another writer's lock.
	OpTimeout = 10 * time.Second
	// openTimeout bounds opening: connecting and migrating.
	openTimeout = 30 * time.Second
	// CheckTimeout bounds one Check, which a readiness probe calls often.
	CheckTimeout = 2 * time.Second
	// EvictedGrace is how long a session evicted by MaxSubjectBytes keeps
	// its emptied row (and revision), so an answer in flight for it still
	// saves: longer than any request (requestTimeoutMs is at most 120 s).
	// postgresEvictSubject spells it as an interval too.
	EvictedGrace = 5 * time.Minute
)

// errSchemaNewer: the database was migrated by a newer askplane, whose
// schema this one must not write to.
var errSchemaNewer = errors.New("store: the database schema is newer than this askplane knows")
