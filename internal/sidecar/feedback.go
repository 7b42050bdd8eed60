package sidecar

import (
	"errors"
	"io"
	"net/http"
	"os"
	"time"

	"github.com/askplane/askplane/internal/access"
	"github.com/askplane/askplane/internal/apierr"
	"github.com/askplane/askplane/internal/ecmajson"
	"github.com/askplane/askplane/internal/grounding"
	"github.com/askplane/askplane/internal/insights"
	"github.com/askplane/askplane/internal/limit"
	"github.com/askplane/askplane/internal/metrics"
	"github.com/askplane/askplane/internal/protocol"
)

// The context_ids a site issued lately, which feedback is checked against:
// at most issuedContexts a site, each for issuedContextTTL.
const (
	issuedContexts   = 16384
	issuedContextTTL = 24 * time.Hour
)

// newContextLog is the bounded record of issued context_ids: the newest
// issuedContexts, each remembered until issuedContextTTL after it was
// last issued (about 150 bytes an id).
func newContextLog(now func() time.Time) *limit.Recent[struct{}] {
	return limit.NewRecent[struct{}](issuedContexts, issuedContextTTL, now)
}

// MaxFeedbackBytes bounds a feedback body: {"context_id":"sha256:<64>",
// "verdict":"not_helpful"} is 107 bytes.
const MaxFeedbackBytes = 256

// Feedback verdicts, the only values of the metric's verdict label.
const (
	VerdictHelpful    = "helpful"
	VerdictNotHelpful = "not_helpful"
)

// ExactReport is the whole body of the widget's report that it answered
// a question in the page, from the site's exact facts: no question, no
// fact, nothing the reader typed. It counts in insights as one question
// answered without the backend.
const ExactReport = `{"outcome":"exact"}`

// feedbackHandler is a site's POST /v1/feedback?corpus=<id>, which takes
// two bodies, both behind agentGate, the rules of its /v1/ask (the
// guard's Host and Origin rules, the address's budget, tokens, the
// subject's budget):
//
//   - a reader's verdict on one backend answer, named by the answer's
//     evidence context_id and nothing the reader typed, when the site's
//     config sets "feedback": true (else 404 FEEDBACK_DISABLED). It is
//     counted in askplane_feedback_total{site,verdict} when this
//     instance issued that context_id within issuedContextTTL, else in
//     askplane_feedback_unverified_total{site,verdict}; when the site
//     records insights and this instance gave that answer lately, it is
//     also queued to insights with the pages the answer cited;
//   - the widget's report of an exact answer (ExactReport), when the
//     site's config turns insights on (else 404 INSIGHTS_DISABLED):
//     queued to insights as an "exact" outcome of the reader (the
//     subject of a valid anonymous cookie, minting none; else the
//     gate's subject), with no terms and no pages.
//
// A site with neither answers 404 FEEDBACK_DISABLED to anything.
func (st *site) feedbackHandler(edge *edgeLimits, subjects limit.Limiter, prom *metrics.Prometheus) http.Handler {
	if !st.cfg.Feedback && st.insights == nil {
		return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			apierr.CloseUnread(w, r)
			apierr.Write(w, errFeedbackDisabled)
		})
	}
	var known *access.CookieAuth
	if st.secret != nil {
		known = &access.CookieAuth{SiteID: st.record.SiteID, Secret: st.secret}
	}
	corpusID, siteID := st.record.Corpus.ID, st.record.SiteID
	return st.cors(st.subjectGate(edge, subjects, func(w http.ResponseWriter, r *http.Request, subject string) {
		// reader is who insights count: the reader of a valid anonymous
		// cookie (none is minted here), else the gate's subject.
		reader := func(subject string) string {
			if known != nil {
				if s, ok := known.Known(r); ok {
					return s
				}
			}
			return subject
		}
		verdict, contextID, status, code := readFeedback(w, r, corpusID)
		if status != 0 {
			apierr.CloseUnread(w, r)
			if status == http.StatusForbidden {
				access.WriteForbidden(w)
				return
			}
			apierr.Write(w, &apierr.Error{Status: status, Code: code, Message: "The feedback is not valid."})
			return
		}
		switch {
		case verdict == outcomeExact && st.insights == nil:
			apierr.Write(w, &apierr.Error{Status: http.StatusNotFound, Code: "INSIGHTS_DISABLED", Message: "This site does not record insights."})
			return
		case verdict == outcomeExact:
			st.insights.Add(grounding.Outcome{Kind: insights.OutcomeExact, Subject: reader(subject)})
		case !st.cfg.Feedback:
			apierr.Write(w, errFeedbackDisabled)
			return
		default:
			if prom != nil {
				// A context_id this instance did not issue lately (made
				// up, too old, or another instance's) is counted apart.
				if _, ok := st.issued.Get(contextID); ok {
					prom.Feedback(siteID, verdict)
				} else {
					prom.FeedbackUnverified(siteID, verdict)
				}
			}
			// Insights keep the verdict with the pages the answer cited,
			// when this instance gave that answer lately.
			if pages, ok := st.answers.Pages(contextID); ok {
				st.insights.Add(grounding.Outcome{Kind: grounding.OutcomeKind(verdict), Subject: reader(subject), Pages: pages})
			}
		}
		w.Header().Set("Cache-Control", "no-store")
		w.WriteHeader(http.StatusNoContent)
	}))
}

