package hugomodule_test

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"strings"
	"testing"

	"github.com/askplane/askplane/internal/corpus"
	"github.com/askplane/askplane/internal/protocol"
	"github.com/askplane/askplane/internal/sitetest"
)

// published is what the module emitted for one language.
type published struct {
	siteConfig, artifact, corpus []byte
	manifest                     struct {
		SiteID   string `json:"siteId"`
		Site     string `json:"site"`
		Artifact struct {
			Href, ContentHash string
		} `json:"artifact"`
		Corpus struct {
			Href, ContentHash string
		} `json:"corpus"`
		Sources map[string]string `json:"sources"`
	}
}

func outputs(t *testing.T, b *sitetest.Builder, lang string) *published {
	t.Helper()
	p := &published{}
	if err := json.Unmarshal(b.ReadFile("askplane/"+lang+"/manifest.json"), &p.manifest); err != nil {
		t.Fatalf("manifest: %v", err)
	}
	p.siteConfig = b.ReadFile(p.manifest.Site)
	p.artifact = b.ReadFile(p.manifest.Artifact.Href)
	if p.manifest.Corpus.Href != "" {
		p.corpus = b.ReadFile(p.manifest.Corpus.Href)
	}
	return p
}

// verified checks the artifact against the site config with the Go
// protocol code and checks that Hugo wrote exactly the bytes Go writes for
// the same artifact.
func (p *published) verified(t *testing.T) *protocol.Artifact {
	t.Helper()
	site, err := protocol.DecodeSiteConfig(p.siteConfig)
	if err != nil {
		t.Fatalf("site config: %v\n%s", err, p.siteConfig)
	}
	a, err := protocol.VerifyArtifact(p.artifact, site.Trust())
	if err != nil {
		t.Fatalf("artifact does not verify: %v\n%s", err, p.artifact)
	}
	goBytes, _ := a.MarshalJSON()
	if !bytes.Equal(goBytes, p.artifact) {
		t.Errorf("Hugo's artifact bytes differ from Go's:\nhugo %s\n  go %s", p.artifact, goBytes)
	}
	return a
}

const basicSite = sitetest.Layouts + `
-- hugo.toml --
baseURL = "https://docs.example/"
title = "Example Docs"
disableKinds = ["taxonomy", "term", "rss", "sitemap"]
[params.askplane]
fallback = "backend"
endpoint = "/v1/ask"
-- content/docs/install.md --
---
title: Install
date: 2026-07-01
askplane:
  facts:
    - id: install-cli
      kind: command
      label: Install the CLI
      match: [install cli, go install askplane, install]
      answer: Run ` + "`go install github.com/askplane/askplane/sidecar/cmd/askplane@latest`" + `.
---
Intro.

## Requirements

Go 1.26 or later.
-- content/docs/build.md --
---
title: Build
date: 2026-07-02
askplane:
  facts:
    - id: build-site
      kind: command
      label: Build the site
      match: [build the site, install]
      answer: Run hugo.
      cite:
        - page: /docs/install
          anchor: requirements
        - title: Hugo docs
          href: https://gohugo.io/documentation/
---
Build text.
-- data/askplane/community.yaml --
facts:
  - id: report-bug
    kind: contribution
    label: Report a bug
    match: [report a bug]
    answer: Open an issue.
    cite:
      - title: Issues
        href: https://github.com/askplane/askplane/issues
`

// TestArtifactVerifiesAndMatchesGoBytes builds a small site and checks that
// the artifact verifies against the site config with the Go protocol code
// and that Hugo's bytes equal what Go writes for the same artifact.
func TestArtifactVerifiesAndMatchesGoBytes(t *testing.T) {
	b := sitetest.Build(t, basicSite)
	p := outputs(t, b, "en")
	a := p.verified(t)
	var ids []string
	for _, e := range a.Entries {
		ids = append(ids, e.ID)
	}
	if got := strings.Join(ids, ","); got != "build-site,install-cli,report-bug" {
		t.Errorf("entries = %s; want sorted ids", got)
	}
	build := a.Entries[0]
	if c := build.Answer.Citations; len(c) != 2 || c[0].Href != "/docs/install/#requirements" || c[0].Title != "Install" || c[1].ID != "cite-2" {
		t.Errorf("citations = %+v", c)
	}
	if c := a.Entries[1].Answer.Citations; len(c) != 1 || c[0].Href != "/docs/install/" {
		t.Errorf("a page's fact must cite the page by default: %+v", c)
	}
	if a.GeneratedAt != "2026-07-02T00:00:00.000Z" || a.ExpiresAt != "" {
		t.Errorf("generatedAt = %q, expiresAt = %q", a.GeneratedAt, a.ExpiresAt)
	}
	if p.manifest.Sources["install-cli"] != "content/docs/install.md" || p.manifest.Sources["report-bug"] != "data/askplane/community.yaml" {
		t.Errorf("sources = %v", p.manifest.Sources)
	}
	b.AssertFileContent("askplane/en/site.json", `"siteId":"example-docs"`, `"fallback":{"mode":"backend"}`)
	// Pages name the site config the widget fetches, keyed by its hash
	// (so no cache answers one site's page with another's); none carries
	// a copy, or the artifact's hash.
	for _, page := range []string{"index.html", "docs/install/index.html"} {
		b.AssertFileContent(page, `data-askplane-site="`+pinned(b, "en")+`"`, `! agentskit.chat.site`, `! sha256:`)
	}
	if !strings.HasPrefix(pinned(b, "en"), p.manifest.Site+"?v=") {
		t.Errorf("pages name %s; want the manifest's %s with its hash", pinned(b, "en"), p.manifest.Site)
	}
	if !strings.HasSuffix(p.manifest.Artifact.Href, "/knowledge."+a.ContentHash[7:19]+".json") {
		t.Errorf("artifact href %s is not content-addressed", p.manifest.Artifact.Href)
	}
}

