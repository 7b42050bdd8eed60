package hugomodule_test

import (
	"encoding/json"
	"fmt"
	"os"
	"slices"
	"strings"
	"testing"

	"github.com/askplane/askplane/internal/protocol"
	"github.com/askplane/askplane/internal/sitetest"
	"github.com/askplane/askplane/internal/verify"
)

// manifestNotes returns the notes a language's manifest lists.
func manifestNotes(t *testing.T, b *sitetest.Builder, lang string) []map[string]string {
	t.Helper()
	var m struct {
		Notes []map[string]string `json:"notes"`
	}
	if err := json.Unmarshal(b.ReadFile("askplane/"+lang+"/manifest.json"), &m); err != nil {
		t.Fatal(err)
	}
	return m.Notes
}

// entry returns the artifact entry with the given id, or nil.
func entry(a *protocol.Artifact, id string) *protocol.Entry {
	for i := range a.Entries {
		if a.Entries[i].ID == id {
			return &a.Entries[i]
		}
	}
	return nil
}

// verifiedClean runs askplane verify's checks on the built site and fails
// on any error.
func verifiedClean(t *testing.T, b *sitetest.Builder) {
	t.Helper()
	rep, err := verify.Site(os.DirFS(b.Public))
	if err != nil {
		t.Fatal(err)
	}
	for _, p := range rep.Problems {
		if !p.Warning {
			t.Errorf("verify: %s", p)
		}
	}
}

const generatedSite = sitetest.Layouts + `
-- hugo.toml --
baseURL = "https://docs.example/"
title = "Gen"
disableKinds = ["taxonomy", "term", "rss", "sitemap"]
[params.askplane.generate]
documents = true
menus = ["main"]
[[menus.main]]
name = "Hugo Server"
pageRef = "/docs/server"
-- content/docs/server.md --
---
title: hugo server
linkTitle: Live preview
aliases: [/old/server/]
---
Run it.
-- content/docs/commands.md --
---
title: Commands
askplane:
  facts:
    - id: hugo-server
      kind: command
      label: Preview the site
      match: ["Hugo  Server", preview the site]
      answer: Run ` + "`hugo server`" + `.
---
Commands.
`

// TestDeclaredPhrasingsWinOverGenerated builds a site where a declared fact
// and the generated facts of a page and a menu entry share the phrasing
// "hugo server" (issue 14: the author's own answer had become a choice).
// The generated facts lose it, the manifest notes why, and the artifact
// verifies with no shared phrasing.
func TestDeclaredPhrasingsWinOverGenerated(t *testing.T) {
	b := sitetest.Build(t, generatedSite)
	a := outputs(t, b, "en").verified(t)
	doc := entry(a, "doc-docs-server")
	if doc == nil {
		t.Fatal("no generated document fact for /docs/server/")
	}
	if got := strings.Join(doc.Values, "|"); got != "Live preview|/docs/server/|/old/server" {
		t.Errorf("document phrasings = %q; want linkTitle, path and alias, without the declared title", got)
	}
	if e := entry(a, "hugo-server"); e == nil || !slices.Contains(e.Values, "Hugo  Server") {
		t.Errorf("the declared fact lost its phrasing: %+v", e)
	}
	nav := entry(a, "nav-main-Hugo-Server")
	if nav == nil || strings.Join(nav.Values, "|") != "go to Hugo Server" {
		t.Errorf("navigation fact = %+v; want only its go-to phrasing", nav)
	}
	notes := manifestNotes(t, b, "en")
	var codes []string
	for _, n := range notes {
		codes = append(codes, n["code"]+" "+n["fact"])
		if n["code"] == "fact.generated.phrasing-dropped" && !strings.Contains(n["message"], `fact "hugo-server" (content/docs/commands.md)`) {
			t.Errorf("note does not name the owner: %v", n)
		}
	}
	slices.Sort(codes)
	if got := strings.Join(codes, ", "); got != "fact.generated.phrasing-dropped doc-docs-server, fact.generated.phrasing-dropped nav-main-Hugo-Server" {
		t.Errorf("notes = %s", got)
	}
	verifiedClean(t, b)
}

