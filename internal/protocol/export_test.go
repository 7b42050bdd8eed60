package protocol

// CodeOf returns the code of err, or "" when err is nil. The tests compare
// codes with it; callers outside them turn errors into diagnostics with
// AsDiagnostic.
func CodeOf(err error) Code {
	if err == nil {
		return ""
	}
	return AsDiagnostic(err).Code
}