// TestOutputsWithoutWidgetOnHome builds the site with a landing page that
// does not show the widget: the first page that calls the module holds
// the deferred step and builds the outputs there, so the artifact and
// corpus are still there and verify.
func TestOutputsWithoutWidgetOnHome(t *testing.T) {
	b := sitetest.Build(t, basicSite+"-- layouts/home.html --\n<!doctype html><html><body><h1>{{ .Title }}</h1></body></html>\n")
	p := outputs(t, b, "en")
	p.verified(t)
	if len(p.corpus) == 0 {
		t.Fatal("no corpus")
	}
	b.AssertFileContent("index.html", "! data-askplane-root")
	b.AssertFileContent("docs/install/index.html", `data-askplane-site="`+pinned(b, "en")+`"`)
}

// pinned returns the URL pages name lang's site config by: its path with
// v, the first 12 hex digits of the SHA-256 of the bytes published there.
func pinned(b *sitetest.Builder, lang string) string {
	sum := sha256.Sum256(b.ReadFile("askplane/" + lang + "/site.json"))
	return "/askplane/" + lang + "/site.json?v=" + hex.EncodeToString(sum[:])[:12]
}

// TestLandingPageCallsPublish builds a site whose home page shows no
// widget but calls askplane/publish.html, the documented way for such a
// page to keep owning the build: the outputs are the same bytes as when
// every page shows the widget.
func TestLandingPageCallsPublish(t *testing.T) {
	b := sitetest.Build(t, basicSite+"-- layouts/home.html --\n<!doctype html><html><body><h1>{{ .Title }}</h1>{{ partial \"askplane/publish.html\" . }}</body></html>\n")
	p := outputs(t, b, "en")
	p.verified(t)
	b.AssertFileContent("index.html", "! data-askplane-root", "! askplane")
	want := outputs(t, sitetest.Build(t, basicSite), "en")
	if !bytes.Equal(p.artifact, want.artifact) || !bytes.Equal(p.siteConfig, want.siteConfig) {
		t.Errorf("a landing page changed the outputs:\n%s\n%s", p.siteConfig, want.siteConfig)
	}
}

// TestCorpusChunksByHeading checks the corpus: one chunk per heading
// section, with the heading path and anchor, identified by its bytes' hash.
func TestCorpusChunksByHeading(t *testing.T) {
	b := sitetest.Build(t, basicSite)
	p := outputs(t, b, "en")
	// The sidecar's reader (internal/corpus) rebuilds heading paths and
	// trims; what it reads is what retrieval sees.
	c, err := corpus.Load(p.corpus, p.manifest.Corpus.ContentHash)
	if err != nil {
		t.Fatalf("%v\n%s", err, p.corpus)
	}
	var install []corpus.Record
	for _, r := range c.Records {
		if r.URL == "/docs/install/" {
			install = append(install, r)
		}
	}
	if len(install) != 2 {
		t.Fatalf("install page records = %+v", install)
	}
	req := install[1]
	if req.Anchor != "requirements" || strings.Join(req.Headings, "/") != "Install/Requirements" || req.Text != "Go 1.26 or later." {
		t.Errorf("chunk = %+v", req)
	}
	if want := "sha256:" + sha256Hex(p.corpus); p.manifest.Corpus.ContentHash != want {
		t.Errorf("corpus hash %s, want %s", p.manifest.Corpus.ContentHash, want)
	}
}

// TestOutputsByteStableAcrossBuilds builds the same site twice in different
// folders and compares every emitted byte.
func TestOutputsByteStableAcrossBuilds(t *testing.T) {
	one := outputs(t, sitetest.Build(t, basicSite), "en")
	two := outputs(t, sitetest.Build(t, basicSite), "en")
	for name, pair := range map[string][2][]byte{
		"site":     {one.siteConfig, two.siteConfig},
		"artifact": {one.artifact, two.artifact},
		"corpus":   {one.corpus, two.corpus},
	} {
		if !bytes.Equal(pair[0], pair[1]) {
			t.Errorf("%s differs between builds", name)
		}
	}
}

