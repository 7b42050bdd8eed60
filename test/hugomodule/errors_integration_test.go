package hugomodule_test

import (
	"fmt"
	"strings"
	"testing"

	"github.com/askplane/askplane/internal/sitetest"
)

// TestInvalidDeclarationsFailTheBuild checks that each broken declaration
// fails hugo with its stable code, the file and the fact, in words a
// writer can act on.
func TestInvalidDeclarationsFailTheBuild(t *testing.T) {
	for _, tc := range []struct {
		name, files string
		want        []string
	}{
		{"missing id", page(`- kind: command
      label: L
      match: [x]
      answer: A`), []string{"[fact.id.missing] content/p.md", "id is required"}},
		{"bad id", page(`- id: "-x y"
      kind: command
      label: L
      match: [x]
      answer: A`), []string{`[fact.id.invalid] content/p.md: fact "-x y"`}},
		{"unknown kind", page(`- id: f
      kind: faq
      label: L
      match: [x]
      answer: A`), []string{`[fact.kind.invalid] content/p.md: fact "f"`, "(an answer to a frequent question is kind restricted-faq)"}},
		{"no label", page(`- id: f
      kind: command
      label: "  "
      match: [x]
      answer: A`), []string{`[fact.label.missing] content/p.md: fact "f"`}},
		{"too many phrasings", page(`- id: f
      kind: command
      label: L
      match: [a, b, c, d, e, f, g, h, i, j, k, l, m, n, o, p, q]
      answer: A`), []string{`[fact.match.too-many] content/p.md: fact "f": match lists 17 phrasings`}},
		{"long phrasing", page(`- id: f
      kind: command
      label: L
      match: [` + strings.Repeat("x", 513) + `]
      answer: A`), []string{`[fact.match.too-long] content/p.md: fact "f"`}},
		{"no answer", page(`- id: f
      kind: command
      label: L
      match: [x]`), []string{`[fact.answer.missing] content/p.md: fact "f"`}},
		{"unsafe href", page(`- id: f
      kind: command
      label: L
      match: [x]
      answer: A
      cite:
        - title: T
          href: "javascript:alert(1)"`), []string{`[fact.href.unsafe] content/p.md: fact "f"`}},
		{"credentials in href", page(`- id: f
      kind: command
      label: L
      match: [x]
      answer: A
      cite:
        - title: T
          href: "https://user:pass@example.com/"`), []string{`[fact.href.unsafe]`}},
		{"cited page missing", page(`- id: f
      kind: command
      label: L
      match: [x]
      answer: A
      cite:
        - page: /nope`), []string{`[fact.cite.page-not-found] content/p.md: fact "f": cited page "/nope"`}},
		{"duplicate id", page(`- id: f
      kind: command
      label: L
      match: [x]
      answer: A
    - id: f
      kind: command
      label: M
      match: [y]
      answer: B`), []string{`[fact.id.duplicate] content/p.md: fact "f": the id is also declared in content/p.md`}},
		{"data fact without citation", `
-- data/askplane/site.yaml --
facts:
  - id: f
    kind: contribution
    label: L
    match: [x]
    answer: A
`, []string{`[fact.cite.missing] data/askplane/site.yaml: fact "f"`}},
		{"facts not a list", `
-- content/p.md --
---
title: P
askplane:
  facts: {id: f}
---
`, []string{`[fact.list.invalid] content/p.md`}},
		{"bad fallback", `
-- config/_default/params.toml --
[askplane]
fallback = "sometimes"
`, []string{`[config.invalid]`, "backend or disabled"}},
		// Issue 14: a backend without an endpoint sent every reader "the
		// backend is not available" while the sidecar ran.
		{"backend without endpoint", `
-- config/_default/params.toml --
[askplane]
fallback = "backend"
`, []string{`[config.endpoint.missing] hugo.toml:`, `endpoint = "/v1/ask"`, `fallback = "disabled"`}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			b, err := sitetest.BuildE(t, sitetest.Layouts+minimalConfig+tc.files)
			if err == nil {
				t.Fatalf("build succeeded; want %q", tc.want)
			}
			for _, w := range tc.want {
				if !strings.Contains(b.Output, w) {
					t.Errorf("output lacks %q:\n%s", w, b.Output)
				}
			}
		})
	}
}

const minimalConfig = `
-- hugo.toml --
title = "Errors"
disableKinds = ["taxonomy", "term", "rss", "sitemap"]
`

// page returns a content file declaring the given facts (YAML list items,
// indented for the facts key).
func page(facts string) string {
	return `
-- content/p.md --
---
title: P
askplane:
  facts:
    ` + facts + `
---
Body.
`
}

// TestForgottenWidgetWarns builds a site whose only askplane call is the
// publishing partial on the home page: the outputs are published, and
// hugo itself says that no page lets readers ask (issue 14: a forgotten
// widget partial passed hugo silently). With the widget, no warning.
func TestForgottenWidgetWarns(t *testing.T) {
	site := minimalConfig + page(`- {id: f, kind: command, label: L, match: [x], answer: A}`)
	b := sitetest.Build(t, site+`
-- layouts/home.html --
<!doctype html><html><body>{{ partial "askplane/publish.html" . }}</body></html>
-- layouts/page.html --
<!doctype html><html><body>{{ .Content }}</body></html>
`)
	b.AssertFileExists("askplane/en/manifest.json")
	if !strings.Contains(b.Output, "[widget.missing] language en: the build published 1 facts but no page rendered askplane/widget.html") {
		t.Errorf("hugo did not warn about the missing widget:\n%s", b.Output)
	}
	if b := sitetest.Build(t, sitetest.Layouts+site); strings.Contains(b.Output, "widget.missing") {
		t.Errorf("warned with the widget on every page:\n%s", b.Output)
	}
}

// TestArtifactLimitsFailTheBuild checks the two limits of an artifact a
// site can hit with declared facts, each named by hugo with its code: more
// than 1,024 facts, and more than 524,288 bytes.
func TestArtifactLimitsFailTheBuild(t *testing.T) {
	facts := func(n, answer int) string {
		var b strings.Builder
		b.WriteString("\n-- data/askplane/many.yaml --\nfacts:\n")
		for i := range n {
			fmt.Fprintf(&b, "  - {id: f%04d, kind: command, label: F %d, match: [f %d], answer: %s, cite: [{title: T, href: /}]}\n", i, i, i, strings.Repeat("a", answer))
		}
		return b.String()
	}
	for _, tc := range []struct {
		name, files, want string
	}{
		{"too many facts", facts(1025, 1), "[facts.too-many] language en declares 1025 facts; an artifact holds at most 1024"},
		{"too large", facts(40, 16000), "[artifact.too-large] language en: the artifact is "},
	} {
		t.Run(tc.name, func(t *testing.T) {
			b, err := sitetest.BuildE(t, sitetest.Layouts+minimalConfig+tc.files)
			if err == nil {
				t.Fatal("build succeeded")
			}
			if !strings.Contains(b.Output, tc.want) {
				t.Errorf("output lacks %q:\n%.2000s", tc.want, b.Output)
			}
		})
	}
}
