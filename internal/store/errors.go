package store

import (
	"context"
	"errors"
	"strconv"
)

// Code classifies a store failure. Codes are stable: callers and tests
// branch on them through errors.As, never on the message text.
type Code string

// Store failure codes.
const (
	// CodeOpenFailed: the DSN is invalid, or the backend could not be
	// opened, reached or migrated. Only Open and the Open* constructors
	// return it.
	CodeOpenFailed Code = "STORE_OPEN_FAILED"
	// CodeUnavailable: a Load, Save, Prune or Check did not complete in the
	// backend (I/O, network, closed store, deadline or cancellation), or
	// Check found the backend unfit to serve (a SQLite file removed,
	// replaced or read-only). Retrying may work once it is fixed.
	CodeUnavailable Code = "STORE_UNAVAILABLE"
	// CodeCorrupt: a stored row failed strict decoding. The row is left as
	// it is; errors.As finds a *session.CorruptError with its revision, at
	// which a Save may overwrite it.
	CodeCorrupt Code = "STORE_CORRUPT"
	// CodeInvalidRecord: Save was given a record outside the bounds
	// (too many messages, an unknown role, content too long, a revision
	// that is not expectedRevision+1, a Size over MaxSessionBytes, which
	// also wraps session.ErrRecordTooLarge); nothing was written.
	CodeInvalidRecord Code = "STORE_INVALID_RECORD"
	// CodeInvalidKey: a key part is empty, too long or not valid text.
	CodeInvalidKey Code = "STORE_INVALID_KEY"
)

// Error is a store failure. Reason is fixed text naming the rule or the
// step that failed; it never quotes a message, a key or a DSN secret.
// Limit is the bound that was exceeded, when one was.
type Error struct {
	Code   Code
	Op     string // "open", "load", "save", "prune" or "check"
	Reason string
	Limit  int
	Err    error // the cause, or nil; never carries a DSN password
}

func (e *Error) Error() string {
	s := "store: " + string(e.Code) + ": " + e.Op
	if e.Reason != "" {
		s += ": " + e.Reason
	}
	if e.Limit > 0 {
		s += " (limit " + strconv.Itoa(e.Limit) + ")"
	}
	if e.Err != nil {
		s += ": " + e.Err.Error()
	}
	return s
}

// Unwrap returns the cause, so errors.Is(err, context.DeadlineExceeded)
// works through a store error.
func (e *Error) Unwrap() error { return e.Err }

// CodeOf returns the Code of the first *Error in err's chain, or "".
func CodeOf(err error) Code {
	var e *Error
	if errors.As(err, &e) {
		return e.Code
	}
	return ""
}

// unavailable wraps a backend failure of op. When ctx is done the context
// error becomes the cause, so callers see Canceled or DeadlineExceeded
// whatever shape the driver gave it.
func unavailable(ctx context.Context, op string, err error) error {
	if cerr := ctx.Err(); cerr != nil {
		err = cerr
	}
	return &Error{Code: CodeUnavailable, Op: op, Err: err}
}
