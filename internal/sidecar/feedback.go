package sidecar

import (
	"errors"
	"io"
	"net/http"
	"os"

	"github.com/askplane/askplane/internal/ask"
	"github.com/askplane/askplane/internal/ecmajson"
	"github.com/askplane/askplane/internal/limit"
	"github.com/askplane/askplane/internal/protocol"
)

// MaxFeedbackBytes bounds a feedback body: {"context_id":"sha256:<64>",
// "verdict":"not_helpful"} is 107 bytes.
const MaxFeedbackBytes = 256

// Feedback verdicts, the only values of the metric's verdict label.
const (
	VerdictHelpful    = "helpful"
	VerdictNotHelpful = "not_helpful"
)

// feedbackHandler is a site's POST /v1/feedback?corpus=<id>: a reader's
// verdict on one backend answer, named by the answer's evidence
// context_id and nothing the reader typed. It is counted in
// askplane_feedback_total{site,verdict} and kept nowhere else. A site
// whose config does not set "feedback": true answers 404
// FEEDBACK_DISABLED; one that does puts the handler behind agentGate, the
// rules of its /v1/ask (the guard's Host and Origin rules, the address's
// budget, tokens, the subject's budget).
func (st *site) feedbackHandler(edge *edgeLimits, subjects limit.Limiter, metrics *ask.Prometheus) http.Handler {
	if !st.cfg.Feedback {
		return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			ask.CloseUnread(w, r)
			ask.WriteError(w, &ask.Error{Status: http.StatusNotFound, Code: "FEEDBACK_DISABLED", Message: "This site does not take feedback."})
		})
	}
	corpusID, siteID := st.record.Corpus.ID, st.record.SiteID
	return st.cors(st.agentGate(edge, subjects, http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		verdict, status, code := readFeedback(w, r, corpusID)
		if status != 0 {
			ask.CloseUnread(w, r)
			if status == http.StatusForbidden {
				writeForbidden(w)
				return
			}
			ask.WriteError(w, &ask.Error{Status: status, Code: code, Message: "The feedback is not valid."})
			return
		}
		if metrics != nil {
			metrics.Feedback(siteID, verdict)
		}
		w.Header().Set("Cache-Control", "no-store")
		w.WriteHeader(http.StatusNoContent)
	})))
}

// readFeedback checks a feedback request strictly: POST, a JSON content
// type, exactly one corpus hint naming the site's corpus, a body of at
// most MaxFeedbackBytes that is one object with exactly context_id (a
// sha256 identity) and verdict (helpful or not_helpful). It returns the
// verdict, or the status and code to refuse with.
func readFeedback(w http.ResponseWriter, r *http.Request, corpusID string) (verdict string, status int, code protocol.Code) {
	if r.Method != http.MethodPost {
		w.Header().Set("Allow", http.MethodPost)
		return "", http.StatusMethodNotAllowed, "FEEDBACK_METHOD"
	}
	if hints := r.URL.Query()["corpus"]; len(hints) != 1 || hints[0] != corpusID {
		return "", http.StatusForbidden, ""
	}
	if ct := r.Header.Get("Content-Type"); ct != "application/json" && ct != "application/json; charset=utf-8" {
		return "", http.StatusUnsupportedMediaType, "FEEDBACK_INVALID"
	}
	raw, err := io.ReadAll(http.MaxBytesReader(w, r.Body, MaxFeedbackBytes))
	if err != nil {
		var tooLarge *http.MaxBytesError
		if errors.As(err, &tooLarge) {
			return "", http.StatusRequestEntityTooLarge, "FEEDBACK_TOO_LARGE"
		}
		if errors.Is(err, os.ErrDeadlineExceeded) {
			return "", http.StatusRequestTimeout, "FEEDBACK_TIMEOUT"
		}
		return "", http.StatusBadRequest, "FEEDBACK_INVALID"
	}
	fields, ok := strictStrings(raw)
	if !ok || len(fields) != 2 || !protocol.ValidContentHash(fields["context_id"]) ||
		fields["verdict"] != VerdictHelpful && fields["verdict"] != VerdictNotHelpful {
		return "", http.StatusBadRequest, "FEEDBACK_INVALID"
	}
	return fields["verdict"], 0, ""
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
