package sidecar

import (
	"bytes"
	"encoding/json"
	"io"
	"net/http"
	"reflect"
	"slices"
	"sync"
	"testing"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"
)

// methodRecorder is an HTTP transport that records the JSON-RPC method of
// every request it carries.
type methodRecorder struct {
	mu      sync.Mutex
	methods []string
}

func (m *methodRecorder) RoundTrip(r *http.Request) (*http.Response, error) {
	if r.Body != nil {
		body, _ := io.ReadAll(r.Body)
		r.Body.Close()
		var msg struct{ Method string }
		if json.Unmarshal(body, &msg) == nil && msg.Method != "" {
			m.mu.Lock()
			m.methods = append(m.methods, msg.Method)
			m.mu.Unlock()
		}
		r = r.Clone(r.Context())
		r.Body = io.NopCloser(bytes.NewReader(body))
	}
	return http.DefaultTransport.RoundTrip(r)
}

// TestMCPOnBothRevisions (issue 27): an agent speaking the stateless
// 2026-07-28 revision (server/discover, no initialize) and one speaking
// 2025-06-18 (initialize) get the same tools, listed in a fixed order
// (on 2026-07-28 with the cache hints: ten minutes, public on a public
// site); ask_docs returns the replay identity, and replaying its review
// link through evidence_manifest reports the same identity.
func TestMCPOnBothRevisions(t *testing.T) {
	e := startEdge(t, edgeConfig(t, "", "", siteJSON(edgePublic(t), "docs", "docs-public", "")))
	wantTools := []string{"ask_docs", "evidence_manifest", "read_evidence", "read_page", "search_docs"}
	for _, version := range []string{"2026-07-28", "2025-06-18"} {
		t.Run(version, func(t *testing.T) {
			rec := &methodRecorder{}
			client := sdk.NewClient(&sdk.Implementation{Name: "askplane-test", Version: "1"}, nil)
			cs, err := client.Connect(t.Context(), &sdk.StreamableClientTransport{Endpoint: e.url + "/mcp", HTTPClient: &http.Client{Transport: rec}, DisableStandaloneSSE: true},
				&sdk.ClientSessionOptions{ProtocolVersion: version})
			if err != nil {
				t.Fatal(err)
			}
			defer cs.Close()
			if got := cs.InitializeResult().ProtocolVersion; got != version {
				t.Fatalf("negotiated %s; want %s", got, version)
			}
			for range 2 {
				tools, err := cs.ListTools(t.Context(), nil)
				if err != nil {
					t.Fatal(err)
				}
				var names []string
				for _, tool := range tools.Tools {
					names = append(names, tool.Name)
				}
				if !slices.Equal(names, wantTools) {
					t.Fatalf("tools/list: %v; want %v in this order", names, wantTools)
				}
				if version == "2026-07-28" && (tools.TTLMs != 600000 || tools.CacheScope != "public") {
					t.Errorf("tools/list cache hints: ttlMs %d, cacheScope %q; want 600000, public", tools.TTLMs, tools.CacheScope)
				}
			}

			res, err := cs.CallTool(t.Context(), &sdk.CallToolParams{Name: "ask_docs", Arguments: map[string]any{"question": "how do I install askplane?"}})
			if err != nil || res.IsError {
				t.Fatalf("ask_docs: %v %+v", err, res)
			}
			var asked struct {
				Engine, Digest, Review string
				Identity               map[string]any `json:"replay_identity"`
			}
			structured(t, res, &asked)
			if asked.Identity["engine"] != asked.Engine || asked.Identity["digest"] != asked.Digest || asked.Identity["mode"] != "explicit-engine" {
				t.Fatalf("ask_docs' replay identity %v (engine %s, digest %s)", asked.Identity, asked.Engine, asked.Digest)
			}
			res, err = cs.CallTool(t.Context(), &sdk.CallToolParams{Name: "evidence_manifest", Arguments: map[string]any{"review": asked.Review}})
			if err != nil || res.IsError {
				t.Fatalf("evidence_manifest: %v %+v", err, res)
			}
			var replayed struct {
				Identity map[string]any `json:"replay_identity"`
			}
			structured(t, res, &replayed)
			if !reflect.DeepEqual(replayed.Identity, asked.Identity) {
				t.Errorf("replaying ask_docs' review link reports %v; ask_docs said %v", replayed.Identity, asked.Identity)
			}

			rec.mu.Lock()
			defer rec.mu.Unlock()
			initialized := slices.Contains(rec.methods, "initialize")
			if version == "2026-07-28" && (initialized || !slices.Contains(rec.methods, "server/discover")) {
				t.Errorf("2026-07-28 sent %v; want server/discover and no initialize", rec.methods)
			}
			if version == "2025-06-18" && !initialized {
				t.Errorf("2025-06-18 sent %v; want initialize", rec.methods)
			}
		})
	}
}
