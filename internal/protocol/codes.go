package protocol

// Code is a stable diagnostic code. Wire codes are fixed by the protocol and
// never renamed; callers branch on them with errors.As, never on messages.
type Code string

// Deterministic plane codes (site config, knowledge artifact, answer envelope).
const (
	// CodeInvalidPayload: bad JSON, a schema failure, a wrong protocol
	// string, a non-numeric version, a siteId that differs from the trusted
	// one, or invalid trusted options.
	CodeInvalidPayload Code = "DETERMINISTIC_INVALID_PAYLOAD"
	// CodeUnsupportedVersion: the protocol string matches but the numeric
	// version is not 1. Checked before the schema.
	CodeUnsupportedVersion Code = "DETERMINISTIC_UNSUPPORTED_VERSION"
	// CodeLimitExceeded: a byte limit was hit before parsing.
	CodeLimitExceeded Code = "DETERMINISTIC_LIMIT_EXCEEDED"
	// CodeHashMismatch: the declared hash differs from the trusted one, or
	// the recomputed digest differs from the declared one.
	CodeHashMismatch Code = "DETERMINISTIC_HASH_MISMATCH"
)

// Ask backend codes (agentskit.chat.ask v1).
const (
	CodeAskInvalidRequest      Code = "ASK_INVALID_REQUEST"
	CodeAskUnauthorized        Code = "ASK_UNAUTHORIZED"
	CodeAskForbidden           Code = "ASK_FORBIDDEN"
	CodeAskRateLimited         Code = "ASK_RATE_LIMITED"
	CodeAskTimeout             Code = "ASK_TIMEOUT"
	CodeAskCancelled           Code = "ASK_CANCELLED"
	CodeAskRetrievalFailed     Code = "ASK_RETRIEVAL_FAILED"
	CodeAskNoGroundedSources   Code = "ASK_NO_GROUNDED_SOURCES"
	CodeAskGenerationFailed    Code = "ASK_GENERATION_FAILED"
	CodeAskPersistenceConflict Code = "ASK_PERSISTENCE_CONFLICT"
	CodeAskInternal            Code = "ASK_INTERNAL"
)

// Codes lists every wire code in registry order. Tests use it to check that
// templates, scripts and docs use only registered codes.
var Codes = []Code{
	CodeInvalidPayload, CodeUnsupportedVersion, CodeLimitExceeded, CodeHashMismatch,
	CodeAskInvalidRequest, CodeAskUnauthorized, CodeAskForbidden, CodeAskRateLimited,
	CodeAskTimeout, CodeAskCancelled, CodeAskRetrievalFailed, CodeAskNoGroundedSources,
	CodeAskGenerationFailed, CodeAskPersistenceConflict, CodeAskInternal,
}
