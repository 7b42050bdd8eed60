package sidecar

import (
	"net/http"
	"net/http/cookiejar"
	"strings"
	"testing"
	"time"

	"github.com/askplane/askplane/internal/insights"
	"github.com/askplane/askplane/internal/store"
)

// The widget's report of an exact answer, POST /v1/feedback with
// {"outcome":"exact"} and nothing else, lands in insights as an "exact"
// outcome with no key and no pages, counted to the reader of a valid
// anonymous cookie (the same hash as that reader's /v1/ask questions)
// or else to the gate's subject; it is behind the same budgets as
// feedback (the subject's rateLimit), any other body is refused, a site
// without feedback still refuses a verdict, and a site without insights
// refuses the report.
func TestExactAnswersReported(t *testing.T) {
	public := insightsPublic(t)
	config := func(sessions, extra string) *Config {
		cfg, err := Decode([]byte(`{"sessions":"` + sessions + `","sites":[` + siteJSON(public, "docs", "docs", extra) + `]}`))
		if err != nil {
			t.Fatal(err)
		}
		return cfg
	}
	const on = `,"insights":{"minCrowd":2},"rateLimit":{"requests":3,"windowSeconds":60}`
	srv, _ := startRestartable(t, config("sqlite:"+t.TempDir()+"/s.db", `,"insights":{"minCrowd":2}`), edgeEnv)
	jar, _ := cookiejar.New(nil)
	browser := &http.Client{Jar: jar}
	report := func(c *http.Client, body, contentType string) answer {
		t.Helper()
		req, _ := http.NewRequest("POST", srv.url+"/v1/feedback?corpus=docs", strings.NewReader(body))
		req.Header.Set("Content-Type", contentType)
		return fetch(t, c, req)
	}
	req, _ := http.NewRequest("POST", srv.url+"/v1/ask?corpus=docs", strings.NewReader(askJSON("how do I deploy the site?")))
	req.Header.Set("Content-Type", "application/json")
	if a := fetch(t, browser, req); a.status != 200 {
		t.Fatalf("ask: %d %s", a.status, a.body)
	}
	for _, c := range []struct {
		client      *http.Client
		body, ctype string
		status      int
		code        string
	}{
		{browser, ExactReport, "application/json", 204, ""},
		{browser, `{"outcome":"exact"}`, "application/json", 204, ""},
		{newClient(t), `{"outcome":"exact"}`, "application/json", 204, ""},
		{browser, `{"outcome":"exact","question":"alice@example.com"}`, "application/json", 400, "FEEDBACK_INVALID"},
		{browser, `{"outcome":"answered"}`, "application/json", 400, "FEEDBACK_INVALID"},
		{browser, `{"outcome":"exact"}`, "text/plain", 415, "FEEDBACK_INVALID"},
		{browser, `{"context_id":"sha256:` + strings.Repeat("0", 64) + `","verdict":"helpful"}`, "application/json", 404, "FEEDBACK_DISABLED"},
	} {
		if a := report(c.client, c.body, c.ctype); a.status != c.status || c.code != "" && !strings.Contains(a.body, c.code) {
			t.Errorf("%s (%s): %d %s, want %d %s", c.body, c.ctype, a.status, a.body, c.status, c.code)
		}
	}
	// The reports spent the address subject's budget (3 a minute), as
	// feedback does: past it, 429.
	srv2, _ := startRestartable(t, config("sqlite:"+t.TempDir()+"/t.db", on), edgeEnv)
	for i := range 4 {
		req, _ := http.NewRequest("POST", srv2.url+"/v1/feedback?corpus=docs", strings.NewReader(`{"outcome":"exact"}`))
		req.Header.Set("Content-Type", "application/json")
		want := 204
		if i == 3 {
			want = 429
		}
		if a := fetch(t, newClient(t), req); a.status != want {
			t.Errorf("report %d: %d, want %d", i+1, a.status, want)
		}
	}

	if err := srv.flushInsights(t.Context()); err != nil {
		t.Fatal(err)
	}
	evs, err := srv.sessions.(store.Insights).InsightEvents(t.Context(), "docs", time.Time{})
	if err != nil {
		t.Fatal(err)
	}
	var asked string
	var exact []store.InsightEvent
	for _, e := range evs {
		switch e.Outcome {
		case "exact":
			exact = append(exact, e)
		default:
			asked = e.Reader
		}
	}
	if len(evs) != 4 || len(exact) != 3 {
		t.Fatalf("events %+v, want the question and 3 exact reports", evs)
	}
	same := 0
	for _, e := range exact {
		if e.Key != "" || len(e.Pages) != 0 || len(e.Reader) != 32 {
			t.Errorf("an exact report keeps more than its reader: %+v", e)
		}
		if e.Reader == asked {
			same++
		}
	}
	if same != 2 {
		t.Errorf("%d of the cookie's 2 reports counted to its reader, want 2", same)
	}

	// A site without insights refuses the report, and says why.
	off, _ := startRestartable(t, config("memory:", `,"feedback":true`), edgeEnv)
	if a := off.send(t, "POST", "/v1/feedback?corpus=docs", `{"outcome":"exact"}`); a.status != 404 || !strings.Contains(a.body, "INSIGHTS_DISABLED") {
		t.Errorf("a site without insights: %d %s", a.status, a.body)
	}
}

// On a site that takes feedback and records insights, a reader's verdict
// on an answer this instance gave is recorded with the pages the answer
// cited (never as a question), and the report lists the pages of the
// answers judged not helpful; a verdict on an answer not given here
// (made up, or another instance's) records nothing.
func TestFeedbackVerdictsInInsights(t *testing.T) {
	public := insightsPublic(t)
	cfg, err := Decode([]byte(`{"sessions":"sqlite:` + t.TempDir() + `/s.db","sites":[` +
		siteJSON(public, "docs", "docs", `,"feedback":true,"insights":{"minCrowd":2}`) + `]}`))
	if err != nil {
		t.Fatal(err)
	}
	srv, _ := startRestartable(t, cfg, edgeEnv)
	asked := srv.send(t, "POST", "/v1/ask?corpus=docs", askJSON("how do I deploy the site?"))
	contextID := contextIDOf(t, asked)
	fb := func(ctx, verdict string) {
		t.Helper()
		if a := srv.send(t, "POST", "/v1/feedback?corpus=docs", `{"context_id":"`+ctx+`","verdict":"`+verdict+`"}`); a.status != 204 {
			t.Fatalf("%s: %d %s", verdict, a.status, a.body)
		}
	}
	fb(contextID, "not_helpful")
	fb(contextID, "not_helpful")
	fb(contextID, "helpful")
	fb("sha256:"+strings.Repeat("ab", 32), "not_helpful")
	if err := srv.flushInsights(t.Context()); err != nil {
		t.Fatal(err)
	}
	rep, err := insights.Build(t.Context(), srv.sessions.(store.Insights), "docs", 30, time.Now().Add(time.Second), nil)
	if err != nil {
		t.Fatal(err)
	}
	if rep.Questions != 1 || rep.Helpful != 1 || rep.NotHelpful != 2 {
		t.Errorf("questions %d, helpful %d, not helpful %d; want 1, 1, 2", rep.Questions, rep.Helpful, rep.NotHelpful)
	}
	if len(rep.NotHelpfulPages) != 1 || rep.NotHelpfulPages[0].Page != "/docs/deploy/#deploy" || rep.NotHelpfulPages[0].Cited != 2 {
		t.Errorf("not helpful pages %+v", rep.NotHelpfulPages)
	}
}
