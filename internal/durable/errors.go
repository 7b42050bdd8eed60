package durable

import (
	"context"
	"errors"
	"strconv"
	"time"
)

// Code classifies a run failure. Codes are stable: callers and tests
// branch on them through errors.As (CodeOf), never on the message text.
type Code string

// Run failure codes.
const (
	// CodeInvalid: the admission, lease or write breaks a rule of this
	// package (an id that is not a SafeIdentifier, a budget out of range,
	// a state that is not terminal as Final); nothing was written.
	CodeInvalid Code = "RUN_INVALID"
	// CodeNotFound: no run has the id (or it was pruned).
	CodeNotFound Code = "RUN_NOT_FOUND"
	// CodeFenced: the write's fence is no longer the run's (another
	// worker claimed it since) or its lease is another owner's; nothing
	// was written. The worker must stop.
	CodeFenced Code = "RUN_FENCED"
	// CodeLeaseHeld: another worker holds an unexpired lease.
	CodeLeaseHeld Code = "RUN_LEASE_HELD"
	// CodeTerminal: the run already ended; nothing was written.
	CodeTerminal Code = "RUN_TERMINAL"
	// CodeCancelled: a cancel was requested, so no further attempt
	// starts.
	CodeCancelled Code = "RUN_CANCELLED"
	// CodeBudget: a budget or ceiling would be exceeded; errors.As finds
	// a *BudgetError naming it and when to retry.
	CodeBudget Code = "RUN_BUDGET_EXHAUSTED"
	// CodeLimit: an event, the event log, a checkpoint or an outcome is
	// over its bound (Limit says which bound).
	CodeLimit Code = "RUN_LIMIT"
	// CodeIdempotencyMismatch: the idempotency key names a run admitted
	// for another request.
	CodeIdempotencyMismatch Code = "RUN_IDEMPOTENCY_MISMATCH"
	// CodeCorrupt: a stored checkpoint does not match its digest, or a
	// stored row fails decoding.
	CodeCorrupt Code = "RUN_CORRUPT"
	// CodeUnavailable: the backend did not complete the operation (I/O,
	// closed store, deadline); retrying may work.
	CodeUnavailable Code = "RUN_UNAVAILABLE"
)

// Error is a run failure. Reason is fixed text; it never quotes a key,
// an event or a DSN.
type Error struct {
	Code   Code
	Op     string
	Reason string
	Limit  int64
	Err    error
}

func (e *Error) Error() string {
	s := "run: " + string(e.Code) + ": " + e.Op
	if e.Reason != "" {
		s += ": " + e.Reason
	}
	if e.Limit > 0 {
		s += " (limit " + strconv.FormatInt(e.Limit, 10) + ")"
	}
	if e.Err != nil {
		s += ": " + e.Err.Error()
	}
	return s
}

func (e *Error) Unwrap() error { return e.Err }

// CodeOf returns the Code of the first *Error or *BudgetError in err's
// chain, or "".
func CodeOf(err error) Code {
	var b *BudgetError
	if errors.As(err, &b) {
		return CodeBudget
	}
	var e *Error
	if errors.As(err, &e) {
		return e.Code
	}
	return ""
}

// Budget limits a BudgetError names.
const (
	LimitTokens       = "tokens"
	LimitCost         = "cost"
	LimitRounds       = "rounds"
	LimitAttempts     = "attempts"
	LimitDeadline     = "deadline"
	LimitConcurrent   = "concurrent"
	LimitTokensPerDay = "tokens_per_day"
	LimitCostPerDay   = "cost_per_day"
)

// BudgetError is a refusal because a budget would be exceeded: the run's
// own (tokens, cost, rounds, attempts, deadline) when an attempt would
// start, or the site's ceiling (concurrent, tokens_per_day, cost_per_day)
// at admission. RetryAfter is when asking again may succeed (0: never,
// for this run).
type BudgetError struct {
	Limit      string
	RetryAfter time.Duration
}

func (e *BudgetError) Error() string { return "run: " + string(CodeBudget) + ": " + e.Limit }

// Invalid is the CodeInvalid error for op.
func Invalid(op, reason string) error { return &Error{Code: CodeInvalid, Op: op, Reason: reason} }

// Unavailable wraps a backend failure of op; when ctx is done the context
// error becomes the cause, whatever shape the driver gave it.
func Unavailable(ctx context.Context, op string, err error) error {
	if cerr := ctx.Err(); cerr != nil {
		err = cerr
	}
	return &Error{Code: CodeUnavailable, Op: op, Err: err}
}

// Fenced, NotFound, Terminal, LeaseHeld, Cancelled are the plain
// conditions for op.
func Fenced(op string) error    { return &Error{Code: CodeFenced, Op: op} }
func NotFound(op string) error  { return &Error{Code: CodeNotFound, Op: op} }
func Terminal(op string) error  { return &Error{Code: CodeTerminal, Op: op} }
func LeaseHeld(op string) error { return &Error{Code: CodeLeaseHeld, Op: op} }
func Cancelled(op string) error { return &Error{Code: CodeCancelled, Op: op} }

// OverLimit is the CodeLimit error for a bound.
func OverLimit(op, reason string, limit int64) error {
	return &Error{Code: CodeLimit, Op: op, Reason: reason, Limit: limit}
}
