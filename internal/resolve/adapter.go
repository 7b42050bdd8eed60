package resolve

import "github.com/askplane/askplane/internal/protocol"

// Action says where a resolved question goes next.
type Action uint8

const (
	// Local: serve Decision.Envelope to the user as is.
	Local Action = iota
	// Escalate: call the Ask backend, passing Decision.Envelope as the
	// escalation that explains why the local plane did not answer.
	Escalate
)

// Decision is the adapter's verdict on one resolved envelope.
type Decision struct {
	Action   Action
	Envelope *protocol.Envelope
}

// Decide applies the site's fallback mode to a resolver result. Answers and
// choices are always served locally. An escalation goes to the backend only
// when the site allows it (mode backend) and a backend is there; otherwise
// it is served locally, with a miss turned into offline, since "a backend
// answer is required" is no use to a reader when there is no backend. Stale
// and corrupt keep their reason even offline: they say what is wrong with
// the local knowledge, which stays true.
//
// env is not modified; a nil env is treated as a corrupt escalation.
func Decide(env *protocol.Envelope, mode protocol.FallbackMode, backendAvailable bool) Decision {
	if env == nil {
		env = protocol.Escalate("", protocol.ReasonCorrupt)
	}
	if env.Outcome != protocol.OutcomeEscalation {
		return Decision{Action: Local, Envelope: env}
	}
	if mode == protocol.FallbackBackend && backendAvailable {
		return Decision{Action: Escalate, Envelope: env}
	}
	if env.Reason == protocol.ReasonMiss {
		off := &protocol.Envelope{
			Outcome: protocol.OutcomeEscalation, Query: env.Query, NormalizedQuery: env.NormalizedQuery,
			Message: protocol.MessageOffline, Reason: protocol.ReasonOffline,
			Confidence: protocol.Confidence{Level: protocol.LevelLow, Basis: string(protocol.ReasonOffline)},
		}
		return Decision{Action: Local, Envelope: off}
	}
	return Decision{Action: Local, Envelope: env}
}
