package sidecar

import (
	"encoding/json"
	"net/http"
	"strconv"
	"strings"
	"testing"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"
)

// mcpSession connects the official SDK's client to e's /mcp over
// streamable HTTP, sending header (name, value pairs) on every request.
func mcpSession(t *testing.T, e *edgeServer, header ...string) (*sdk.ClientSession, error) {
	t.Helper()
	hc := &http.Client{Transport: headerTransport(header)}
	client := sdk.NewClient(&sdk.Implementation{Name: "askplane-test", Version: "1"}, nil)
	cs, err := client.Connect(t.Context(), &sdk.StreamableClientTransport{Endpoint: e.url + "/mcp", HTTPClient: hc, DisableStandaloneSSE: true}, nil)
	if err == nil {
		t.Cleanup(func() { cs.Close() })
	}
	return cs, err
}

type headerTransport []string

func (h headerTransport) RoundTrip(r *http.Request) (*http.Response, error) {
	r = r.Clone(r.Context())
	for i := 0; i+1 < len(h); i += 2 {
		if h[i] == "Host" {
			r.Host = h[i+1]
			continue
		}
		r.Header.Set(h[i], h[i+1])
	}
	return http.DefaultTransport.RoundTrip(r)
}

// TestMCPGivesAgentsTheSameEvidence: an MCP client (the official SDK's)
// lists the read-only tools, searches, and asks; ask_docs returns the
// same evidence, by content id, as the answer to the same question on
// /v1/ask carries in its review link.
func TestMCPGivesAgentsTheSameEvidence(t *testing.T) {
	e := startEdge(t, edgeConfig(t, "", "", siteJSON(edgePublic(t), "docs", "docs-public", "")))
	cs, err := mcpSession(t, e)
	if err != nil {
		t.Fatal(err)
	}
	tools, err := cs.ListTools(t.Context(), nil)
	if err != nil {
		t.Fatal(err)
	}
	names := map[string]bool{}
	for _, tool := range tools.Tools {
		names[tool.Name] = true
		if tool.Annotations == nil || !tool.Annotations.ReadOnlyHint || tool.OutputSchema == nil {
			t.Errorf("tool %s: want read-only annotations and an output schema", tool.Name)
		}
	}
	if !names["search_docs"] || !names["ask_docs"] || !names["evidence_manifest"] || !names["read_evidence"] {
		t.Fatalf("tools = %v", names)
	}

	res, err := cs.CallTool(t.Context(), &sdk.CallToolParams{Name: "search_docs", Arguments: map[string]any{"query": "go install", "limit": 3}})
	if err != nil || res.IsError {
		t.Fatalf("search_docs: %v %+v", err, res)
	}
	var found struct {
		Results []struct{ URL, Title, Excerpt string }
	}
	structured(t, res, &found)
	if len(found.Results) == 0 || !strings.HasPrefix(found.Results[0].URL, "/docs/install/") || !strings.Contains(found.Results[0].Excerpt, "go install") {
		t.Fatalf("search_docs results: %+v", found)
	}

	const question = "how do I install askplane?"
	res, err = cs.CallTool(t.Context(), &sdk.CallToolParams{Name: "ask_docs", Arguments: map[string]any{"question": question}})
	if err != nil || res.IsError {
		t.Fatalf("ask_docs: %v %+v", err, res)
	}
	var evidence struct {
		Status, Engine, Review string
		Context                string `json:"context_id"`
		Records                []struct{ URL string }
	}
	structured(t, res, &evidence)
	if evidence.Status != "sufficient" || evidence.Context == "" || len(evidence.Records) == 0 || !strings.HasPrefix(evidence.Review, "/review/?corpus=docs-public#") {
		t.Fatalf("ask_docs: %+v", evidence)
	}
	c := newClient(t)
	a := fetch(t, c, e.askReq("", question))
	link := a.header.Get("Link")
	if !a.answered() || !strings.Contains(link, "<"+evidence.Review+">") {
		t.Errorf("/v1/ask's review link %q is not ask_docs' %q", link, evidence.Review)
	}

	// The review link ask_docs gave lists, then reads, the same evidence.
	res, err = cs.CallTool(t.Context(), &sdk.CallToolParams{Name: "evidence_manifest", Arguments: map[string]any{"review": evidence.Review}})
	if err != nil || res.IsError {
		t.Fatalf("evidence_manifest: %v %+v", err, res)
	}
	var manifest struct {
		ContextID string `json:"context_id"`
		Total     int
		Fragment  string
		Records   []struct {
			ID         string
			URL        string
			Characters int
		}
		Identity struct{ Engine, Digest string } `json:"replay_identity"`
	}
	structured(t, res, &manifest)
	if manifest.ContextID != evidence.Context || manifest.Total != len(evidence.Records) || len(manifest.Records) != manifest.Total ||
		manifest.Records[0].URL != evidence.Records[0].URL || manifest.Identity.Engine != evidence.Engine || manifest.Fragment == "" {
		t.Fatalf("evidence_manifest: %+v", manifest)
	}
	res, err = cs.CallTool(t.Context(), &sdk.CallToolParams{Name: "read_evidence", Arguments: map[string]any{"review": manifest.Fragment, "record_id": manifest.Records[0].ID}})
	if err != nil || res.IsError {
		t.Fatalf("read_evidence: %v %+v", err, res)
	}
	var slice struct {
		Data, ContextID string
		Total           int    `json:"total_characters"`
		Next            *int   `json:"next_offset"`
		Context         string `json:"context_id"`
	}
	structured(t, res, &slice)
	if slice.Context != evidence.Context || slice.Total != manifest.Records[0].Characters || slice.Next != nil || !strings.Contains(slice.Data, "go install") {
		t.Fatalf("read_evidence: %+v", slice)
	}
	// Evidence that cannot be rebuilt is a tool error with its code.
	res, err = cs.CallTool(t.Context(), &sdk.CallToolParams{Name: "evidence_manifest", Arguments: map[string]any{"review": "/review/#bm90LWEtcmVjaXBl"}})
	if err != nil || !res.IsError {
		t.Fatalf("a bad review link: %v %+v", err, res)
	}

	// Bad input is a tool error the agent can read, never an echo.
	res, err = cs.CallTool(t.Context(), &sdk.CallToolParams{Name: "search_docs", Arguments: map[string]any{"query": strings.Repeat("secret-input ", 100)}})
	if err != nil || !res.IsError {
		t.Fatalf("an over-long query: %v %+v", err, res)
	}
	if b, _ := json.Marshal(res.Content); strings.Contains(string(b), "secret-input") {
		t.Errorf("the tool error echoes the input: %s", b)
	}
}

