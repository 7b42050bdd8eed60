package ask

import (
	"net/http"
	"strconv"
	"time"

	"github.com/askplane/askplane/internal/ecmajson"
	"github.com/askplane/askplane/internal/protocol"
)

// Error is a failure the handler reports before the stream starts: a status
// and the public diagnostic {code, message, retryable}. Pipeline steps
// return it; writeError turns it into the response. Messages are fixed
// strings that never echo the request or an internal cause.
type Error struct {
	Status     int
	Code       protocol.Code
	Message    string
	Retryable  bool
	RetryAfter time.Duration // > 0 adds a retry-after header (whole seconds, rounded up)
}

func (e *Error) Error() string { return "ask: " + string(e.Code) + ": " + e.Message }

// Public messages.
const (
	msgMethod            = "The Ask endpoint accepts POST only."
	msgContentType       = "The Ask request must be application/json."
	msgInternal          = "The Ask service failed."
	msgForbidden         = "The Ask request is not allowed for this site."
	msgOriginForbidden   = "The Ask request origin is not allowed."
	msgRateLimited       = "Too many Ask requests; try again later."
	msgTooLarge          = "Ask request body is too large."
	msgNoBody            = "Ask request body is empty."
	msgNoQuestion        = "A user question is required."
	msgTimeout           = "The Ask request timed out."
	msgCancelled         = "The Ask request was cancelled."
	msgRetrieval         = "The Ask sources could not be retrieved."
	msgNoSources         = "No grounded sources were found for this question."
	msgNotCited          = "The answer cited no grounded source."
	msgGeneration        = "The Ask answer could not be generated."
	msgConflict          = "The Ask session changed concurrently."
	msgShuttingDown      = "The Ask service is restarting; ask again."
	msgBusy              = "The Ask service is busy; try again shortly."
	msgLimitsUnavailable = "The Ask service cannot check its limits now; try again shortly."
	msgNoSession         = "This site keeps conversations: the Ask request needs a sessionId."
	msgCannotSave        = "The Ask service cannot save conversations now; try again shortly."
)

// The messages and refusals internal/askrun's durable answers share
// with the live ones.
const (
	MsgInternal   = msgInternal
	MsgBusy       = msgBusy
	MsgConflict   = msgConflict
	MsgCancelled  = msgCancelled
	MsgTimeout    = msgTimeout
	MsgGeneration = msgGeneration
	MsgNotCited   = msgNotCited
)

var (
	ErrInternal  = errInternal
	ErrNoSources = errNoSources
)

var (
	errMethod       = &Error{Status: http.StatusMethodNotAllowed, Code: protocol.CodeAskInvalidRequest, Message: msgMethod}
	errContentType  = &Error{Status: http.StatusUnsupportedMediaType, Code: protocol.CodeAskInvalidRequest, Message: msgContentType}
	errInternal     = &Error{Status: http.StatusInternalServerError, Code: protocol.CodeAskInternal, Message: msgInternal, Retryable: true}
	errForbidden    = &Error{Status: http.StatusForbidden, Code: protocol.CodeAskForbidden, Message: msgForbidden}
	errTooLarge     = &Error{Status: http.StatusRequestEntityTooLarge, Code: protocol.CodeAskInvalidRequest, Message: msgTooLarge}
	errNoBody       = &Error{Status: http.StatusBadRequest, Code: protocol.CodeAskInvalidRequest, Message: msgNoBody}
	errNoSession    = &Error{Status: http.StatusBadRequest, Code: protocol.CodeAskInvalidRequest, Message: msgNoSession}
	errNoQuestion   = &Error{Status: http.StatusBadRequest, Code: protocol.CodeAskInvalidRequest, Message: msgNoQuestion}
	errTimeout      = &Error{Status: http.StatusRequestTimeout, Code: protocol.CodeAskTimeout, Message: msgTimeout, Retryable: true}
	errCancelled    = &Error{Status: 499, Code: protocol.CodeAskCancelled, Message: msgCancelled, Retryable: true}
	errRetrieval    = &Error{Status: http.StatusBadGateway, Code: protocol.CodeAskRetrievalFailed, Message: msgRetrieval, Retryable: true}
	errShuttingDown = &Error{Status: http.StatusServiceUnavailable, Code: protocol.CodeAskInternal, Message: msgShuttingDown, Retryable: true, RetryAfter: time.Second}
	// errCannotSave refuses, before anything streams, an answer a site
	// must save while the store's writes fail.
	errCannotSave = &Error{Status: http.StatusServiceUnavailable, Code: protocol.CodeAskInternal, Message: msgCannotSave, Retryable: true, RetryAfter: time.Second}
	errNoSources  = &Error{Status: http.StatusUnprocessableEntity, Code: protocol.CodeAskNoGroundedSources, Message: msgNoSources}
)

// badRequest maps a protocol decode diagnostic to a 400.
func badRequest(d *protocol.Diagnostic) *Error {
	return &Error{Status: http.StatusBadRequest, Code: protocol.CodeAskInvalidRequest, Message: d.Message}
}

// writeError sends e as {"error":{"code","message","retryable"}} with
// content-type application/json; charset=utf-8, cache-control no-store and
// (when set) retry-after. x-request-id is set by the handler beforehand.
func writeError(w http.ResponseWriter, e *Error) {
	h := w.Header()
	h.Set("Content-Type", "application/json; charset=utf-8")
	h.Set("Cache-Control", "no-store")
	h.Set("X-Content-Type-Options", "nosniff")
	if e.RetryAfter > 0 {
		secs := (e.RetryAfter + time.Second - 1) / time.Second
		h.Set("Retry-After", strconv.FormatInt(int64(secs), 10))
	}
	body := errorBody(e)
	h.Set("Content-Length", strconv.Itoa(len(body)))
	w.WriteHeader(e.Status)
	w.Write(body)
}

func errorBody(e *Error) []byte {
	var w ecmajson.Writer
	w.BeginObject()
	w.Key("error")
	w.BeginObject()
	w.StringMember("code", string(e.Code))
	w.StringMember("message", e.Message)
	w.Key("retryable")
	w.Bool(e.Retryable)
	w.EndObject()
	w.EndObject()
	return w.Bytes()
}

// WriteForbidden sends the 403 ASK_FORBIDDEN error response, for a router
// in front of several handlers that can trust no site for a request (one
// whose ?corpus= hint is missing or names no configured corpus), so the
// client sees exactly the body and headers a Handler sends.
func WriteForbidden(w http.ResponseWriter) { writeError(w, errForbidden) }

// WriteRateLimited writes 429 ASK_RATE_LIMITED with Retry-After, for the
// routes beside the handler (MCP) that share its budgets.
func WriteRateLimited(w http.ResponseWriter, after time.Duration) { writeError(w, rateLimited(after)) }

// WriteError writes e as every refusal of the handler is written, for
// the routes beside it (feedback) with codes of their own.
func WriteError(w http.ResponseWriter, e *Error) { writeError(w, e) }

// WriteUnauthorized writes 401 ASK_UNAUTHORIZED with a Bearer challenge.
func WriteUnauthorized(w http.ResponseWriter) { unauthorized(w) }