var errFeedbackDisabled = &apierr.Error{Status: http.StatusNotFound, Code: "FEEDBACK_DISABLED", Message: "This site does not take feedback."}

// outcomeExact is what readFeedback returns as the verdict of an exact
// answer's report.
const outcomeExact = "exact"

// readFeedback checks a feedback request strictly: POST, a JSON content
// type, exactly one corpus hint naming the site's corpus, a body of at
// most MaxFeedbackBytes that is one object with exactly context_id (a
// sha256 identity) and verdict (helpful or not_helpful), or exactly
// outcome "exact" (ExactReport, returned as the verdict outcomeExact).
// It returns the verdict, or the status and code to refuse with.
func readFeedback(w http.ResponseWriter, r *http.Request, corpusID string) (verdict, contextID string, status int, code protocol.Code) {
	if r.Method != http.MethodPost {
		w.Header().Set("Allow", http.MethodPost)
		return "", "", http.StatusMethodNotAllowed, "FEEDBACK_METHOD"
	}
	if hints := r.URL.Query()["corpus"]; len(hints) != 1 || hints[0] != corpusID {
		return "", "", http.StatusForbidden, ""
	}
	if ct := r.Header.Get("Content-Type"); ct != "application/json" && ct != "application/json; charset=utf-8" {
		return "", "", http.StatusUnsupportedMediaType, "FEEDBACK_INVALID"
	}
	raw, err := io.ReadAll(http.MaxBytesReader(w, r.Body, MaxFeedbackBytes))
	if err != nil {
		var tooLarge *http.MaxBytesError
		if errors.As(err, &tooLarge) {
			return "", "", http.StatusRequestEntityTooLarge, "FEEDBACK_TOO_LARGE"
		}
		if errors.Is(err, os.ErrDeadlineExceeded) {
			return "", "", http.StatusRequestTimeout, "FEEDBACK_TIMEOUT"
		}
		return "", "", http.StatusBadRequest, "FEEDBACK_INVALID"
	}
	fields, ok := strictStrings(raw)
	if ok && len(fields) == 1 && fields["outcome"] == outcomeExact {
		return outcomeExact, "", 0, ""
	}
	if !ok || len(fields) != 2 || !protocol.ValidContentHash(fields["context_id"]) ||
		fields["verdict"] != VerdictHelpful && fields["verdict"] != VerdictNotHelpful {
		return "", "", http.StatusBadRequest, "FEEDBACK_INVALID"
	}
	return fields["verdict"], fields["context_id"], 0, ""
}

// strictStrings decodes raw as one JSON object whose members are all
// strings, each named once, with nothing after it: ecmajson keeps every
// member the text holds, repeated ones too, so a repeat is seen.
func strictStrings(raw []byte) (map[string]string, bool) {
	v, ok := ecmajson.Parse(raw)
	if !ok || v.Kind != ecmajson.Object {
		return nil, false
	}
	out := map[string]string{}
	for k, m := range v.Members() {
		if _, dup := out[k]; dup || m.Kind != ecmajson.String {
			return nil, false
		}
		out[k] = m.Str
	}
	return out, true
}
