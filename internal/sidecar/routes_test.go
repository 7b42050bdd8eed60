package sidecar

import (
	"bufio"
	"io"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/askplane/askplane/internal/corpus"
	"github.com/askplane/askplane/internal/evidence"
)

// send posts body to path with header (name, value pairs; "Host" sets
// the request's host, a repeated name sends the header twice).
func (e *edgeServer) send(t *testing.T, method, path, body string, header ...string) answer {
	t.Helper()
	req, _ := http.NewRequest(method, e.url+path, strings.NewReader(body))
	if body != "" {
		req.Header.Set("Content-Type", "application/json")
	}
	for i := 0; i+1 < len(header); i += 2 {
		if header[i] == "Host" {
			req.Host = header[i+1]
			continue
		}
		req.Header.Add(header[i], header[i+1])
	}
	return fetch(t, newClient(t), req)
}

// sendRaw sends a bodiless method path with header (name, value pairs,
// "Host" among them) on a connection of its own, as written: for a
// request net/http's client would not send, or whose refusal closes the
// connection before the client reads it.
func (e *edgeServer) sendRaw(t *testing.T, method, path string, header ...string) answer {
	t.Helper()
	c := dialRaw(t, e.addr)
	var req strings.Builder
	req.WriteString(method + " " + path + " HTTP/1.1\r\n")
	for i := 0; i+1 < len(header); i += 2 {
		req.WriteString(header[i] + ": " + header[i+1] + "\r\n")
	}
	req.WriteString("Content-Length: 0\r\nConnection: close\r\n\r\n")
	io.WriteString(c, req.String())
	resp, body, err := readResponse(c, bufio.NewReader(c), 3*time.Second)
	if err != nil {
		t.Error(err)
		return answer{}
	}
	return answer{resp.StatusCode, resp.Header, body}
}

