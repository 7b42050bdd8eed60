package askrun

import (
	"bytes"
	"context"
	"encoding/json"
	"strconv"
	"time"

	"github.com/askplane/askplane/internal/evidence"
	"github.com/askplane/askplane/internal/grounding"
	"github.com/askplane/askplane/internal/protocol"
	"github.com/askplane/askplane/internal/provider"
)

// round is one completed tool round as the checkpoint holds it: the
// provider's turn (its sealed output, the calls, their outcomes in
// order) and the evidence of each search it ran, whose recipe (an
// evidence fragment, as the review link carries) rebuilds exactly the
// package the search returned.
type round struct {
	Turn     provider.Turn `json:"turn"`
	Searches []roundSearch `json:"searches,omitempty"`
}

type roundSearch struct {
	CallID    string   `json:"callId"`
	Query     string   `json:"query"`
	ContextID string   `json:"contextId"`
	Fragment  string   `json:"fragment"`
	Records   []string `json:"records"` // the ids the model was shown, best first
}

// shownRecord is a record a search showed the model: citable, and what
// read_record returns.
type shownRecord struct {
	ID    string `json:"id"`
	Title string `json:"title"`
	Href  string `json:"href"`
	Text  string `json:"text"`
}

// Outcome errors the model reads; fixed text, never the arguments.
const (
	msgToolArgs    = "the arguments do not match the tool's schema"
	msgToolQuery   = "the query must be 1 to 512 characters"
	msgToolSearch  = "the search failed; answer from the records you have"
	msgToolRecord  = "no record with that id was returned"
	msgToolUnknown = "no such tool"
)

// runCalls answers round k's calls in the model's order.
func (h *Runs) runCalls(ctx context.Context, er grounding.EvidenceRetriever, st *askState, runID string, k int, calls []provider.ToolCall, replay provider.Replay) (round, [][]byte, error) {
	rd := round{Turn: provider.Turn{Replay: replay, Calls: calls, Outcomes: make([]provider.ToolOutcome, 0, len(calls))}}
	var evs [][]byte
	for i, c := range calls {
		id := strconv.Itoa(k) + "-" + strconv.Itoa(i+1)
		var out provider.ToolOutcome
		switch c.Name {
		case toolSearch:
			o, s, err := h.searchCall(ctx, er, st, runID, c)
			if err != nil {
				return round{}, nil, err
			}
			out = o
			if s != nil {
				rd.Searches = append(rd.Searches, *s)
				link := evidence.ReviewPath(h.site.Corpus.ID, s.Fragment)
				evs = append(evs, toolEvent("search-"+id, "search", map[string]string{"query": s.Query, "context_id": s.ContextID, "evidence": link}))
			}
		case toolRead:
			var found string
			out, found = st.readCall(c)
			if found != "" {
				evs = append(evs, toolEvent("read-"+id, "read", map[string]string{"id": found}))
			}
		default:
			out = provider.ToolOutcome{Error: msgToolUnknown}
		}
		out.CallID = c.ID
		rd.Turn.Outcomes = append(rd.Turn.Outcomes, out)
	}
	return rd, evs, nil
}

// strictArgs decodes a call's arguments into v, refusing other members.
func strictArgs(raw json.RawMessage, v any) bool {
	dec := json.NewDecoder(bytes.NewReader(raw))
	dec.DisallowUnknownFields()
	return dec.Decode(v) == nil
}

// searchCall runs search_docs: the site's retrieval for the query,
// under the site's retrieval deadline, shown as at most maxToolResults
// valid records. A failed search is an outcome the model reads; only the
// run's own end (ctx) is an error.
func (h *Runs) searchCall(ctx context.Context, er grounding.EvidenceRetriever, st *askState, runID string, c provider.ToolCall) (provider.ToolOutcome, *roundSearch, error) {
	var a struct {
		Query *string `json:"query"`
	}
	if !strictArgs(c.Arguments, &a) || a.Query == nil {
		return provider.ToolOutcome{Error: msgToolArgs}, nil, nil
	}
	q := protocol.Trim(*a.Query)
	if q == "" || protocol.UTF16Len(q) > maxToolQueryLen {
		return provider.ToolOutcome{Error: msgToolQuery}, nil, nil
	}
	rctx, cancel := context.WithTimeout(ctx, time.Duration(h.site.Limits.RetrievalTimeoutMs)*time.Millisecond)
	defer cancel()
	pkg, err := er.RetrieveEvidence(rctx, grounding.Query{RequestID: runID, Site: &h.site, Text: q})
	if ctx.Err() != nil {
		return provider.ToolOutcome{}, nil, ctx.Err()
	}
	if err != nil || pkg == nil {
		h.log.Warn("ask: a tool search failed", "run", runID, "err", err)
		return provider.ToolOutcome{Error: msgToolSearch}, nil, nil
	}
	s := &roundSearch{CallID: c.ID, Query: q, ContextID: pkg.ContextID, Fragment: pkg.Recipe().Fragment(), Records: []string{}}
	type result struct {
		ID    string `json:"id"`
		Title string `json:"title"`
		Text  string `json:"text"`
	}
	res := struct {
		ContextID string   `json:"context_id"`
		Records   []result `json:"records"`
	}{ContextID: pkg.ContextID, Records: []result{}}
	for _, src := range grounding.Valid(grounding.FromPackage(pkg), min(maxToolResults, h.site.Limits.MaxSources)) {
		if !st.show(src) {
			continue // the run showed as many records as it may keep
		}
		s.Records = append(s.Records, src.ID)
		res.Records = append(res.Records, result{ID: src.ID, Title: src.Title, Text: protocol.TruncateRunes(src.Excerpt, maxToolExcerptLen)})
	}
	b, err := json.Marshal(res)
	if err != nil {
		return provider.ToolOutcome{}, nil, err
	}
	return provider.ToolOutcome{Result: b}, s, nil
}

// show makes src citable (once), unless the run already keeps
// maxShownRecords; it reports whether src may be shown.
func (st *askState) show(src grounding.Source) bool {
	if _, _, ok := st.findShown(src.ID); ok {
		return true
	}
	if len(st.Shown) >= maxShownRecords {
		return false
	}
	st.Shown = append(st.Shown, shownRecord{ID: src.ID, Title: src.Title, Href: src.Href, Text: protocol.TruncateRunes(src.Excerpt, maxShownTextLen)})
	return true
}

// readCall runs read_record: a record the initial evidence or a search
// returned, by id; it returns the id found, or "".
func (st *askState) readCall(c provider.ToolCall) (provider.ToolOutcome, string) {
	var a struct {
		ID *string `json:"id"`
	}
	if !strictArgs(c.Arguments, &a) || a.ID == nil {
		return provider.ToolOutcome{Error: msgToolArgs}, ""
	}
	title, text, ok := st.findShown(*a.ID)
	if !ok {
		return provider.ToolOutcome{Error: msgToolRecord}, ""
	}
	b, _ := json.Marshal(map[string]string{"id": *a.ID, "title": title, "text": text})
	return provider.ToolOutcome{Result: b}, *a.ID
}

// findShown finds a record the model was shown, in the initial
// evidence or by a search, by id.
func (st *askState) findShown(id string) (title, text string, ok bool) {
	for _, r := range st.Input.Records {
		if r.ID == id {
			return r.Title, r.Text, true
		}
	}
	for _, r := range st.Shown {
		if r.ID == id {
			return r.Title, r.Text, true
		}
	}
	return "", "", false
}