// TestMCPKeepsTheSidecarsRules: a private site's /mcp needs a token (and
// a good one works), a foreign Host is refused, and the client address's
// budget binds MCP requests as it does questions.
func TestMCPKeepsTheSidecarsRules(t *testing.T) {
	t.Setenv("ASKPLANE_TEST_TOKEN", testSecret+"-token")
	private := siteJSON(edgePublic(t), "docs", "docs-private", `,"anonymous":false,"tokens":[{"subject":"ci-bot","env":"ASKPLANE_TEST_TOKEN"}]`)
	e := startEdge(t, edgeConfig(t, `,"hosts":["ask.example.com"]`, `"perAddress":{"requests":12,"windowSeconds":60}`, private))
	host := []string{"Host", "ask.example.com"}
	if _, err := mcpSession(t, e, host...); err == nil {
		t.Error("connected to a private site's /mcp without a token")
	}
	token := append(host, "Authorization", "Bearer "+testSecret+"-token")
	if _, err := mcpSession(t, e, append([]string{"Host", "evil.example"}, token[2:]...)...); err == nil {
		t.Error("connected under a foreign Host")
	}
	cs, err := mcpSession(t, e, token...)
	if err != nil {
		t.Fatalf("with a token: %v", err)
	}
	// A private site's lists may be cached by the requesting client only.
	if tools, err := cs.ListTools(t.Context(), nil); err != nil {
		t.Errorf("a private site's tools/list: %v", err)
	} else if tools.CacheScope != "private" {
		t.Errorf("a private site's tools/list: cacheScope %q; want private", tools.CacheScope)
	}
	calls := 0
	for ; calls < 20; calls++ {
		res, err := cs.CallTool(t.Context(), &sdk.CallToolParams{Name: "search_docs", Arguments: map[string]any{"query": "install"}})
		if err != nil {
			break
		}
		if res.IsError {
			t.Fatalf("search_docs: %+v", res)
		}
	}
	// 12 requests a minute from this address: the refused sessions and
	// the initialization took some; the budget binds well before 20.
	if calls == 0 || calls >= 12 {
		t.Errorf("%d tool calls before the address's budget of 12 requests bound", calls)
	}
}

