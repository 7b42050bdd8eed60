package replay

import "time"

// Limits bound one replay, every attempt together.
type Limits struct {
	// Attempts bounds the engines tried; at most MaxAttempts.
	Attempts int
	// Operations bounds store operations (a source's description and its
	// bytes are one each).
	Operations int
	// TransferBytes bounds bytes read from the store; a source is read at
	// most once per replay.
	TransferBytes int64
	// DecodeBytes bounds bytes decoded into an engine, counted on every
	// build, a second engine's included.
	DecodeBytes int64
	// Timeout is the one deadline of the whole replay.
	Timeout time.Duration
}

// MaxAttempts is the most engines a replay tries, whatever Limits say.
const MaxAttempts = 2

// DefaultLimits: two attempts, four operations, one 64 MiB corpus read
// and two decodes of it, 10 seconds.
func DefaultLimits() Limits {
	return Limits{Attempts: MaxAttempts, Operations: 4, TransferBytes: 64 << 20, DecodeBytes: 128 << 20, Timeout: 10 * time.Second}
}

func (l Limits) or(def Limits) Limits {
	if l.Attempts <= 0 || l.Attempts > MaxAttempts {
		l.Attempts = def.Attempts
	}
	if l.Operations <= 0 {
		l.Operations = def.Operations
	}
	if l.TransferBytes <= 0 {
		l.TransferBytes = def.TransferBytes
	}
	if l.DecodeBytes <= 0 {
		l.DecodeBytes = def.DecodeBytes
	}
	if l.Timeout <= 0 {
		l.Timeout = def.Timeout
	}
	return l
}

// allowance is one replay's share of Limits, reserved before the work it
// pays for, so a refusal happens before any I/O. A replay's attempts run
// one after another, so it needs no lock.
type allowance struct {
	lim                  Limits
	attempts, ops        int
	transferred, decoded int64
	deadline             time.Time
	now                  func() time.Time
}

func (a *allowance) reserve(attempts, ops int, transfer, decode int64) error {
	if a.attempts+attempts > a.lim.Attempts || a.ops+ops > a.lim.Operations ||
		a.transferred+transfer > a.lim.TransferBytes || a.decoded+decode > a.lim.DecodeBytes {
		return fail(CodeBudget, "the replay's shared allowance would be exceeded")
	}
	a.attempts += attempts
	a.ops += ops
	a.transferred += transfer
	a.decoded += decode
	return nil
}

// expired reports whether the deadline has passed.
func (a *allowance) expired() bool { return !a.now().Before(a.deadline) }
