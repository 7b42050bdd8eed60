package sidecar

import (
	"os"
	"path/filepath"
	"testing"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"
)

// TestMCPReadPage: with a public folder, /mcp lists read_page, which
// returns a page's Markdown twin by URL, and refuses a page without one
// with a tool error.
func TestMCPReadPage(t *testing.T) {
	public := edgePublic(t)
	twin := "# Install\n\nURL: https://docs.example/docs/install/\n\nRun go install.\n"
	if err := os.MkdirAll(filepath.Join(public, "docs", "install"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(public, "docs", "install", "index.md"), []byte(twin), 0o644); err != nil {
		t.Fatal(err)
	}
	e := startEdge(t, edgeConfig(t, "", "", siteJSON(public, "docs", "docs-public", "")))
	cs, err := mcpSession(t, e)
	if err != nil {
		t.Fatal(err)
	}
	res, err := cs.CallTool(t.Context(), &sdk.CallToolParams{Name: "read_page", Arguments: map[string]any{"url": "https://docs.example/docs/install/"}})
	if err != nil || res.IsError {
		t.Fatalf("read_page: %v %+v", err, res)
	}
	var page struct {
		URL        string `json:"url"`
		Data       string `json:"data"`
		MediaType  string `json:"media_type"`
		NextOffset *int   `json:"next_offset"`
	}
	structured(t, res, &page)
	if page.Data != twin || page.NextOffset != nil || page.URL != "/docs/install/index.md" || page.MediaType != "text/markdown" {
		t.Errorf("read_page: %+v", page)
	}
	res, err = cs.CallTool(t.Context(), &sdk.CallToolParams{Name: "read_page", Arguments: map[string]any{"url": "/nope/"}})
	if err != nil || !res.IsError {
		t.Errorf("read_page of a page with no twin: %v %+v", err, res)
	}
}
