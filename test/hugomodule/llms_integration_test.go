package hugomodule_test

import (
	"bytes"
	"io/fs"
	"net/url"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"unicode/utf8"

	"golang.org/x/net/html"

	"github.com/askplane/askplane/internal/sitetest"
	"github.com/askplane/askplane/internal/verify"
)

// twinMaxChars is the most characters one Markdown twin may hold: agents
// read pages whole, and AFDocs-style checks flag pages over 50,000.
const twinMaxChars = 50000

// llmsLink is one line of an llms.txt section: - [title](url): description.
var llmsLink = regexp.MustCompile(`^- \[((?:[^\]\\]|\\.)+)\]\(([^)\s]+)\)(?:: (.+))?$`)

// checkLLMs is the conformance check of what a build published for
// programs (the llms.txt convention v2, in the spirit of AFDocs): every
// llms.txt parses (an H1, an optional block-quote summary, H2 sections of
// one link a line); every link resolves to a twin in the build; every
// twin starts with its page's H1, stays under twinMaxChars and holds no
// theme chrome; every HTML page carries rel="describedby" to an llms.txt
// that covers it and, when it has a twin, rel="alternate"
// type="text/markdown" to it, and each such twin is listed in that
// llms.txt. It returns the number of twins checked.
func checkLLMs(t *testing.T, public, baseURL string) int {
	t.Helper()
	base, err := url.Parse(baseURL)
	if err != nil {
		t.Fatal(err)
	}
	// local maps a link (absolute on the site, or root-relative) to a file.
	local := func(ref string) (string, bool) {
		u, err := url.Parse(ref)
		if err != nil || (u.Host != "" && u.Host != base.Host) {
			return "", false
		}
		p := strings.TrimPrefix(u.Path, strings.TrimSuffix(base.Path, "/"))
		if strings.HasSuffix(p, "/") {
			p += "index.html"
		}
		return filepath.Join(public, filepath.FromSlash(p)), true
	}
	listed := map[string]string{} // twin file → the llms.txt listing it
	twins := 0
	err = filepath.WalkDir(public, func(path string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() || d.Name() != "llms.txt" {
			return err
		}
		data, _ := os.ReadFile(path)
		lines := strings.Split(strings.TrimRight(string(data), "\n"), "\n")
		if !strings.HasPrefix(lines[0], "# ") || len(lines[0]) < 3 {
			t.Errorf("%s: the first line is %q, not an H1", path, lines[0])
		}
		links, section := 0, false
		for i, line := range lines[1:] {
			switch {
			case line == "" || strings.HasPrefix(line, "> ") && !section:
			case strings.HasPrefix(line, "## "):
				section = true
			case section && strings.HasPrefix(line, "- "):
				m := llmsLink.FindStringSubmatch(line)
				if m == nil {
					t.Errorf("%s:%d: not a link line: %q", path, i+2, line)
					continue
				}
				links++
				file, ok := local(m[2])
				if !ok || !strings.HasSuffix(file, ".md") {
					t.Errorf("%s:%d: %s is not a twin on this site", path, i+2, m[2])
					continue
				}
				listed[file] = path
				twins++
				checkTwin(t, file)
			default:
				t.Errorf("%s:%d: unexpected line %q", path, i+2, line)
			}
		}
		if links == 0 {
			t.Errorf("%s lists no page", path)
		}
		if _, err := os.Stat(filepath.Join(filepath.Dir(path), "llms-full.txt")); err != nil {
			t.Errorf("%s has no llms-full.txt next to it", path)
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	pages := 0
	err = filepath.WalkDir(public, func(path string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() || !strings.HasSuffix(path, ".html") {
			return err
		}
		data, _ := os.ReadFile(path)
		if bytes.Contains(data, []byte(`http-equiv="refresh"`)) || bytes.Contains(data, []byte(`http-equiv=refresh`)) {
			return nil // an alias
		}
		if !bytes.Contains(bytes.ToLower(data[:min(len(data), 512)]), []byte("<html")) {
			return nil // a fragment (the widget's panel), not a page
		}
		pages++
		rels := linkRels(data)
		describedby, ok := rels["describedby"]
		if !ok {
			t.Errorf("%s: no rel=describedby", path)
			return nil
		}
		index, ok := local(describedby)
		if !ok || filepath.Base(index) != "llms.txt" {
			t.Errorf("%s: rel=describedby is %s, not an llms.txt", path, describedby)
			return nil
		}
		if rel, err := filepath.Rel(filepath.Dir(index), path); err != nil || strings.HasPrefix(rel, "..") {
			t.Errorf("%s: its llms.txt %s does not cover it", path, index)
		}
		twin := strings.TrimSuffix(path, ".html") + ".md"
		href, has := rels["alternate text/markdown"]
		if _, err := os.Stat(twin); err != nil {
			if has {
				t.Errorf("%s: rel=alternate to %s, which was not published", path, href)
			}
			return nil
		}
		if file, ok := local(href); !has || !ok || file != twin {
			t.Errorf("%s: rel=alternate type=text/markdown is %q; want its twin %s", path, href, twin)
		}
		if listed[twin] != index {
			t.Errorf("%s: its twin is not listed in %s", path, index)
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if twins == 0 || pages == 0 {
		t.Errorf("%d twins listed, %d HTML pages", twins, pages)
	}
	return twins
}

// verifyLLMs runs askplane verify's llms.txt check on a build and wants
// it to pass without a problem, having checked as many twins as the
// test's own check (checkLLMs) found, and every page.
func verifyLLMs(t *testing.T, public string, twins int) {
	t.Helper()
	root, err := os.OpenRoot(public)
	if err != nil {
		t.Fatal(err)
	}
	defer root.Close()
	rep, err := verify.Site(root.FS())
	if err != nil {
		t.Fatal(err)
	}
	for _, p := range rep.Problems {
		if strings.HasPrefix(p.Code, "llms.") || strings.HasPrefix(p.Code, "twin.") || strings.HasPrefix(p.Code, "page.") {
			t.Errorf("askplane verify: %s", p)
		}
	}
	if rep.LLMs == nil || rep.LLMs.Twins != twins || rep.LLMs.Pages == 0 {
		t.Errorf("askplane verify checked %+v; want %d twins", rep.LLMs, twins)
		return
	}
	t.Log(rep.LLMs.Summary())
}

// continued is the link a part of a split twin ends with.
var continued = regexp.MustCompile(`\nContinued in \[part \d+ of \d+\]\(([^)]+)\)\.\n$`)

// checkTwin checks one Markdown twin, and the parts that follow it when
// it is split.
func checkTwin(t *testing.T, file string) {
	t.Helper()
	data, err := os.ReadFile(file)
	if err != nil {
		t.Errorf("twin %s: %v", file, err)
		return
	}
	s := string(data)
	if m := continued.FindStringSubmatch(s); m != nil {
		checkTwin(t, filepath.Join(filepath.Dir(file), filepath.FromSlash(m[1])))
	}
	if !strings.HasPrefix(s, "# ") {
		t.Errorf("twin %s does not start with an H1: %.80q", file, s)
	}
	if n := utf8.RuneCountInString(s); n > twinMaxChars {
		t.Errorf("twin %s holds %d characters, over %d", file, n, twinMaxChars)
	}
	if c := verify.ChromeIn(s); c != "" {
		t.Errorf("twin %s holds theme chrome %q", file, c)
	}
}

// linkRels reads a page's link elements: rel → href, with
// "alternate text/markdown" for the twin.
func linkRels(page []byte) map[string]string {
	out := map[string]string{}
	z := html.NewTokenizer(bytes.NewReader(page))
	for {
		tt := z.Next()
		if tt == html.ErrorToken {
			return out
		}
		if tt != html.StartTagToken && tt != html.SelfClosingTagToken {
			continue
		}
		tok := z.Token()
		if tok.Data != "link" {
			continue
		}
		var rel, typ, href string
		for _, a := range tok.Attr {
			switch a.Key {
			case "rel":
				rel = a.Val
			case "type":
				typ = a.Val
			case "href":
				href = a.Val
			}
		}
		if rel == "alternate" && typ == "text/markdown" {
			rel = "alternate text/markdown"
		}
		if _, dup := out[rel]; !dup {
			out[rel] = href
		}
	}
}

// TestLLMsConformanceExampleSite runs the conformance check on
// exampleSite (English and French), and checks that a second build
// publishes the same bytes.
func TestLLMsConformanceExampleSite(t *testing.T) {
	dir := filepath.Join(sitetest.Root(), "exampleSite")
	b, err := sitetest.BuildDir(t, dir)
	if err != nil {
		t.Fatalf("exampleSite: %v\n%s", err, b.Output)
	}
	n := checkLLMs(t, b.Public, "https://askplane.example/")
	t.Logf("exampleSite: %d twins", n)
	verifyLLMs(t, b.Public, n)
	for _, f := range []string{"llms.txt", "fr/llms.txt", "fr/llms-full.txt"} {
		b.AssertFileExists(f)
	}
	again, err := sitetest.BuildDir(t, dir)
	if err != nil {
		t.Fatal(err)
	}
	filepath.WalkDir(b.Public, func(path string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() || !(strings.HasSuffix(path, ".md") || strings.HasSuffix(path, ".txt")) {
			return err
		}
		rel, _ := filepath.Rel(b.Public, path)
		one, _ := os.ReadFile(path)
		two, _ := os.ReadFile(filepath.Join(again.Public, rel))
		if !bytes.Equal(one, two) {
			t.Errorf("%s differs between two builds", rel)
		}
		return nil
	})
}

// TestLLMsConformanceDocsy runs the conformance check on the Docsy
// documentation (testdata/retrieval/docsy: Docsy's own pages with stub
// shortcodes), a site written by nobody on this project.
func TestLLMsConformanceDocsy(t *testing.T) {
	b, err := sitetest.BuildDir(t, filepath.Join(sitetest.Root(), "testdata", "retrieval", "docsy"))
	if err != nil {
		t.Fatalf("docsy: %v\n%s", err, b.Output)
	}
	n := checkLLMs(t, b.Public, "https://docsy.example/")
	t.Logf("docsy: %d twins", n)
	verifyLLMs(t, b.Public, n)
}

// llmsSite is a small site whose params.askplane holds params.
func llmsSite(params string) string {
	return sitetest.Layouts + `
-- hugo.toml --
baseURL = "https://docs.example/"
title = "Docs"
disableKinds = ["taxonomy", "term", "rss", "sitemap"]
[markup.goldmark.renderHooks.link]
useEmbedded = "always"
[params.askplane]
siteId = "llms"
` + params + `
-- layouts/_shortcodes/note.html --
<div class="admonition note"><p><strong>Note</strong></p>{{ .Inner | .Page.RenderString }}</div>
-- content/_index.md --
---
title: Home
description: The home page.
---
Home.
-- content/guide/_index.md --
---
title: Guide
weight: 1
---
The guide.
-- content/guide/install.md --
---
title: Install
description: How to install it.
---
## Steps

1. Fetch it.
2. Run it:

` + "```go\nfunc main() {}\n```" + `

| flag | meaning |
|------|---------|
| -v   | verbose |

{{< note >}}Mind the **version**.{{< /note >}}
-- content/guide/secret.md --
---
title: Secret
askplane:
  exclude: true
---
Hidden.
-- content/guide/plain.md --
---
title: Plain
askplane:
  markdown: false
---
In the corpus, with no twin.
-- content/guide/faq.md --
---
title: FAQ
---
Answers, the site's first line.

<!--more-->

## Why?

- *Because*, see [install](../install/).

> [!NOTE]
> A GitHub alert.

` + "```toml\n[params.askplane]\nmarkdown = false\n```" + `
-- content/guide/untitled.md --
---
weight: 9
---
## Untitled heading {#u}

Body.
-- content/guide/raw.md --
---
title: Raw
---
Before.

<div class="warning">Careful.</div>
-- content/guide/linked.md --
---
title: Linked
---
See [install](install.md) and [the FAQ](faq.md#why).
`
}

// TestLLMsTwins: twins are on by default; a twin keeps the page's
// structure (headings, ordered lists, a fenced code block with its
// language, a table, a shortcode's admonition as a block quote); a
// Markdown page without shortcodes or .md links is its own twin, as
// written; a page linking .md files is rendered, so the links resolve;
// excluded pages have none, a page whose front matter sets
// askplane.markdown: false has none but stays in the corpus; and
// params.askplane.markdown = false publishes nothing for programs.
func TestLLMsTwins(t *testing.T) {
	b := sitetest.Build(t, llmsSite(""))
	b.AssertFileContent("guide/install/index.md",
		"# Install\n\nURL: https://docs.example/guide/install/\n\n> How to install it.\n\n## Steps\n",
		"1. Fetch it.", "```go\nfunc main() {}\n```", "| flag | meaning |", "> **Note**", "> Mind the **version**.")
	b.AssertFileContent("llms.txt", "# Docs\n", "## Guide\n\n- [Guide](https://docs.example/guide/index.md)\n- [Install](https://docs.example/guide/install/index.md): How to install it.\n")
	b.AssertFileContent("llms-full.txt", "# Install\n")
	b.AssertFileContent("guide/install/index.html", `<link rel="alternate" type="text/markdown" href="/guide/install/index.md"><link rel="describedby" type="text/plain" href="/llms.txt">`)
	for _, page := range []string{"secret", "plain"} {
		if _, err := os.Stat(filepath.Join(b.Public, "guide", page, "index.md")); err == nil {
			t.Errorf("%s has a twin", page)
		}
	}
	if strings.Contains(string(b.ReadFile("guide/plain/index.html")), "text/markdown") || strings.Contains(string(b.ReadFile("llms.txt")), "Plain") {
		t.Error("a page with askplane.markdown: false links or lists a twin")
	}
	b.AssertFileContent("guide/faq/index.md", "# FAQ\n\nURL: https://docs.example/guide/faq/\n\nAnswers, the site's first line.\n\n\n\n## Why?\n\n- *Because*, see [install](../install/).\n\n> [!NOTE]\n> A GitHub alert.\n\n```toml\n[params.askplane]\nmarkdown = false\n```\n")
	b.AssertFileContent("llms.txt", "- [FAQ](https://docs.example/guide/faq/index.md): Answers, the site's first line.\n",
		"- [Untitled heading](https://docs.example/guide/untitled/index.md): Body.\n")
	b.AssertFileContent("guide/untitled/index.md", "# Untitled heading\n\nURL: https://docs.example/guide/untitled/\n")
	// Raw HTML is rendered, as readers see it (Goldmark drops it unless
	// renderer.unsafe is set), not copied into the twin.
	if raw := string(b.ReadFile("guide/raw/index.md")); strings.Contains(raw, "<div") || !strings.Contains(raw, "Before.") {
		t.Errorf("a page with raw HTML has the twin:\n%s", raw)
	}
	b.AssertFileContent("guide/linked/index.md", "See [install](/guide/install/) and [the FAQ](/guide/faq/#why).")
	if strings.Contains(string(b.ReadFile("llms.txt")), "Secret") || strings.Contains(string(b.ReadFile("guide/secret/index.html")), "text/markdown") {
		t.Error("an excluded page is listed or links a twin")
	}
	verifyLLMs(t, b.Public, checkLLMs(t, b.Public, "https://docs.example/"))

	cut := sitetest.Build(t, llmsSite("llmsFullMax = 300"))
	full := cut.ReadFile("llms-full.txt")
	if !bytes.Contains(full, []byte("> This file stops here: 3 of 7 pages, under its limit of 300 bytes. /llms.txt lists every page's Markdown twin.\n")) || len(full) > 300+200 {
		t.Errorf("llms-full.txt cut at 300 bytes:\n%s", full)
	}

	// A long page is split before its H2 headings into parts under
	// 50,000 characters, each linking the next; llms-full.txt holds it
	// whole.
	long := sitetest.Layouts + `
-- hugo.toml --
baseURL = "https://docs.example/"
title = "Docs"
disableKinds = ["taxonomy", "term", "rss", "sitemap"]
-- content/_index.md --
---
title: Home
---
Home.
-- content/long.md --
---
title: Long
---
` + strings.Repeat("## Section\n\n"+strings.Repeat("Words words words. ", 500)+"\n\n", 12)
	lb := sitetest.Build(t, long)
	verifyLLMs(t, lb.Public, checkLLMs(t, lb.Public, "https://docs.example/"))
	lb.AssertFileContent("long/index.md", "# Long\n", "\nContinued in [part 2 of 3](index.2.md).\n")
	lb.AssertFileContent("long/index.3.md", "# Long (part 3 of 3)\n\nURL: https://docs.example/long/\n\n## Section\n")
	if n := strings.Count(string(lb.ReadFile("llms-full.txt")), "## Section"); n != 12 {
		t.Errorf("llms-full.txt holds %d sections of the long page; want 12", n)
	}

	off := sitetest.Build(t, llmsSite("markdown = false"))
	for _, f := range []string{"llms.txt", "llms-full.txt", "index.md", "guide/install/index.md"} {
		if _, err := os.Stat(filepath.Join(off.Public, f)); err == nil {
			t.Errorf("markdown = false published %s", f)
		}
	}
	if strings.Contains(string(off.ReadFile("guide/install/index.html")), `rel="describedby"`) {
		t.Error("markdown = false still links llms.txt")
	}
}