func sha256Hex(b []byte) string {
	sum := sha256.Sum256(b)
	return hex.EncodeToString(sum[:])
}

// TestCorpusOnlyWithABackend checks that a site without an Ask backend
// builds no corpus (nothing would read it) unless it asks for one.
func TestCorpusOnlyWithABackend(t *testing.T) {
	site := func(params string) string {
		return sitetest.Layouts + `
-- hugo.toml --
title = "Docs"
disableKinds = ["taxonomy", "term", "rss", "sitemap"]
[params.askplane]
` + params + `
-- content/p.md --
---
title: P
askplane:
  facts:
    - {id: f, kind: command, label: F, match: [f], answer: A.}
---
## Section

Text.
`
	}
	none := outputs(t, sitetest.Build(t, site(`fallback = "disabled"`)), "en")
	if none.manifest.Corpus.Href != "" || bytes.Contains(none.siteConfig, []byte("corpus")) {
		t.Errorf("a site without a backend got a corpus: %+v", none.manifest.Corpus)
	}
	none.verified(t)
	forced := outputs(t, sitetest.Build(t, site("fallback = \"disabled\"\ncorpus = true")), "en")
	if !bytes.Contains(forced.corpus, []byte(`"version":3`)) || !bytes.Contains(forced.corpus, []byte(`id=\"section\"`)) {
		t.Errorf("corpus = true built no corpus: %s", forced.corpus)
	}
	if _, err := sitetest.BuildE(t, site(`corpus = "yes"`)); err == nil {
		t.Error("corpus = \"yes\" was accepted")
	}
}

// TestCorpusV3Pages checks which pages the v3 corpus holds: regular
// pages and list pages with content of their own, not a list page with
// front matter only, not a page whose front matter sets
// askplane.exclude; and that an askplane-ignore region and a heading's
// anchor glyph never reach a record.
func TestCorpusV3Pages(t *testing.T) {
	b := sitetest.Build(t, sitetest.Layouts+`
-- hugo.toml --
baseURL = "https://docs.example/"
title = "Docs"
disableKinds = ["taxonomy", "term", "rss", "sitemap"]
[markup.goldmark.renderer]
unsafe = true
[params.askplane]
fallback = "backend"
endpoint = "/v1/ask"
-- content/_index.md --
---
title: Home
---
Welcome to the docs.
-- content/guide/_index.md --
---
title: Guide
---
-- content/ref/_index.md --
---
title: Reference
---
The reference lists every option.
-- content/guide/setup.md --
---
title: Setup
---
## Install it

Add this:

`+"```toml\n[module]\n  [[module.imports]]\n    path = \"x\"\n```"+`

<div class="askplane-ignore">Edit this page on GitHub</div>
-- content/guide/secret.md --
---
title: Secret
askplane:
  exclude: true
---
Internal notes.
-- layouts/_markup/render-heading.html --
<h{{ .Level }} id="{{ .Anchor }}">{{ .Text }}<a class="anchor" href="#{{ .Anchor }}">#</a></h{{ .Level }}>
`)
	p := outputs(t, b, "en")
	c, err := corpus.Load(p.corpus, p.manifest.Corpus.ContentHash)
	if err != nil {
		t.Fatalf("%v\n%s", err, p.corpus)
	}
	var got []string
	for _, r := range c.Records {
		got = append(got, r.URL+"#"+r.Anchor+" "+strings.Join(r.Headings, "/")+": "+strings.ReplaceAll(r.Text, "\n", "⏎"))
	}
	want := []string{
		"/# Home: Welcome to the docs.",
		"/guide/setup/#install-it Setup/Install it: Add this:⏎[module]⏎  [[module.imports]]⏎    path = \"x\"",
		"/ref/# Reference: The reference lists every option.",
	}
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("records:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
	for _, r := range c.Records {
		if r.URL == "/guide/setup/" && (len(r.Blocks) != 2 || r.Blocks[1].Kind != "code" || r.Blocks[1].Lang != "toml") {
			t.Errorf("setup blocks = %+v", r.Blocks)
		}
	}
	if !bytes.Contains(p.corpus, []byte("Edit this page")) || !bytes.Contains(p.corpus, []byte(`\u003ca class=\"anchor\"`)) {
		t.Error("the ignored region or the anchor glyph is not in the HTML: the test checks nothing")
	}
	if bytes.Contains(p.corpus, []byte("Internal notes")) {
		t.Error("an excluded page is in the corpus")
	}
	if !bytes.Contains(p.corpus, []byte(`"kind":"section"`)) || !bytes.Contains(p.corpus, []byte(`"kind":"home"`)) {
		t.Errorf("corpus lacks list pages: %s", p.corpus)
	}
}
