package limit

import "time"

// Rate is a budget: Requests per Window, of which all Requests may be
// spent at once (the burst) and which refills evenly, one request every
// Window/Requests.
type Rate struct {
	Requests int
	Window   time.Duration
}

// Bounds of a Rate. The window is at most a day so that a forgotten key
// (see Keyed) never owed much, and at least a millisecond so that a typo
// in the unit does not turn a limit into none.
const (
	MaxRateRequests = 1_000_000
	MinRateWindow   = time.Millisecond
	MaxRateWindow   = 24 * time.Hour
)

// Validate returns ErrRate unless r is within the bounds.
func (r Rate) Validate() error {
	if r.Requests < 1 || r.Requests > MaxRateRequests ||
		r.Window < MinRateWindow || r.Window > MaxRateWindow {
		return ErrRate
	}
	return nil
}

// interval is the time one request's budget takes to refill, at least
// 1 ns within the bounds. It rounds down, so Requests*interval <= Window:
// the burst is always the whole of Requests, and the refill is at most a
// few nanoseconds fast.
func (r Rate) interval() time.Duration { return r.Window / time.Duration(r.Requests) }
