package protocol

import "errors"

// AsDiagnostic returns err as a *Diagnostic. Any other error becomes the
// generic INVALID_PAYLOAD diagnostic, so nothing internal leaks to a wire.
func AsDiagnostic(err error) *Diagnostic {
	if err == nil {
		return nil
	}
	var d *Diagnostic
	if errors.As(err, &d) {
		return d
	}
	return invalid()
}
