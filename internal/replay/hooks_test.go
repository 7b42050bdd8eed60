package replay

import "errors"

// CodeOf returns the Code of the first *Error in err's chain, or "".
func CodeOf(err error) Code {
	var e *Error
	if errors.As(err, &e) {
		return e.Code
	}
	return ""
}

// waiting is the replays waiting for a build.
func (r *Replayer) waiting() int { return r.cfg.Builds.Stats().Waiting }
