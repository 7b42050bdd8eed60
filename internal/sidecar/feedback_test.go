package sidecar

import (
	"encoding/base64"
	"encoding/json"
	"fmt"
	"strings"
	"testing"
	"time"
)

// TestFeedback: a site with "feedback": true answers a well-formed verdict
// 204 and counts it in askplane_feedback_total{site,verdict} when it names
// a context_id an answer of this instance issued, and in
// askplane_feedback_unverified_total otherwise (issue 25: any well-formed
// context_id, one never issued too, was counted as a reader's verdict);
// every body
// that is not exactly {context_id, verdict} of the right shapes, a wrong
// corpus hint and another method are refused and counted nowhere. A site
// without the setting answers 404 FEEDBACK_DISABLED.
func TestFeedback(t *testing.T) {
	public := edgePublic(t)
	madeUp := "sha256:" + strings.Repeat("ab", 32)
	on := startEdge(t, edgeConfig(t, `,"metrics":true`, "", siteJSON(public, "docs", "docs", `,"feedback":true`)))
	const path = "/v1/feedback?corpus=docs"
	fb := func(ctx, verdict string) string { return `{"context_id":"` + ctx + `","verdict":"` + verdict + `"}` }
	// An answer's Link names the context_id the widget sends.
	asked := on.send(t, "POST", "/v1/ask?corpus=docs", askJSON("how do I install askplane?"))
	id := contextIDOf(t, asked)
	for _, v := range []string{"helpful", "helpful", "not_helpful"} {
		if a := on.send(t, "POST", path, fb(id, v)); a.status != 204 || a.body != "" {
			t.Errorf("%s: %d %q, want 204 and no body", v, a.status, a.body)
		}
	}
	// Never issued: answered alike (an id issued by another instance is
	// not told apart from a made-up one), counted apart.
	if a := on.send(t, "POST", path, fb(madeUp, "helpful")); a.status != 204 {
		t.Errorf("a context_id never issued: %d %q, want 204", a.status, a.body)
	}
	bad := []struct{ what, method, path, body string }{
		{"an unknown verdict", "POST", path, fb(id, "meh")},
		{"a context_id of the wrong shape", "POST", path, fb("sha256:"+strings.Repeat("AB", 32), "helpful")},
		{"no context_id", "POST", path, `{"verdict":"helpful"}`},
		{"an extra member", "POST", path, `{"context_id":"` + id + `","verdict":"helpful","question":"how do I install?"}`},
		{"a repeated member", "POST", path, `{"context_id":"` + id + `","verdict":"helpful","verdict":"not_helpful"}`},
		{"trailing data", "POST", path, fb(id, "helpful") + `{}`},
		{"not JSON", "POST", path, `helpful`},
		{"a body over 256 bytes", "POST", path, fb(id, "helpful") + strings.Repeat(" ", 200)},
		{"no corpus hint", "POST", "/v1/feedback", fb(id, "helpful")},
		{"another corpus", "POST", "/v1/feedback?corpus=other", fb(id, "helpful")},
		{"two corpus hints", "POST", path + "&corpus=docs", fb(id, "helpful")},
		{"GET", "GET", path, ""},
	}
	for _, c := range bad {
		a := on.send(t, c.method, c.path, c.body)
		if a.status < 400 || a.status == 429 {
			t.Errorf("%s: %d %s, want a refusal", c.what, a.status, a.body)
		}
		if !errorShape(a.body) {
			t.Errorf("%s: %s, want the stable {error: {code, message, retryable}}", c.what, a.body)
		}
	}
	if a := on.send(t, "POST", path, fb(id, "helpful")+strings.Repeat(" ", 200)); a.status != 413 {
		t.Errorf("an oversized body: %d, want 413", a.status)
	}
	m := on.send(t, "GET", "/metrics", "").body
	for _, want := range []string{
		`askplane_feedback_total{site="docs",verdict="helpful"} 2`,
		`askplane_feedback_total{site="docs",verdict="not_helpful"} 1`,
		`askplane_feedback_unverified_total{site="docs",verdict="helpful"} 1`,
	} {
		if !strings.Contains(m, want) {
			t.Errorf("/metrics lacks %s", want)
		}
	}
	if n := strings.Count(m, "\naskplane_feedback_total{"); n != 2 {
		t.Errorf("/metrics has %d feedback series, want 2 (refused requests count nowhere)", n)
	}

	off := startEdge(t, edgeConfig(t, `,"metrics":true`, "", siteJSON(public, "docs", "docs", "")))
	if a := off.send(t, "POST", path, fb(id, "helpful")); a.status != 404 || !strings.Contains(a.body, `"code":"FEEDBACK_DISABLED"`) || !errorShape(a.body) {
		t.Errorf("feedback off: %d %s, want 404 FEEDBACK_DISABLED", a.status, a.body)
	}
	if strings.Contains(off.send(t, "GET", "/metrics", "").body, "askplane_feedback_total{") {
		t.Error("feedback off: a verdict was counted")
	}
}

// errorShape reports whether body is exactly the handler's refusal:
// {"error":{"code","message","retryable"}} and nothing else.
func errorShape(body string) bool {
	var e struct {
		Error struct {
			Code      string `json:"code"`
			Message   string `json:"message"`
			Retryable *bool  `json:"retryable"`
		} `json:"error"`
	}
	d := json.NewDecoder(strings.NewReader(body))
	d.DisallowUnknownFields()
	return d.Decode(&e) == nil && e.Error.Code != "" && e.Error.Message != "" && e.Error.Retryable != nil
}

// The record of issued context_ids is bounded: the newest
// issuedContexts, each for issuedContextTTL.
func TestIssuedContextsAreBounded(t *testing.T) {
	now := time.Unix(1_700_000_000, 0)
	c := newContextLog(func() time.Time { return now })
	id := func(i int) string { return fmt.Sprintf("sha256:%064x", i) }
	has := func(id string) bool { _, ok := c.Get(id); return ok }
	for i := range issuedContexts + 10 {
		c.Add(id(i), struct{}{})
	}
	if has(id(9)) || !has(id(10)) || !has(id(issuedContexts+9)) {
		t.Fatalf("oldest kept %v, first kept %v, newest %v", has(id(9)), has(id(10)), has(id(issuedContexts+9)))
	}
	now = now.Add(issuedContextTTL)
	if has(id(issuedContexts + 9)) {
		t.Fatal("an id older than issuedContextTTL still counts")
	}
}

// contextIDOf is the context_id an answer's review link (its Link
// header) names, the one the widget sends with a verdict.
func contextIDOf(t *testing.T, asked answer) string {
	t.Helper()
	link := asked.header.Get("Link")
	frag := link[strings.Index(link, "#")+1 : strings.Index(link, ">")]
	raw, err := base64.RawURLEncoding.DecodeString(frag)
	var recipe struct {
		ContextID string `json:"context_id"`
	}
	if err != nil || json.Unmarshal(raw, &recipe) != nil || recipe.ContextID == "" {
		t.Fatalf("no context_id in the answer's Link %q: %v", link, err)
	}
	return recipe.ContextID
}
