package corpus

// Stable error codes. Callers (the Ask handler, `askplane verify`, logs)
// switch on these, never on messages, so they must not change.
const (
	CodeRead        = "corpus.read.failed"      // a file could not be read
	CodeTooLarge    = "corpus.too-large"        // a file exceeds its byte bound
	CodeManifest    = "corpus.manifest.invalid" // the manifest is not askplane.manifest v1
	CodeMissing     = "corpus.missing"          // the manifest names no corpus
	CodeInvalid     = "corpus.invalid"          // the corpus is not a valid askplane.corpus
	CodeUnsupported = "corpus.version.unsupported"
	CodeMismatch    = "corpus.hash.mismatch" // the bytes do not hash to the pinned contentHash
)

// Error is every error this package returns. Messages describe what was
// wrong without echoing file content, because they reach logs.
type Error struct {
	Code    string
	Message string
	Err     error // the underlying I/O error, if any
}

func (e *Error) Error() string { return "corpus: " + e.Code + ": " + e.Message }

func (e *Error) Unwrap() error { return e.Err }

func fail(code, msg string) *Error { return &Error{Code: code, Message: msg} }
