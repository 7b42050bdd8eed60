package generate

// Error is a generation failure with a stable code; the handler maps any
// of them to ASK_GENERATION_FAILED without showing the message.
type Error struct {
	Code    string
	Message string
}

func (e *Error) Error() string { return "generate: " + e.Code + ": " + e.Message }

// Codes.
const (
	CodeNoEvidence = "generate.no-evidence" // the package has no records
	CodeEmpty      = "generate.empty"       // the generator produced no text
)

// ErrNoEvidence is returned when asked to answer from an insufficient
// package; the handler should have answered ASK_NO_GROUNDED_SOURCES
// before generating.
var ErrNoEvidence error = &Error{Code: CodeNoEvidence, Message: "the evidence package has no records"}

// ErrEmpty is returned by Run when a generator emitted no text.
var ErrEmpty error = &Error{Code: CodeEmpty, Message: "the generator produced no answer text"}
