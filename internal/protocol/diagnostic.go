package protocol

// Diagnostic is the public, payload-free description of a failure:
// {code, message, retryable} on the wire. It implements error.
type Diagnostic struct {
	Code      Code   `json:"code"`
	Message   string `json:"message"`
	Retryable bool   `json:"retryable"`
}

func (d *Diagnostic) Error() string { return "protocol: " + string(d.Code) + ": " + d.Message }

// Messages of the deterministic plane. They name the rule that failed and
// never quote the input.
const (
	msgInvalidPayload     = "Deterministic payload is invalid."
	msgInvalidJSON        = "Deterministic payload is not valid JSON."
	msgUnsupportedVersion = "Deterministic payload version is not supported."
	msgLimitExceeded      = "Deterministic payload exceeds its size limit."
	msgHashMismatch       = "Deterministic artifact content hash does not match."
)

func invalid() *Diagnostic {
	return &Diagnostic{Code: CodeInvalidPayload, Message: msgInvalidPayload}
}

func invalidJSON() *Diagnostic {
	return &Diagnostic{Code: CodeInvalidPayload, Message: msgInvalidJSON}
}

func unsupportedVersion() *Diagnostic {
	return &Diagnostic{Code: CodeUnsupportedVersion, Message: msgUnsupportedVersion}
}

func limitExceeded() *Diagnostic {
	return &Diagnostic{Code: CodeLimitExceeded, Message: msgLimitExceeded}
}

func hashMismatch() *Diagnostic {
	return &Diagnostic{Code: CodeHashMismatch, Message: msgHashMismatch}
}
