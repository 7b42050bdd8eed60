package hugomodule_test

import (
	"strings"
	"testing"

	"github.com/askplane/askplane/internal/sitetest"
)

// TestPlainAndTrickyFactsGiveGoBytes pins the two ways askplane/publish/entries.html
// builds entries. Plain facts are checked in bulk on jsonify's text; any
// fact those checks cannot vouch for sends the facts through entry.html.
// Each case puts one such fact next to a plain one, and the artifact must
// still verify and equal the bytes Go writes, with the value normalized as
// entry.html normalizes it.
func TestPlainAndTrickyFactsGiveGoBytes(t *testing.T) {
	plain := "    - {id: plain, kind: command, label: Plain, match: [plain], answer: Plain answer.}\n"
	cases := []struct {
		name, fact, pageTitle string
		check                 func(t *testing.T, label, value, answer, title string)
	}{
		{"all plain", "    - {id: tricky, kind: package, label: Tricky, match: [a, b], answer: An answer.}\n", "",
			func(t *testing.T, label, value, answer, title string) {
				if label != "Tricky" || value != "a" || answer != "An answer." || title != "Second" {
					t.Errorf("got %q %q %q %q", label, value, answer, title)
				}
			}},
		{"block answer ends with a newline", "    - id: tricky\n      kind: package\n      label: Tricky\n      match: [a]\n      answer: |\n        Line one.\n        Line two.\n", "",
			func(t *testing.T, label, value, answer, title string) {
				if answer != "Line one.\nLine two." {
					t.Errorf("answer = %q", answer)
				}
			}},
		{"non-ASCII space around a label", "    - {id: tricky, kind: package, label: \"\\u00a0Tricky\\u3000\", match: [a], answer: x}\n", "",
			func(t *testing.T, label, value, answer, title string) {
				if label != "Tricky" {
					t.Errorf("label = %q", label)
				}
			}},
		{"numeric id and kind-like values", "    - {id: 42, kind: package, label: 7, match: [8, \"nine\"], answer: 10}\n", "",
			func(t *testing.T, label, value, answer, title string) {
				if label != "7" || value != "8" || answer != "10" {
					t.Errorf("got %q %q %q", label, value, answer)
				}
			}},
		{"match given as one string", "    - {id: tricky, kind: package, label: Tricky, match: \" only one \", answer: x}\n", "",
			func(t *testing.T, label, value, answer, title string) {
				if value != "only one" {
					t.Errorf("value = %q", value)
				}
			}},
		{"quotes, commas and separators inside values", "    - {id: tricky, kind: package, label: 'say \"a\", \"b\"', match: ['\",\"', 'x\\y'], answer: \"a\\u2028b\"}\n", "",
			func(t *testing.T, label, value, answer, title string) {
				if label != `say "a", "b"` || value != `","` || answer != "a\u2028b" {
					t.Errorf("got %q %q %q", label, value, answer)
				}
			}},
		{"long label in two-byte characters", "    - {id: tricky, kind: package, label: " + strings.Repeat("é", 200) + ", match: [a], answer: x}\n", "",
			func(t *testing.T, label, value, answer, title string) {
				if label != strings.Repeat("é", 200) {
					t.Errorf("label has %d runes", len([]rune(label)))
				}
			}},
		{"page title with spaces", "    - {id: tricky, kind: package, label: Tricky, match: [a], answer: x}\n", "\"  Second \"",
			func(t *testing.T, label, value, answer, title string) {
				if title != "Second" {
					t.Errorf("title = %q", title)
				}
			}},
		{"explicit citation next to plain facts", "    - {id: tricky, kind: package, label: Tricky, match: [a], answer: x, cite: [{title: Ext, href: \"https://example.com/\"}]}\n", "",
			func(t *testing.T, label, value, answer, title string) {
				if title != "Ext" {
					t.Errorf("title = %q", title)
				}
			}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			title := c.pageTitle
			if title == "" {
				title = "Second"
			}
			b := sitetest.Build(t, sitetest.Layouts+`
-- hugo.toml --
title = "Paths"
disableKinds = ["taxonomy", "term", "rss", "sitemap"]
-- content/first.md --
---
title: First
date: 2026-07-01
askplane:
  facts:
`+plain+`---
Body.
-- content/second.md --
---
title: `+title+`
date: 2026-07-02
askplane:
  facts:
`+c.fact+`---
Body.
`)
			a := outputs(t, b, "en").verified(t)
			if len(a.Entries) != 2 {
				t.Fatalf("%d entries", len(a.Entries))
			}
			e := a.Entries[0]
			if e.ID == "plain" {
				e = a.Entries[1]
			}
			c.check(t, e.Label, e.Values[0], e.Answer.Markdown, e.Answer.Citations[0].Title)
		})
	}
}
