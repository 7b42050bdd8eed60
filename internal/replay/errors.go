package replay

import (
	"net/http"
	"time"
)

// Code is a replay refusal's stable code. Codes are wire values: never
// renamed; branch on them with errors.As, never on messages.
type Code string

const (
	// CodeEngineUnavailable: the recipe names an engine this binary does
	// not retain (unknown or tampered id).
	CodeEngineUnavailable Code = "engine_unavailable"
	// CodeEngineIncompatible: the engine is retained but not permitted for
	// the recipe's source version.
	CodeEngineIncompatible Code = "engine_incompatible"
	// CodeHistoricalUnavailable: no permitted engine rebuilt the expected
	// context_id of a recipe without an engine.
	CodeHistoricalUnavailable Code = "historical_unavailable"
	// CodeHistoricalAmbiguous: two engines rebuilt the expected context_id
	// with different complete bytes.
	CodeHistoricalAmbiguous Code = "historical_ambiguous"
	// CodeContextMismatch: the named engine rebuilt a package whose
	// context_id is not the recipe's.
	CodeContextMismatch Code = "context_mismatch"
	// CodeBudget: the replay's shared allowance (attempts, operations,
	// bytes, deadline) would be exceeded.
	CodeBudget Code = "replay_budget"
	// CodeBusy: the server is building as many indexes as it allows, or
	// has spent its budget of builds of versions it does not serve; the
	// replay is refused before any read, with a Retry-After.
	CodeBusy Code = "replay_busy"
	// CodeSourceUnavailable: the source version is not retained here
	// (never loaded by this deployment, or evicted by retention).
	CodeSourceUnavailable Code = "source_unavailable"
	// CodeSourceIntegrity: the retained bytes no longer hash to their
	// version; nothing is rebuilt from them, and no other engine is tried.
	CodeSourceIntegrity Code = "source_integrity"
	// CodeInvalidRequest: the request, recipe or fragment is malformed.
	CodeInvalidRequest Code = "invalid_request"
	// CodeUnavailable: the store could not be read.
	CodeUnavailable Code = "replay_unavailable"
)

// Error is a replay refusal. Message is fixed text: it never quotes the
// question, the fragment or the source.
type Error struct {
	Code    Code
	Message string
	Err     error // the cause, for logs
	// RetryAfter is when a CodeBusy replay may be tried again.
	RetryAfter time.Duration
}

func (e *Error) Error() string { return "replay: " + string(e.Code) + ": " + e.Message }

func (e *Error) Unwrap() error { return e.Err }

// Status is the HTTP status a code is answered with.
func (c Code) Status() int {
	switch c {
	case CodeInvalidRequest:
		return http.StatusBadRequest
	case CodeEngineUnavailable, CodeSourceUnavailable, CodeHistoricalUnavailable:
		return http.StatusNotFound
	case CodeEngineIncompatible, CodeHistoricalAmbiguous, CodeContextMismatch:
		return http.StatusConflict
	case CodeBudget, CodeUnavailable, CodeBusy:
		return http.StatusServiceUnavailable
	}
	return http.StatusInternalServerError // CodeSourceIntegrity and anything unknown
}

func fail(code Code, msg string) *Error { return &Error{Code: code, Message: msg} }

var (
	errUnknownEngine  = fail(CodeEngineUnavailable, "the recipe's engine is not retained by this server")
	errIncompatible   = fail(CodeEngineIncompatible, "the recipe's engine is not permitted for its source version")
	errNoSource       = fail(CodeSourceUnavailable, "the recipe's source version is not retained by this server")
	errIntegrity      = fail(CodeSourceIntegrity, "the retained source does not match its version")
	errHistorical     = fail(CodeHistoricalUnavailable, "no permitted engine rebuilt the expected context")
	errAmbiguous      = fail(CodeHistoricalAmbiguous, "engines rebuilt the expected context with different bytes")
	errMismatch       = fail(CodeContextMismatch, "the engine did not rebuild the expected context")
	errDeadline       = fail(CodeBudget, "the replay's deadline passed")
	errBuildFailed    = fail(CodeUnavailable, "the retained version could not be rebuilt")
	errTooManyEngines = fail(CodeBudget, "more than two engines are permitted for this source; a historical replay tries at most two")
)

// errBusy refuses a replay that needs a build the server's limits do not
// allow now; it may be tried again after wait.
func errBusy(wait time.Duration) *Error {
	return &Error{Code: CodeBusy, Message: "the server is rebuilding as many retained versions as it allows; try again later", RetryAfter: wait}
}
