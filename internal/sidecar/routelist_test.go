package sidecar

import (
	"path/filepath"
	"slices"
	"testing"
)

// TestRouteList lists what routeTable mounts: every route of a server
// with two languages of one site (one static, both with an insights
// owner page and feedback) and metrics on, a site's /insights/ page once
// for its languages, no run routes for live answers; and the run routes
// for a durable site.
func TestRouteList(t *testing.T) {
	public := insightsPublic(t)
	env := func(name string) (string, bool) {
		if name == "ASKPLANE_TEST_OWNER" {
			return testSecret + "-owner", true
		}
		return edgeEnv(name)
	}
	extra := `,"feedback":true,"insights":{"ownerTokenEnv":"ASKPLANE_TEST_OWNER"}`
	cfg, err := Decode([]byte(`{"sessions":"sqlite:` + filepath.Join(t.TempDir(), "s.db") + `","metrics":true,"sites":[` +
		siteJSON(public, "docs", "docs-en", extra+`,"static":true`) + `,` + siteJSON(public, "docs", "docs-fr", extra) + `]}`))
	if err != nil {
		t.Fatal(err)
	}
	s, err := New(t.Context(), cfg, Options{Env: env})
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	want := []string{
		"/", "/insights/docs/", "/mcp", "/review", "/review/",
		"/v1/ask", "/v1/evidence/read", "/v1/evidence/replay", "/v1/feedback", "/v1/sessions/{id}/forget",
		"GET /health", "GET /metrics", "GET /ready", "GET /v1/evidence/engines",
	}
	slices.Sort(want)
	if !slices.Equal(s.patterns, want) {
		t.Errorf("routes\n got %q\nwant %q", s.patterns, want)
	}

	durable, _ := modelServer(t, "openai-compatible", "http://127.0.0.1:9", filepath.Join(t.TempDir(), "runs.db"), "")
	for _, p := range []string{"/v1/runs/{id}/events", "/v1/runs/{id}/cancel", "/v1/ask"} {
		if !slices.Contains(durable.patterns, p) {
			t.Errorf("a durable site's routes lack %s: %q", p, durable.patterns)
		}
	}
	if slices.Contains(durable.patterns, "/") {
		t.Errorf("a site without static serves /: %q", durable.patterns)
	}
}
