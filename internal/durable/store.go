package durable

import (
	"context"
	"time"
	"unicode/utf8"
)

// Store is the durable half of a run, implemented by internal/store's
// SQLite and PostgreSQL backends. Every method is one transaction. The
// methods that take a Lease are fenced: they first check, under the run's
// row lock, that the lease's fence is the run's and its owner the lease
// holder, and write nothing (CodeFenced) otherwise.
type Store interface {
	// Admit commits the run, its first event (seq 1), its initial
	// checkpoint (step 0) and the admitting worker's lease (fence 1),
	// after the site's ceilings are checked, in one transaction; or
	// returns an error and commits nothing. With an IdempotencyKey that
	// an earlier admission of the same site and subject used, it commits
	// nothing and returns that run with joined true (and a zero Lease).
	Admit(ctx context.Context, a Admission) (r Run, l Lease, joined bool, err error)
	// Get loads a run.
	Get(ctx context.Context, id string) (Run, error)
	// Claim takes the run for owner when its lease expired: the fence
	// goes up by one, so every write of the previous holder is refused
	// from now on, and its started attempts become unknown in the same
	// transaction. CodeLeaseHeld while another lease is live;
	// CodeTerminal once the run ended.
	Claim(ctx context.Context, id, owner string, ttl time.Duration) (Lease, error)
	// ClaimExpired claims the oldest non-terminal run whose lease expired,
	// as Claim does; ok is false when there is none.
	ClaimExpired(ctx context.Context, owner string, ttl time.Duration) (l Lease, ok bool, err error)
	// Renew extends the lease and returns the run (its CancelRequested
	// is how a worker on another instance learns of a cancel).
	Renew(ctx context.Context, l Lease, ttl time.Duration) (Lease, Run, error)
	// BeginAttempt commits an attempt's start before its dispatch and
	// returns its number. It refuses (and commits nothing) when a cancel
	// was requested (CodeCancelled), or when the attempt would pass the
	// run's attempts, rounds, tokens, cost or deadline budget, or the
	// site's day ceilings (*BudgetError).
	BeginAttempt(ctx context.Context, l Lease, s AttemptStart, c Ceilings) (int, error)
	// Commit applies w in one transaction.
	Commit(ctx context.Context, l Lease, w Write) error
	// Checkpoint returns the latest checkpoint, its digest re-checked.
	Checkpoint(ctx context.Context, id string) (Checkpoint, error)
	// Attempts lists the run's attempts in order.
	Attempts(ctx context.Context, id string) ([]Attempt, error)
	// Events returns at most max (≤ MaxEventsPerRead) events with seq
	// above after, in order.
	Events(ctx context.Context, id string, after, max int) ([]Event, error)
	// Cancel requests the run's cancellation: no attempt starts after it
	// commits. A run that no live lease holds is ended at once (state
	// cancelled, event appended, fence raised so a late writer is
	// refused); a held one is ended by its worker, which learns of it on
	// its next write or renewal. A terminal run is returned unchanged.
	Cancel(ctx context.Context, id string, event []byte) (Run, error)
	// DayUsage is what a site used and reserved since 00:00 UTC of day.
	DayUsage(ctx context.Context, site string, day time.Time) (Spend, error)
	// PruneRuns deletes terminal runs last written before before, with
	// their events, checkpoint and attempts, and day usage rows older than
	// before, in bounded batches.
	PruneRuns(ctx context.Context, before time.Time) (int64, error)
}

// CheckAdmission checks a before any I/O.
func CheckAdmission(a Admission) error {
	const op = "admit"
	switch {
	case !safeID(a.ID):
		return Invalid(op, "run id is not a SafeIdentifier")
	case !textKey(a.Site) || !textKey(a.Subject) || (a.Session != "" && !textKey(a.Session)):
		return Invalid(op, "site, subject or session is empty, too long or not valid text")
	case a.IdempotencyKey != "" && !safeID(a.IdempotencyKey):
		return Invalid(op, "idempotency key is not a SafeIdentifier")
	case len(a.RequestDigest) == 0 || len(a.RequestDigest) > 128:
		return Invalid(op, "request digest is missing or too long")
	case !safeID(a.Owner):
		return Invalid(op, "owner is not a SafeIdentifier")
	}
	if err := CheckBudget(a.Budget); err != nil {
		return err
	}
	if err := CheckLease(op, a.Lease); err != nil {
		return err
	}
	if a.Ceilings.MaxConcurrent < 0 || a.Ceilings.TokensPerDay < 0 || a.Ceilings.CostMicrosPerDay < 0 {
		return Invalid(op, "a ceiling is negative")
	}
	if err := CheckEvents(op, [][]byte{a.FirstEvent}, 0, 0); err != nil {
		return err
	}
	if len(a.Checkpoint) > MaxCheckpointBytes {
		return OverLimit(op, "checkpoint is too large", MaxCheckpointBytes)
	}
	return nil
}

