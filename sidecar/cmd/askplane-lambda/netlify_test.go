package main

import (
	"os"
	"strings"
	"testing"

	"github.com/pelletier/go-toml/v2"
)

// TestNetlifyConfig keeps netlify.toml deploying the function this
// package builds, with every sidecar route rewritten to it on the site's
// origin (the adapter takes the /.netlify/functions/askplane prefix off).
func TestNetlifyConfig(t *testing.T) {
	data, err := os.ReadFile("../../../netlify.toml")
	if err != nil {
		t.Fatal(err)
	}
	var cfg struct {
		Build struct {
			Command, Publish, Functions string
		}
		Redirects []struct {
			From, To string
			Status   int
		}
	}
	if err := toml.Unmarshal(data, &cfg); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(cfg.Build.Command, "askplane verify public") ||
		!strings.Contains(cfg.Build.Command, "CGO_ENABLED=0 go build -trimpath -o "+cfg.Build.Functions+"/askplane ./sidecar/cmd/askplane-lambda") {
		t.Errorf("the build does not verify the site and build the function into %q: %q", cfg.Build.Functions, cfg.Build.Command)
	}
	want := map[string]string{
		"/v1/*":     "/.netlify/functions/askplane/v1/:splat",
		"/review/*": "/.netlify/functions/askplane/review/:splat",
		"/mcp":      "/.netlify/functions/askplane/mcp",
	}
	for _, r := range cfg.Redirects {
		if to, ok := want[r.From]; ok && to == r.To && r.Status == 200 {
			delete(want, r.From)
		}
	}
	if len(want) > 0 {
		t.Errorf("routes not rewritten to the function: %v", want)
	}
}
