package ask

import (
	"context"
	"net/http"
	"time"

	"github.com/askplane/askplane/internal/evidence"
	"github.com/askplane/askplane/internal/grounding"
	"github.com/askplane/askplane/internal/protocol"
)

// Durable answers an admitted question as a durable run instead of a
// live stream: internal/askrun's Runs. The handler calls Answer after
// admission and retrieval, without the generations gate (a run outlives
// its request; its site's runs in flight are bounded by the run store).
type Durable interface {
	// Answer writes the answer to w. It returns an error only before it
	// wrote anything (an *apierr.Error, or any other for 500 ASK_INTERNAL),
	// which the handler then answers as any refusal.
	Answer(ctx context.Context, w http.ResponseWriter, r *http.Request, t Turn) error
}

// Turn is what admission and retrieval established for one question,
// passed on by value: who asks and for which site, the turn (the
// session, the merged history, the question) and the evidence.
type Turn struct {
	RequestID string
	Start     time.Time
	Site      *protocol.BackendSite
	Subject   string
	SessionID string
	Revision  int                   // the loaded session's revision
	Merged    []protocol.AskMessage // the stored history with this question
	Question  string                // the trimmed latest user turn
	Evidence  *evidence.Package     // from an EvidenceRetriever, else nil
	Sources   []grounding.Source    // valid, within the site's maxSources
}

func newTurn(f found) Turn {
	return Turn{RequestID: f.id, Start: f.start, Site: f.site, Subject: f.subject, SessionID: f.req.SessionID,
		Revision: f.rev, Merged: f.merged, Question: f.question, Evidence: f.pkg, Sources: f.sources}
}

// ErrShutdown is the cause of a request context that the server's
// shutdown (Config.Shutdown) ended.
var ErrShutdown = errShutdown

// EvidenceLink is the Link header of an answer built from p, and false
// when it is too long to send (MaxEvidenceLinkBytes).
func EvidenceLink(corpusID string, p *evidence.Package) (string, bool) {
	return evidenceLink(corpusID, p)
}
