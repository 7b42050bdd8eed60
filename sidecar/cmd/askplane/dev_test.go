package main

import (
	"bufio"
	"context"
	"io"
	"net/http"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/askplane/askplane/internal/devserver"
	"github.com/askplane/askplane/internal/fakesite"
	"github.com/askplane/askplane/internal/sitetest"
)

// TestDevRebuildsAndReloads runs askplane dev on a small site as an author
// does, then edits a page: the page reloads (its open event stream says
// rebuilt) and the new build is what is served, while a broken edit keeps
// the last good build serving.
func TestDevRebuildsAndReloads(t *testing.T) {
	if testing.Short() {
		t.Skip("builds a site with Hugo three times")
	}
	site := t.TempDir()
	sitetest.WriteArchive(t, site, sitetest.Layouts+`
-- hugo.toml --
baseURL = "https://docs.example/"
title = "Docs"
[module]
  [[module.imports]]
    path = "`+sitetest.ModulePath+`"
[params.askplane]
  siteId = "docs"
  fallback = "backend"
  endpoint = "/v1/ask?corpus=docs-en"
-- content/_index.md --
---
title: Home
---
First version.
`)
	ctx, cancel := context.WithCancel(context.Background())
	var stdout, stderr fakesite.Buffer
	done := make(chan int, 1)
	go func() {
		done <- runDevContext(ctx, []string{"--addr", "127.0.0.1:0", "--site", site, "--sessions", filepath.Join(t.TempDir(), "sessions.db")}, &stdout, &stderr)
	}()
	defer func() {
		cancel()
		select {
		case code := <-done:
			if code != exitOK {
				t.Errorf("askplane dev exited %d\n%s", code, stderr.String())
			}
		case <-time.After(15 * time.Second):
			t.Error("askplane dev did not stop")
		}
	}()

	open := regexp.MustCompile(`open (http://[^/ ]+)/`)
	var base string
	for deadline := time.Now().Add(3 * time.Minute); base == ""; time.Sleep(50 * time.Millisecond) {
		if m := open.FindStringSubmatch(stdout.String()); m != nil {
			base = m[1]
		}
		select {
		case code := <-done:
			t.Fatalf("askplane dev exited %d\nstdout:\n%s\nstderr:\n%s", code, stdout.String(), stderr.String())
		default:
		}
		if time.Now().After(deadline) {
			t.Fatalf("askplane dev never served:\n%s\n%s", stdout.String(), stderr.String())
		}
	}
	if strings.Contains(stdout.String()+stderr.String(), "make sure the sidecar is deployed") {
		t.Error("askplane dev warned about a sidecar it runs itself")
	}
	page := func() string {
		t.Helper()
		resp, err := http.Get(base + "/")
		if err != nil {
			t.Fatal(err)
		}
		defer resp.Body.Close()
		b, _ := io.ReadAll(resp.Body)
		return string(b)
	}
	if p := page(); !strings.Contains(p, "First version.") || !strings.Contains(p, devserver.ScriptPath) {
		t.Fatalf("first build's page lacks its text or the reload script:\n%s", p)
	}
	// What the build publishes for programs is served too (issue 27):
	// llms.txt, and the page's Markdown twin to a client that asks for
	// Markdown at the page's URL; the page links both in its headers.
	get := func(path, accept string) (*http.Response, string) {
		t.Helper()
		req, _ := http.NewRequest(http.MethodGet, base+path, nil)
		if accept != "" {
			req.Header.Set("Accept", accept)
		}
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		defer resp.Body.Close()
		b, _ := io.ReadAll(resp.Body)
		return resp, string(b)
	}
	if resp, body := get("/llms.txt", ""); resp.StatusCode != 200 || !strings.HasPrefix(resp.Header.Get("Content-Type"), "text/plain") || !strings.Contains(body, "- [Home](https://docs.example/index.md): First version.") {
		t.Errorf("GET /llms.txt under askplane dev: %d %s\n%s", resp.StatusCode, resp.Header.Get("Content-Type"), body)
	}
	twin := func() string {
		t.Helper()
		resp, body := get("/", "text/markdown")
		if !strings.HasPrefix(resp.Header.Get("Content-Type"), "text/markdown") {
			t.Errorf("GET / (Accept: text/markdown) under askplane dev: %s", resp.Header.Get("Content-Type"))
		}
		return body
	}
	if md := twin(); !strings.HasPrefix(md, "# Home\n") || !strings.Contains(md, "First version.") {
		t.Errorf("the home page's twin under askplane dev:\n%s", md)
	}
	if resp, _ := get("/", ""); resp.Header.Get("Link") != `<index.md>; rel="alternate"; type="text/markdown", <llms.txt>; rel="describedby"; type="text/plain"` {
		t.Errorf("the home page's Link header under askplane dev: %q", resp.Header.Get("Link"))
	}

	events, err := http.Get(base + devserver.EventsPath)
	if err != nil {
		t.Fatal(err)
	}
	defer events.Body.Close()
	lines := bufio.NewScanner(events.Body)
	lines.Scan()
	rebuilt := make(chan bool, 4)
	go func() {
		for lines.Scan() {
			if lines.Text() == "event: rebuilt" {
				rebuilt <- true
			}
		}
	}()

	index := filepath.Join(site, "content", "_index.md")
	if err := os.WriteFile(index, []byte("---\ntitle: Home\n---\nSecond version.\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	select {
	case <-rebuilt:
	case <-time.After(90 * time.Second):
		t.Fatalf("no reload after an edit:\n%s\n%s", stdout.String(), stderr.String())
	}
	if p := page(); !strings.Contains(p, "Second version.") {
		t.Fatalf("after the rebuild the old page is served:\n%s", p)
	}
	if md := twin(); !strings.Contains(md, "Second version.") {
		t.Errorf("after the rebuild the old twin is served:\n%s", md)
	}

	// A template error: the build fails, the last good build keeps serving.
	if err := os.WriteFile(filepath.Join(site, "layouts", "home.html"), []byte("{{ define \"main\" }}{{ .Broken }}{{ end }}"), 0o644); err != nil {
		t.Fatal(err)
	}
	for deadline := time.Now().Add(90 * time.Second); !strings.Contains(stderr.String(), "still serving the last good build"); time.Sleep(100 * time.Millisecond) {
		if time.Now().After(deadline) {
			t.Fatalf("a broken build was not reported:\n%s", stderr.String())
		}
	}
	if p := page(); !strings.Contains(p, "Second version.") {
		t.Fatalf("a failed rebuild took the site down:\n%s", p)
	}
}