// CheckBudget checks that b is finite and within the hard bounds.
func CheckBudget(b Budget) error {
	const op = "admit"
	switch {
	case b.MaxTokens < 1 || b.MaxCostMicros < 0:
		return Invalid(op, "budget tokens must be positive and cost not negative")
	case b.MaxRounds < 1 || b.MaxRounds > HardMaxRounds:
		return Invalid(op, "budget rounds are out of range")
	case b.MaxAttempts < 1 || b.MaxAttempts > HardMaxAttempts:
		return Invalid(op, "budget attempts are out of range")
	case b.Deadline.IsZero():
		return Invalid(op, "budget has no deadline")
	}
	return nil
}

// CheckLease checks a lease duration.
func CheckLease(op string, ttl time.Duration) error {
	if ttl < MinLease || ttl > MaxLease {
		return Invalid(op, "lease duration is out of range")
	}
	return nil
}

// CheckEvents checks events about to be appended to a log that holds n
// events of total bytes.
func CheckEvents(op string, events [][]byte, n int, total int64) error {
	for _, e := range events {
		switch {
		case len(e) == 0:
			return Invalid(op, "an event is empty")
		case len(e) > MaxEventBytes:
			return OverLimit(op, "an event is too large", MaxEventBytes)
		case !utf8.Valid(e):
			return Invalid(op, "an event is not valid UTF-8")
		}
		n++
		total += int64(len(e))
	}
	if n > MaxEvents {
		return OverLimit(op, "the run has too many events", MaxEvents)
	}
	if total > MaxRunEventBytes {
		return OverLimit(op, "the run's events are too large", MaxRunEventBytes)
	}
	return nil
}

// CheckWrite checks w before any I/O.
func CheckWrite(w Write) error {
	const op = "commit"
	if e := w.End; e != nil {
		if e.N < 1 || (e.State != AttemptCompleted && e.State != AttemptFailed && e.State != AttemptUnknown) {
			return Invalid(op, "attempt end has no number or a state that is not an end")
		}
		if len(e.Outcome) > MaxOutcomeBytes {
			return OverLimit(op, "attempt outcome is too large", MaxOutcomeBytes)
		}
		if e.Usage.InputTokens < 0 || e.Usage.OutputTokens < 0 || e.Usage.CostMicros < 0 {
			return Invalid(op, "attempt usage is negative")
		}
	}
	if c := w.Checkpoint; c != nil {
		if c.Step < 1 {
			return Invalid(op, "checkpoint step must be above 0")
		}
		if len(c.Data) > MaxCheckpointBytes {
			return OverLimit(op, "checkpoint is too large", MaxCheckpointBytes)
		}
	}
	if w.Final != "" && !w.Final.Terminal() {
		return Invalid(op, "final state is not terminal")
	}
	if len(w.Code) > 128 {
		return Invalid(op, "terminal code is too long")
	}
	return CheckEvents(op, w.Events, 0, 0)
}

// CheckStart checks an attempt start.
func CheckStart(s AttemptStart) error {
	if s.Round < 1 || s.Round > HardMaxRounds || s.Reserve.InputTokens < 0 || s.Reserve.OutputTokens < 0 || s.Reserve.CostMicros < 0 {
		return Invalid("begin attempt", "round out of range or reservation negative")
	}
	return nil
}

// DayStart is 00:00 UTC of t's day, the key of a site's day usage.
func DayStart(t time.Time) time.Time {
	y, m, d := t.UTC().Date()
	return time.Date(y, m, d, 0, 0, 0, 0, time.UTC)
}

// UntilTomorrow is how long until the next UTC day begins.
func UntilTomorrow(now time.Time) time.Duration {
	return DayStart(now).Add(24 * time.Hour).Sub(now)
}

// safeID is protocol.ValidIdentifier, kept here so this floor imports
// nothing above it.
func safeID(s string) bool {
	if len(s) == 0 || len(s) > MaxKeyLen || !alnum(s[0]) {
		return false
	}
	for i := 1; i < len(s); i++ {
		if c := s[i]; !alnum(c) && c != '.' && c != '_' && c != ':' && c != '-' {
			return false
		}
	}
	return true
}

func alnum(c byte) bool { return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' }

// textKey is a site, subject or session: 1–256 bytes of valid UTF-8
// without NUL.
func textKey(s string) bool {
	if s == "" || len(s) > 256 || !utf8.ValidString(s) {
		return false
	}
	for i := 0; i < len(s); i++ {
		if s[i] == 0 {
			return false
		}
	}
	return true
}

// SafeID reports whether s is a SafeIdentifier (run ids, idempotency
// keys, owners).
func SafeID(s string) bool { return safeID(s) }
