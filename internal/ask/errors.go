package ask

import (
	"net/http"
	"time"

	"github.com/askplane/askplane/internal/apierr"
	"github.com/askplane/askplane/internal/protocol"
)

// Public messages.
const (
	msgMethod       = "The Ask endpoint accepts POST only."
	msgContentType  = "The Ask request must be application/json."
	msgInternal     = "The Ask service failed."
	msgTooLarge     = "Ask request body is too large."
	msgNoBody       = "Ask request body is empty."
	msgNoQuestion   = "A user question is required."
	msgTimeout      = "The Ask request timed out."
	msgCancelled    = "The Ask request was cancelled."
	msgRetrieval    = "The Ask sources could not be retrieved."
	msgNoSources    = "No grounded sources were found for this question."
	msgNotCited     = "The answer cited no grounded source."
	msgGeneration   = "The Ask answer could not be generated."
	msgConflict     = "The Ask session changed concurrently."
	msgShuttingDown = "The Ask service is restarting; ask again."
	msgBusy         = "The Ask service is busy; try again shortly."
	msgNoSession    = "This site keeps conversations: the Ask request needs a sessionId."
	msgCannotSave   = "The Ask service cannot save conversations now; try again shortly."
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
	errMethod       = &apierr.Error{Status: http.StatusMethodNotAllowed, Code: protocol.CodeAskInvalidRequest, Message: msgMethod}
	errContentType  = &apierr.Error{Status: http.StatusUnsupportedMediaType, Code: protocol.CodeAskInvalidRequest, Message: msgContentType}
	errInternal     = &apierr.Error{Status: http.StatusInternalServerError, Code: protocol.CodeAskInternal, Message: msgInternal, Retryable: true}
	errForbidden    = apierr.Forbidden
	errTooLarge     = &apierr.Error{Status: http.StatusRequestEntityTooLarge, Code: protocol.CodeAskInvalidRequest, Message: msgTooLarge}
	errNoBody       = &apierr.Error{Status: http.StatusBadRequest, Code: protocol.CodeAskInvalidRequest, Message: msgNoBody}
	errNoSession    = &apierr.Error{Status: http.StatusBadRequest, Code: protocol.CodeAskInvalidRequest, Message: msgNoSession}
	errNoQuestion   = &apierr.Error{Status: http.StatusBadRequest, Code: protocol.CodeAskInvalidRequest, Message: msgNoQuestion}
	errTimeout      = &apierr.Error{Status: http.StatusRequestTimeout, Code: protocol.CodeAskTimeout, Message: msgTimeout, Retryable: true}
	errCancelled    = &apierr.Error{Status: 499, Code: protocol.CodeAskCancelled, Message: msgCancelled, Retryable: true}
	errRetrieval    = &apierr.Error{Status: http.StatusBadGateway, Code: protocol.CodeAskRetrievalFailed, Message: msgRetrieval, Retryable: true}
	errShuttingDown = &apierr.Error{Status: http.StatusServiceUnavailable, Code: protocol.CodeAskInternal, Message: msgShuttingDown, Retryable: true, RetryAfter: time.Second}
	// errCannotSave refuses, before anything streams, an answer a site
	// must save while the store's writes fail.
	errCannotSave = &apierr.Error{Status: http.StatusServiceUnavailable, Code: protocol.CodeAskInternal, Message: msgCannotSave, Retryable: true, RetryAfter: time.Second}
	errNoSources  = &apierr.Error{Status: http.StatusUnprocessableEntity, Code: protocol.CodeAskNoGroundedSources, Message: msgNoSources}
)

// badRequest maps a protocol decode diagnostic to a 400.
func badRequest(d *protocol.Diagnostic) *apierr.Error {
	return &apierr.Error{Status: http.StatusBadRequest, Code: protocol.CodeAskInvalidRequest, Message: d.Message}
}
