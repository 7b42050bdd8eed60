package evidence

import (
	"maps"
	"reflect"
	"slices"
	"strings"
	"testing"

	"github.com/askplane/askplane/internal/corpus"
)

// Interface words readers type find the words documentation uses for
// them: "top bar" finds the navbar, "taller" its height, "left nav" the
// sidebar, "browser tab icon" the favicon, "divider" a separator;
// bm25/4 leads with a page that only shares the typed words.
func TestEngine5InterfaceWords(t *testing.T) {
	// Each pair shares the typed words, so bm25/4 ties them and keeps
	// the shorter first; the page that also says what the docs call the
	// thing wins with bm25/5.
	navbar := v3Pages(t, "en",
		[3]string{"/docs/tables/", "Tables", `<p>A row of the table grows taller with its text.</p>`},
		[3]string{"/docs/navbar/", "Navbar", `<p>A second row of links leaves the navbar taller: set its height with <code>$navbar-height</code>.</p>`})
	sidebar := v3Pages(t, "en",
		[3]string{"/docs/layout/", "Page layout", `<p>Images float left of the text.</p>`},
		[3]string{"/docs/sidebar/", "Sidebar", `<p>A sidebar sits left of the text, listing a section's pages.</p>`})
	favicon := v3Pages(t, "en",
		[3]string{"/docs/shortcodes/", "Shortcodes", `<p>The icon shortcode shows an icon.</p>`},
		[3]string{"/docs/favicons/", "Favicons", `<p>The theme links the favicon files in <code>static/favicons/</code>, the icon a browser shows.</p>`})
	menus := v3Pages(t, "en", [3]string{"/docs/menus/", "Menus", `<p>Menus are made of entries.</p>` +
		`<h2 id="order">Ordering</h2><p>Entries are sorted by weight.</p>` +
		`<h2 id="separator">Separators</h2><p>Set <code>separator: true</code> on one of the entries to draw lines.</p>`},
		[3]string{"/docs/fonts/", "Fonts", `<p>The theme loads two fonts.</p>`},
		[3]string{"/docs/colors/", "Colors", `<p>Colors come from the stylesheet.</p>`})
	checkLeads(t, NewIndex4, NewIndex5, EngineID5, []leadCase{
		{navbar, "make the top bar taller", "/docs/tables/", "/docs/navbar/", "navbar"},
		{sidebar, "what is in the left nav", "/docs/layout/", "/docs/sidebar/", "sidebar"},
		{favicon, "change the tab icon", "/docs/shortcodes/", "/docs/favicons/", "favicon"},
		{menus, "a divider between entries", "/docs/menus/", "/docs/menus/#separator", "separator"},
	})
	// The table is English: another language's questions are not expanded.
	c := v3Pages(t, "fr", [3]string{"/docs/a/", "Navbar", `<p>La navbar.</p>`})
	if p := NewIndex5(c).Search("top bar", Budget{}); len(p.Records) != 0 {
		t.Errorf("a French corpus expanded an English synonym: %s", p.JSON())
	}
}

// Where a question has none of the words bm25/5 added, its package is
// bm25/4's record for record (scores and reasons too): bm25/5 is bm25/4
// with more synonyms, and nothing else.
func TestEngine5IsEngine4ButTheTable(t *testing.T) {
	c := themedV3(t)
	checkSamePackages(t, NewIndex4(c), NewIndex5(c), EngineID5, "turn off the search box", "how do I set up the module", "front matter keys", "build the site")
}

// leadCase is a question over c that base leads with old for, and the
// next engine with href, for a term reason the question's words brought.
type leadCase struct {
	c                    *corpus.Corpus
	q, old, href, reason string
}

// checkLeads: for each case, base still leads with old (else the test
// no longer shows the difference) and next, engine id, leads with href
// for the reason given.
func checkLeads(t *testing.T, base, next func(*corpus.Corpus) *Index2, id string, cases []leadCase) {
	t.Helper()
	for _, tc := range cases {
		if p := base(tc.c).Search(tc.q, Budget{}); firstHref(p) != tc.old {
			t.Fatalf("%q: %s leads with %s; the test no longer shows the difference: %s", tc.q, p.Engine, firstHref(p), p.JSON())
		}
		p := next(tc.c).Search(tc.q, Budget{})
		if got := firstHref(p); got != tc.href {
			t.Errorf("%q: %s leads with %s: %s", tc.q, id, got, p.JSON())
			continue
		}
		if p.Engine != id || !strings.Contains(strings.Join(p.Records[0].Reasons, " "), tc.reason) {
			t.Errorf("%q: engine %s, reasons %q", tc.q, p.Engine, p.Records[0].Reasons)
		}
	}
}

// checkSamePackages: for each question, next (engine id) returns base's
// package record for record (scores and reasons too), with the same
// status.
func checkSamePackages(t *testing.T, base, next *Index2, id string, questions ...string) {
	t.Helper()
	for _, q := range questions {
		pb, pn := base.Search(q, Budget{}), next.Search(q, Budget{})
		if len(pb.Records) == 0 {
			t.Fatalf("%q: no records", q)
		}
		if pn.Engine != id || !reflect.DeepEqual(pb.Records, pn.Records) || pb.Status != pn.Status {
			t.Errorf("%q: %s differs from %s:\n%s\n%s", q, id, pb.Engine, pb.JSON(), pn.JSON())
		}
	}
}

// bm25/5's table holds bm25/4's whole (each key's words first, in their
// order), and no two of its keys share a stem, so resolving it does not
// depend on which key is read first.
func TestSynonymTable5(t *testing.T) { checkSynonymTable(t, synonymTable5, synonymTable) }

// checkSynonymTable: table holds base whole (each key's words first, in
// their order), its keys are one or two lowercase words with synonyms,
// and no two share a stem.
func checkSynonymTable(t *testing.T, table, base map[string][]string) {
	t.Helper()
	for k, alts := range base {
		if got := table[k]; !slices.Equal(got[:min(len(alts), len(got))], alts) {
			t.Errorf("%q: %q, the table it extends has %q", k, got, alts)
		}
	}
	stem := stemmerFor("en")
	seen := map[string]string{}
	for _, k := range slices.Sorted(maps.Keys(table)) {
		if k != strings.ToLower(k) || len(strings.Fields(k)) > 2 || len(table[k]) == 0 {
			t.Errorf("%q: keys are one or two lowercase words with synonyms", k)
		}
		words := strings.Fields(k)
		for i, w := range words {
			words[i] = stem(w)
		}
		st := strings.Join(words, " ")
		if other, ok := seen[st]; ok {
			t.Errorf("%q and %q share the stem %q", other, k, st)
		}
		seen[st] = k
	}
}