// TestGeneratedFactDroppedWhenEveryPhrasingIsDeclared checks that a
// generated fact left with no phrasing of its own is left out, with a
// note, rather than published unreachable.
func TestGeneratedFactDroppedWhenEveryPhrasingIsDeclared(t *testing.T) {
	b := sitetest.Build(t, sitetest.Layouts+`
-- hugo.toml --
title = "Gen"
disableKinds = ["taxonomy", "term", "rss", "sitemap"]
[params.askplane.generate]
documents = true
-- content/a.md --
---
title: Alpha
askplane:
  facts:
    - {id: alpha, kind: navigation, label: Alpha, match: [alpha, /a/], answer: See alpha.}
---
A.
`)
	a := outputs(t, b, "en").verified(t)
	if entry(a, "doc-a") != nil {
		t.Error("the generated fact for /a/ was published with no phrasing of its own")
	}
	if n := manifestNotes(t, b, "en"); len(n) != 3 || n[2]["code"] != "fact.generated.dropped" {
		t.Errorf("notes = %v", n)
	}
	verifiedClean(t, b)
}

// TestGeneratedFactsKeepTheMostImportantUnderTheLimit builds 1,100 pages
// with generated document facts and two declared ones (issue 14: such a
// site failed its build). The build succeeds, warns once with the count,
// and keeps 1,022 documents: the weighted section first, then shallower
// pages.
func TestGeneratedFactsKeepTheMostImportantUnderTheLimit(t *testing.T) {
	b := sitetest.Build(t, bigGeneratedSite())
	if n := strings.Count(b.Output, "[facts.generated.trimmed]"); n != 1 {
		t.Fatalf("warned %d times; want once:\n%s", n, b.Output)
	}
	if !strings.Contains(b.Output, "1106 generated document facts would pass the artifact's 1024-entry limit (2 declared, 0 navigation); kept the 1022 most important") {
		t.Errorf("warning lacks the counts:\n%s", b.Output)
	}
	a := outputs(t, b, "en").verified(t)
	if len(a.Entries) != 1024 {
		t.Fatalf("%d entries; want 1024", len(a.Entries))
	}
	for _, id := range []string{"leaf-a", "leaf-b", "doc-guide-g0", "doc-guide-deep-leaf", "doc-misc-p0000", "doc-misc-p1015"} {
		if entry(a, id) == nil {
			t.Errorf("%s was left out", id)
		}
	}
	if entry(a, "doc-misc-p1016") != nil {
		t.Error("doc-misc-p1016 was kept; the 1,016 misc pages kept should end at p1015")
	}
}

// TestDocumentedTrimWarningIsWhatHugoPrints builds the 1,100-page site the
// example site's generated-facts page describes and checks that the
// warning it quotes is, byte for byte, a line hugo printed.
func TestDocumentedTrimWarningIsWhatHugoPrints(t *testing.T) {
	doc, err := os.ReadFile(sitetest.Root() + "/exampleSite/content/en/facts/generated.md")
	if err != nil {
		t.Fatal(err)
	}
	var quoted string
	for _, line := range strings.Split(string(doc), "\n") {
		if strings.Contains(line, "[facts.generated.trimmed]") && strings.HasPrefix(line, "WARN") {
			quoted = line
		}
	}
	if quoted == "" {
		t.Fatal("generated.md quotes no facts.generated.trimmed warning")
	}
	b := sitetest.Build(t, bigGeneratedSite())
	if !slices.Contains(strings.Split(b.Output, "\n"), quoted) {
		t.Errorf("generated.md quotes\n%s\nbut hugo printed\n%s", quoted, b.Output)
	}
}

// bigGeneratedSite has 1,106 regular pages with generated document facts
// (five in the weighted guide section, one deeper with two declared facts,
// 1,100 in misc).
func bigGeneratedSite() string {
	var site strings.Builder
	site.WriteString(sitetest.Layouts + `
-- hugo.toml --
title = "Big"
disableKinds = ["taxonomy", "term", "rss", "sitemap"]
[params.askplane.generate]
documents = true
-- content/guide/_index.md --
---
title: Guide
weight: 1
---
-- content/guide/deep/_index.md --
---
title: Deep
---
-- content/guide/deep/leaf.md --
---
title: Leaf
askplane:
  facts:
    - {id: leaf-a, kind: command, label: A, match: [leaf a], answer: A.}
    - {id: leaf-b, kind: command, label: B, match: [leaf b], answer: B.}
---
-- content/misc/_index.md --
---
title: Misc
---
`)
	for i := range 1100 {
		fmt.Fprintf(&site, "-- content/misc/p%04d.md --\n---\ntitle: Misc %d\n---\n", i, i)
	}
	for i := range 5 {
		fmt.Fprintf(&site, "-- content/guide/g%d.md --\n---\ntitle: Guide %d\n---\n", i, i)
	}
	return site.String()
}