// TestEveryEndpointKeepsAsksRules: each route that does work for a client
// (/v1/ask, /mcp, /v1/evidence/replay and /read, /v1/feedback) refuses, the same way, a
// foreign Host, two Origin headers, a foreign Origin, a private site's
// request without a token or with a wrong one, a body over its bound and
// headers over maxHeaderBytes (431, from the one http.Server all routes
// share); answers a good token; and spends the client address's budget, so it
// ends in 429; and spends the subject's budget on the site (its
// rateLimit), so one token ends in 429 while another is answered; and
// counts refused tokens against the address (edge.failedAuth), past which
// a right token gets 429 too. The run routes (GET /v1/runs/{id}/events, POST
// /v1/runs/{id}/cancel) and POST /v1/sessions/{id}/forget keep the same
// rules. GET /v1/evidence/engines keeps the Host rule and the
// budget too, and does not list the private site.
func TestEveryEndpointKeepsAsksRules(t *testing.T) {
	public := writeCorpus(t, "docs", "/docs/install/", "Install", "install", installText)
	c, err := corpus.LoadDir(os.DirFS(public), "en")
	if err != nil {
		t.Fatal(err)
	}
	p := evidence.NewIndex6(c).Search("how do I install askplane?", evidence.Budget{MaxRecords: 5}) // the site's engine, as its answers' links
	frag := p.Recipe().Fragment()
	big := strings.Repeat("x", 100<<10)
	routes := []struct {
		path, body, oversized string
		tooLarge              []int // the statuses an oversized body may get
		// The run routes exist on a model site with a store that keeps
		// runs; they read no body, and a good token on a run that is not
		// the subject's gets 404.
		method  string // default POST
		ok      int    // default 200
		durable bool
	}{
		{"/v1/ask", askJSON("how do I install askplane?"), askJSON(big), []int{413}, "", 0, false},
		{"/mcp", `{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"t","version":"1"}}}`,
			`{"jsonrpc":"2.0","id":1,"method":"ping","params":{"pad":"` + big + `"}}`, []int{400, 413}, "", 0, false},
		{"/v1/evidence/replay", `{"fragment":"` + frag + `"}`, `{"fragment":"` + big + `"}`, []int{400, 413}, "", 0, false},
		{"/v1/evidence/read", `{"fragment":"` + frag + `","section":"record_text","record_id":"` + p.Records[0].ID + `"}`, `{"fragment":"` + big + `"}`, []int{400, 413}, "", 0, false},
		{"/v1/feedback?corpus=docs-private", `{"context_id":"` + p.ContextID + `","verdict":"helpful"}`,
			`{"context_id":"` + p.ContextID + `","verdict":"` + big + `"}`, []int{413}, "POST", 204, false},
		{"/v1/runs/run-none/events", "", big, []int{404}, "GET", 404, true},
		{"/v1/runs/run-none/cancel", "", big, []int{404}, "POST", 404, true},
		// "New conversation": it reads no body, and forgets only the
		// subject's own session, 204 whether one was there or not.
		{"/v1/sessions/s-none/forget", "", big, []int{204}, "POST", 204, false},
	}
	const budget = 8
	perAddress := `"perAddress":{"requests":` + string(rune('0'+budget)) + `,"windowSeconds":60}`
	const tokens = `,"anonymous":false,"tokens":[{"subject":"ci-bot","env":"ASKPLANE_TEST_TOKEN"},{"subject":"other-bot","env":"ASKPLANE_TEST_OTHER"}]`
	// config is the private site, with the edge members edge and the
	// site members extra.
	config := func(durable bool, edge, extra string) *Config {
		if durable {
			t.Setenv("ASKPLANE_TEST_MODEL_KEY", "sk-test-"+strings.Repeat("9", 32))
			fake := newFakeProvider(t, "openai-compatible", `{"cites":["x"],"answer":"x"}`)
			private := siteJSON(public, "docs", "docs-private", tokens+extra+
				`,"generator":{"provider":"openai-compatible","model":"m","baseUrl":"`+fake.srv.URL+`/v1","apiKeyEnv":"ASKPLANE_TEST_MODEL_KEY"},"runs":{}`)
			return edgeConfig(t, `,"hosts":["ask.example.com"],"sessions":"sqlite:`+filepath.Join(t.TempDir(), "s.db")+`"`, edge, private)
		}
		return edgeConfig(t, `,"hosts":["ask.example.com"]`, edge, siteJSON(public, "docs", "docs-private", tokens+extra+`,"feedback":true`))
	}
	host := []string{"Host", "ask.example.com", "Accept", "application/json, text/event-stream"}
	good := append(append([]string(nil), host...), "Authorization", "Bearer "+testToken)
	for _, rt := range routes {
		name, _, _ := strings.Cut(strings.TrimPrefix(rt.path, "/"), "?")
		t.Run(name, func(t *testing.T) {
			e := startEdge(t, config(rt.durable, perAddress, ""))
			method, ok := rt.method, rt.ok
			if method == "" {
				method, ok = "POST", 200
			}
			check := func(what string, a answer, want ...int) {
				t.Helper()
				for _, w := range want {
					if a.status == w {
						return
					}
				}
				t.Errorf("%s: %d %.200s, want %v", what, a.status, a.body, want)
			}
			check("a foreign Host", e.send(t, method, rt.path, rt.body, append([]string{"Host", "evil.example"}, good[2:]...)...), 403)
			check("two Origin headers", e.send(t, method, rt.path, rt.body, append(good, "Origin", "https://docs.example.com", "Origin", "https://evil.example")...), 403)
			check("a foreign Origin", e.send(t, method, rt.path, rt.body, append(good, "Origin", "https://evil.example")...), 403)
			check("no token on a private site", e.send(t, method, rt.path, rt.body, host...), 401)
			check("a wrong token", e.send(t, method, rt.path, rt.body, append(host, "Authorization", "Bearer "+strings.Repeat("w", 40))...), 401)
			check("an oversized body", e.send(t, method, rt.path, rt.oversized, good...), rt.tooLarge...)
			check("headers over maxHeaderBytes", e.sendRaw(t, method, rt.path, append(good, "X-Big", strings.Repeat("a", DefaultMaxHeaderBytes+4<<10+512))...), 431)
			check("a good token", e.send(t, method, rt.path, rt.body, good...), ok)
			limited := false
			for range budget {
				if a := e.send(t, method, rt.path, rt.body, good...); a.status == 429 {
					limited = a.header.Get("Retry-After") != ""
					break
				}
			}
			if !limited {
				t.Errorf("no 429 with Retry-After within the address's budget of %d", budget)
			}

			// The subject's budget on the site (its rateLimit), under a
			// wide address budget: spent by one token, so another
			// subject from the same address is still answered. Then the
			// address's refused tokens (edge.failedAuth): past them, the
			// right token is refused too.
			const subjectBudget, failedAuth = 3, 2
			e = startEdge(t, config(rt.durable, `"failedAuth":{"requests":`+string(rune('0'+failedAuth))+`,"windowSeconds":60}`,
				`,"rateLimit":{"requests":`+string(rune('0'+subjectBudget))+`,"windowSeconds":60}`))
			limited = false
			for range subjectBudget + 1 {
				if a := e.send(t, method, rt.path, rt.body, good...); a.status == 429 {
					limited = a.header.Get("Retry-After") != ""
					break
				}
			}
			if !limited {
				t.Errorf("no 429 with Retry-After within the subject's budget of %d", subjectBudget)
			}
			other := append(host, "Authorization", "Bearer "+otherToken)
			check("another subject, its budget unspent", e.send(t, method, rt.path, rt.body, other...), ok)
			wrong := append(host, "Authorization", "Bearer "+strings.Repeat("w", 40))
			for range failedAuth {
				check("a wrong token within failedAuth", e.send(t, method, rt.path, rt.body, wrong...), 401)
			}
			check("a wrong token past failedAuth", e.send(t, method, rt.path, rt.body, wrong...), 429)
			check("the right token past failedAuth", e.send(t, method, rt.path, rt.body, other...), 429)
		})
	}
	t.Run("evidence/engines", func(t *testing.T) {
		e := startEdge(t, config(false, perAddress, ""))
		if a := e.send(t, "GET", "/v1/evidence/engines", "", "Host", "evil.example"); a.status != 403 {
			t.Errorf("a foreign Host: %d", a.status)
		}
		a := e.send(t, "GET", "/v1/evidence/engines", "", "Host", "ask.example.com")
		if a.status != 200 || !strings.Contains(a.body, `"sites":[]`) || !strings.Contains(a.body, evidence.EngineID6) {
			t.Errorf("the catalogue: %d %s (want the engines, and no private site)", a.status, a.body)
		}
		limited := false
		for range budget {
			if a := e.send(t, "GET", "/v1/evidence/engines", "", "Host", "ask.example.com"); a.status == 429 {
				limited = true
				break
			}
		}
		if !limited {
			t.Errorf("no 429 within the address's budget of %d", budget)
		}
	})
}
