package durable

import (
	"crypto/sha256"
	"encoding/hex"
	"time"
)

// State is a run's place in its state machine:
//
//	admitted → running → completed | failed | cancelled
//	admitted → cancelled | failed (cancelled, or past its deadline, before a claim)
//
// The three terminal states are final: no write changes a terminal run.
type State string

// Run states, as stored.
const (
	StateAdmitted  State = "admitted"
	StateRunning   State = "running"
	StateCompleted State = "completed"
	StateFailed    State = "failed"
	StateCancelled State = "cancelled"
)

// Terminal reports whether s is final.
func (s State) Terminal() bool {
	return s == StateCompleted || s == StateFailed || s == StateCancelled
}

// Valid reports whether s is one of the five states.
func (s State) Valid() bool {
	return s == StateAdmitted || s == StateRunning || s.Terminal()
}

// AttemptState is where one external call stands.
type AttemptState string

// Attempt states. An attempt is started (committed before dispatch), then
// ends completed or failed by the worker that dispatched it, or unknown
// when that worker lost its lease (crashed, or was fenced out) before it
// recorded the outcome, or was cancelled mid-call: the provider may have
// billed it and may have answered, and nobody will ever know which.
const (
	AttemptStarted   AttemptState = "started"
	AttemptCompleted AttemptState = "completed"
	AttemptFailed    AttemptState = "failed"
	AttemptUnknown   AttemptState = "unknown"
)

// Snapshot is the frozen identity of what a run executes, as digests, so
// a resumed run is checked against the very contract it was admitted
// under: a sidecar restarted with another model or schema must not finish
// someone else's run with it.
type Snapshot struct {
	Agent  string `json:"agent"`  // agent name/version and instructions digest
	Schema string `json:"schema"` // output schema digest
	Model  string `json:"model"`  // provider profile and model id digest
	Tool   string `json:"tool"`   // tool set digest, "" without tools
}

// Budget is the trusted, finite budget a run is admitted with, resolved
// from the site's configuration (never from the request).
type Budget struct {
	MaxTokens     int64     // input+output tokens over every attempt
	MaxCostMicros int64     // cost over every attempt, in millionths of a USD
	MaxRounds     int       // model rounds (tool loop turns), 1..HardMaxRounds
	MaxAttempts   int       // provider calls, retries and unknown ones included, 1..HardMaxAttempts
	Deadline      time.Time // no attempt starts after it
}

// Usage is the accounting of one attempt, or a sum of them.
type Usage struct {
	InputTokens  int64 `json:"inputTokens"`
	OutputTokens int64 `json:"outputTokens"`
	CostMicros   int64 `json:"costMicros"`
}

// Tokens is input plus output.
func (u Usage) Tokens() int64 { return u.InputTokens + u.OutputTokens }

// Spend is a sum of attempts' charges: a run's, or a site's day.
type Spend struct {
	Tokens     int64
	CostMicros int64
}

// Ceilings are a site's limits across every instance, held in the store
// and checked in the admission transaction. A zero field is no limit.
type Ceilings struct {
	MaxConcurrent    int   // runs admitted or running, within their deadline
	TokensPerDay     int64 // tokens used and reserved since 00:00 UTC
	CostMicrosPerDay int64 // cost used and reserved since 00:00 UTC
}

// Admission is everything one admission commits.
type Admission struct {
	ID      string // a SafeIdentifier the caller makes (random)
	Site    string
	Subject string
	Session string // "" for an unscoped question
	// IdempotencyKey, when set, makes a second admission with the same
	// key (per site and subject) join the first run instead.
	IdempotencyKey string
	// RequestDigest identifies the request (Digest of its canonical
	// bytes): a joined run must have been admitted for the same request,
	// or the join is refused with CodeIdempotencyMismatch.
	RequestDigest string
	Snapshot      Snapshot
	Budget        Budget
	Ceilings      Ceilings
	FirstEvent    []byte // the first event of the run's log
	Checkpoint    []byte // step 0
	// Owner and Lease claim the run for the admitting worker in the same
	// transaction, so no other worker can take it between admission and
	// execution.
	Owner string
	Lease time.Duration
}

// Run is a run's stored record.
type Run struct {
	ID, Site, Subject, Session, IdempotencyKey string
	RequestDigest                              string
	Snapshot                                   Snapshot
	Budget                                     Budget
	State                                      State
	Code                                       string // the terminal error code, "" when completed
	Fence                                      int64
	LeaseOwner                                 string
	LeaseUntil                                 time.Time
	CancelRequested                            bool
	Events                                     int
	EventBytes                                 int64
	Attempts                                   int
	Rounds                                     int
	Used                                       Spend // settled usage plus the reservations of attempts in flight
	CreatedAt, UpdatedAt                       time.Time
}

// Lease is a worker's claim on a run. Fence is the run's fencing token
// when the claim was made; every write carries it.
type Lease struct {
	RunID string
	Owner string
	Fence int64
	Until time.Time
}

// Attempt is one recorded external call.
type Attempt struct {
	N        int // 1, 2, … in start order
	Round    int
	State    AttemptState
	Fence    int64 // the fence of the worker that started it
	Reserved Usage // charged at start; settled at the end
	Usage    Usage // the settled usage (the reservation when unknown)
	Outcome  []byte
}

// AttemptStart is what BeginAttempt commits.
type AttemptStart struct {
	Round int
	// Reserve is charged to the run and to the site's day at start, so
	// attempts in flight on several instances cannot together overrun a
	// budget; the end settles it to the reported usage. An attempt whose
	// outcome is unknown stays charged at its reservation.
	Reserve Usage
}

// AttemptEnd settles an attempt.
type AttemptEnd struct {
	N       int
	State   AttemptState // completed, failed or unknown
	Usage   Usage
	Outcome []byte // bounded by MaxOutcomeBytes
}

// Checkpoint is a run's latest durable state.
type Checkpoint struct {
	Step   int
	Data   []byte
	Digest string // Digest(Data), re-checked on every read
}

// Write is one fenced commit: any of an attempt's end, a checkpoint,
// events and a terminal state, all or nothing.
type Write struct {
	End        *AttemptEnd
	Checkpoint *Checkpoint // Step must be above the stored one; Digest is computed
	Events     [][]byte
	Final      State  // "" keeps the run going; else a terminal state
	Code       string // the terminal error code, with Final failed or cancelled
}

// Event is one entry of a run's log. Seq counts from 1.
type Event struct {
	Seq  int
	Data []byte
}

// Digest is the digest a checkpoint is stored under: sha256: and hex.
func Digest(b []byte) string {
	sum := sha256.Sum256(b)
	return "sha256:" + hex.EncodeToString(sum[:])
}

// Bounds: every list and byte count a run holds is bounded here, so a
// run, however long it lives or however a model behaves, stays a bounded
// number of bounded rows.
const (
	HardMaxRounds      = 16
	HardMaxAttempts    = 32
	MaxEvents          = 4096
	MaxEventBytes      = 64 << 10 // one event
	MaxRunEventBytes   = 2 << 20  // every event of a run
	MaxCheckpointBytes = 2 << 20  // the transcript with every round's evidence
	MaxOutcomeBytes    = 512 << 10
	MaxEventsPerRead   = 512
	MaxKeyLen          = 128
	// MinLease and MaxLease bound a lease: short enough that a crashed
	// worker's run is taken over within minutes, long enough to renew.
	MinLease = 10 * time.Millisecond
	MaxLease = 10 * time.Minute
)