func structured(t *testing.T, res *sdk.CallToolResult, v any) {
	t.Helper()
	b, err := json.Marshal(res.StructuredContent)
	if err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal(b, v); err != nil {
		t.Fatalf("structured content %s: %v", b, err)
	}
}

// mcpPost sends body to e's /mcp as an agent would, with the protocol
// version header when version is not empty.
func mcpPost(t *testing.T, c *http.Client, e *edgeServer, version, body string) answer {
	t.Helper()
	req, _ := http.NewRequest("POST", e.url+"/mcp", strings.NewReader(body))
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Accept", "application/json, text/event-stream")
	if version != "" {
		req.Header.Set("MCP-Protocol-Version", version)
	}
	return fetch(t, c, req)
}

func mcpSearchCall(id int) string {
	return `{"jsonrpc":"2.0","id":` + strconv.Itoa(id) + `,"method":"tools/call","params":{"name":"search_docs","arguments":{"query":"install"}}}`
}

// TestMCPRefusesBatches: a JSON-RPC batch ran call by call on protocol
// versions up to 2025-03-26 (and without the version header) while the
// rate limits charged the HTTP request once, so five requests ran 2,000
// searches. Now a batch is refused on every version with 400 and a
// JSON-RPC error carrying the stable code mcp_batch, before any call
// runs, and single calls each spend the address's budget: with 6
// requests a minute, the 7th single call is refused.
func TestMCPRefusesBatches(t *testing.T) {
	e := startEdge(t, edgeConfig(t, "", `"perAddress":{"requests":6,"windowSeconds":60}`, siteJSON(edgePublic(t), "docs", "docs-public", "")))
	c := newClient(t)
	calls := make([]string, 50)
	for i := range calls {
		calls[i] = mcpSearchCall(i + 1)
	}
	batch := " \n[" + strings.Join(calls, ",") + "]"
	for _, version := range []string{"", "2025-03-26", "2024-11-05", "2025-06-18"} {
		a := mcpPost(t, c, e, version, batch)
		var body struct {
			JSONRPC string          `json:"jsonrpc"`
			ID      json.RawMessage `json:"id"`
			Error   struct {
				Code    int
				Message string
				Data    struct{ Code string }
			}
		}
		if err := json.Unmarshal([]byte(a.body), &body); a.status != http.StatusBadRequest || err != nil ||
			body.JSONRPC != "2.0" || string(body.ID) != "null" || body.Error.Code != -32600 || body.Error.Data.Code != "mcp_batch" {
			t.Errorf("version %q: a batch of %d calls got %d %.300s, want 400 and a JSON-RPC error mcp_batch", version, len(calls), a.status, a.body)
		}
		if strings.Contains(a.body, "/docs/install/") {
			t.Errorf("version %q: a refused batch ran its calls", version)
		}
	}
	// Four requests spent, two left: two single calls answer, the third
	// is refused by the address's budget.
	for i := range 3 {
		a := mcpPost(t, c, e, "2025-03-26", mcpSearchCall(100+i))
		switch {
		case i < 2 && (a.status != 200 || !strings.Contains(a.body, "/docs/install/")):
			t.Errorf("single call %d: %d %.300s", i+1, a.status, a.body)
		case i == 2 && !a.rateLimited(http.StatusTooManyRequests):
			t.Errorf("single call %d past the budget: %d %.300s", i+1, a.status, a.body)
		}
	}
}
