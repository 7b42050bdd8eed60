package evidence

import (
	"bytes"
	"fmt"
	"strings"
	"sync"
	"testing"

	"github.com/askplane/askplane/internal/corpus"
)

// hugoDocs is a small corpus shaped like Hugo's own documentation, where
// "where", "in", "and", "or" and "with" are template functions.
func hugoDocs(lang string) *corpus.Corpus {
	rec := func(url, anchor, title, text string, headings ...string) corpus.Record {
		return corpus.Record{ID: corpus.RecordID(url, anchor), URL: url, Anchor: anchor, Title: title, Headings: headings, Text: text}
	}
	recs := []corpus.Record{
		rec("/getting-started/", "", "Getting started", "Install Hugo and create a site. Most of the time you run the server while writing, then publish the site."),
		rec("/functions/collections/where/", "", "collections.Where", "Returns the given collection, removing elements that do not satisfy the comparison condition. Use where to filter a slice of pages by a parameter."),
		rec("/functions/collections/in/", "", "collections.In", "Reports whether the given value is a member of the given set."),
		rec("/content-management/taxonomies/", "", "Taxonomies", "Hugo includes support for user-defined groupings of content called taxonomies."),
		rec("/functions/resources/getremote/", "", "resources.GetRemote", "Returns a remote resource from the given URL, or nil if none found."),
		rec("/functions/partials/includecached/", "", "partials.IncludeCached", "Executes the given template and caches the result. The alias partialCached still works."),
		rec("/commands/hugo/", "options", "hugo", "Pass --buildDrafts to include content marked as draft, and --minify to shrink the output.", "Options"),
		rec("/configuration/", "", "Configure Hugo", "Every key is written in snake_case or camelCase; the build step reads it first."),
		rec("/askplane/", "", "Corpus files", "The corpus is published at askplane/<lang>/site.json for each language."),
		rec("/fetch/a/", "", "Fetching A", "remote resources are fetched then cached for get requests"),
		rec("/fetch/b/", "", "Fetching B", "get remote resources are fetched then cached for requests"),
	}
	return &corpus.Corpus{SiteID: "docs", Language: lang, Version: "sha256:" + strings.Repeat("1", 64), Records: recs}
}

func hrefs(p Package) []string {
	var out []string
	for i := range p.Records {
		out = append(out, p.Records[i].Href())
	}
	return out
}

func top(t *testing.T, e Engine, q string) string {
	t.Helper()
	p := e.Search(q, Budget{})
	if len(p.Records) == 0 {
		t.Fatalf("%q: no records (%s)", q, p.Status)
	}
	return p.Records[0].Href()
}

func wantTop(t *testing.T, e Engine, q, want string) {
	t.Helper()
	if got := top(t, e, q); got != want {
		t.Errorf("%q: top %s, want %s (all %v)", q, got, want, hrefs(e.Search(q, Budget{})))
	}
}

func TestEngine2Stopwords(t *testing.T) {
	ix := NewIndex2(hugoDocs("en"))
	// Engine 1 drops "where" as a stopword and finds nothing.
	if p := NewIndex(hugoDocs("en")).Search("where", Budget{}); p.Status != Insufficient {
		t.Fatalf("engine 1 now finds %v for where", hrefs(p))
	}
	wantTop(t, ix, "where", "/functions/collections/where/")
	wantTop(t, ix, "in", "/functions/collections/in/")
	wantTop(t, ix, "How do I use where?", "/functions/collections/where/")
	// With content words, stopwords only weigh in: a long question is not
	// pulled to a page by its function words.
	wantTop(t, ix, "how do I include the draft content when I build the site", "/commands/hugo/#options")
}

func TestEngine2Stemming(t *testing.T) {
	ix := NewIndex2(hugoDocs("en"))
	wantTop(t, ix, "taxonomy", "/content-management/taxonomies/")
	wantTop(t, ix, "grouping", "/content-management/taxonomies/")
	// A language Snowball lacks is not stemmed.
	if p := NewIndex2(hugoDocs("xx")).Search("taxonomy", Budget{}); p.Status != Insufficient {
		t.Errorf("unstemmed corpus matched taxonomy: %v", hrefs(p))
	}
	if p := NewIndex2(hugoDocs("xx")).Search("taxonomies", Budget{}); len(p.Records) == 0 {
		t.Errorf("unstemmed corpus lost the exact word")
	}
	// Other languages stem with their own rules; region subtags are read.
	fr := &corpus.Corpus{Language: "fr-ca", Version: "sha256:" + strings.Repeat("2", 64), Records: []corpus.Record{
		{ID: "a", URL: "/a/", Title: "Installation", Text: "Les configurations multilingues sont décrites ici."},
		{ID: "b", URL: "/b/", Title: "Thèmes", Text: "Un thème change l'apparence."},
	}}
	wantTop(t, NewIndex2(fr), "configuration multilingue", "/a/")
	for _, lang := range []string{"en", "fr", "de", "es", "it", "pt", "pt-br", "nl", "sv", "no", "nb", "da", "fi", "ru", "hu", "ro", "tr"} {
		if stemmerFor(lang) == nil {
			t.Errorf("no stemmer for %s", lang)
		}
	}
	if stemmerFor("ja") != nil || stemmerFor("") != nil {
		t.Error("a stemmer for a language Snowball lacks")
	}
}

func TestEngine2CodeTokens(t *testing.T) {
	ix := NewIndex2(hugoDocs("en"))
	for _, tc := range []struct{ q, want string }{
		{"GetRemote", "/functions/resources/getremote/"},
		{"resources.GetRemote", "/functions/resources/getremote/"},
		{"getremote", "/functions/resources/getremote/"},
		{"partialCached", "/functions/partials/includecached/"},
		{"partial cached", "/functions/partials/includecached/"},
		{"--buildDrafts", "/commands/hugo/#options"},
		{"build drafts", "/commands/hugo/#options"},
		{"snake_case", "/configuration/"},
		{"snake case", "/configuration/"},
		{"askplane/<lang>/site.json", "/askplane/"},
		{"site.json", "/askplane/"},
	} {
		wantTop(t, ix, tc.q, tc.want)
	}
	var forms []string
	toks, _ := analyze(nil, "resources.GetRemote --buildDrafts URLs HTMLParser", 0)
	for _, tk := range toks {
		forms = append(forms, fmt.Sprintf("%s@%d", tk.form, tk.pos))
	}
	if got, want := strings.Join(forms, " "), "resources@0 get@1 remote@2 getremote@1 resources.getremote@0 build@3 drafts@4 builddrafts@3 urls@5 html@6 parser@7 htmlparser@6"; got != want {
		t.Errorf("analyze:\n got %s\nwant %s", got, want)
	}
}

// Two records with the same words score the same BM25; the one with the
// question's words adjacent and in order wins, though it comes later.
func TestEngine2Phrase(t *testing.T) {
	ix := NewIndex2(hugoDocs("en"))
	p := ix.Search("get requests", Budget{})
	if got := hrefs(p); len(got) < 2 || got[0] != "/fetch/a/" {
		t.Errorf("get requests: %v", got)
	}
	p = ix.Search("get remote resources fetched", Budget{})
	h := hrefs(p)
	if len(h) < 2 || h[0] != "/fetch/b/" || h[1] != "/fetch/a/" {
		t.Errorf("phrase: %v", h)
	}
	if p.Records[0].Score == p.Records[1].Score {
		t.Errorf("no phrase bonus: %s", p.JSON())
	}
}

func TestEngine2Typos(t *testing.T) {
	ix := NewIndex2(hugoDocs("en"))
	wantTop(t, ix, "taxonmy", "/content-management/taxonomies/")
	wantTop(t, ix, "taxnoomy", "/content-management/taxonomies/") // transposition
	wantTop(t, ix, "partialChached", "/functions/partials/includecached/")
	exact := ix.Search("taxonomy", Budget{}).Records[0]
	fuzzy := ix.Search("taxonmy", Budget{}).Records[0]
	if fmt.Sprint(fuzzy.Reasons) != "[taxonmy~taxonomi]" {
		t.Errorf("reasons %v", fuzzy.Reasons)
	}
	if scoreMicro(t, fuzzy.Score)*fuzzyDiv > scoreMicro(t, exact.Score) {
		t.Errorf("corrected %s not under a third of exact %s", fuzzy.Score, exact.Score)
	}
	// Short words are not corrected, and a word the corpus has is never
	// replaced by a neighbour.
	if p := ix.Search("tems", Budget{}); p.Status != Insufficient {
		t.Errorf("four-letter word corrected: %v", hrefs(p))
	}
	c := hugoDocs("en")
	c.Records = append(c.Records, corpus.Record{ID: "typo", URL: "/typo/", Title: "Notes", Text: "taxonmy is misspelled here."})
	p := NewIndex2(c).Search("taxonmy", Budget{})
	if h := hrefs(p); len(h) != 1 || h[0] != "/typo/" {
		t.Errorf("exact match of a rare word: %v", h)
	}
	if !oneEdit("abcde", "abdce") || !oneEdit("abcde", "abcd") || !oneEdit("abcd", "xabcd") || oneEdit("abcde", "badce") || oneEdit("abc", "abc") ||
		!oneEdit("thème", "thèmes") || !oneEdit("tëst", "tsët") || oneEdit("ab", "abcd") {
		t.Error("oneEdit")
	}
}

func scoreMicro(t *testing.T, s string) int64 {
	var whole, frac int64
	if _, err := fmt.Sscanf(s, "%d.%d", &whole, &frac); err != nil {
		t.Fatal(err)
	}
	return whole*1_000_000 + frac
}

func TestEngine2FieldBoosts(t *testing.T) {
	c := &corpus.Corpus{Language: "en", Version: "sha256:" + strings.Repeat("3", 64), Records: []corpus.Record{
		{ID: "text", URL: "/a/", Title: "Alpha", Text: "Mentions shortcodes once among other words here."},
		{ID: "head", URL: "/b/", Anchor: "s", Title: "Beta", Headings: []string{"Shortcodes"}, Text: "Other words entirely go here now."},
		{ID: "url", URL: "/shortcodes/", Title: "Gamma", Text: "Other words entirely go here now."},
		{ID: "title", URL: "/d/", Title: "Shortcodes", Text: "Other words entirely go here now."},
	}}
	for i := 0; i < 6; i++ {
		c.Records = append(c.Records, corpus.Record{ID: fmt.Sprint(i), URL: fmt.Sprintf("/f%d/", i), Title: "Filler", Text: "Other words entirely go here now."})
	}
	p := NewIndex2(c).Search("shortcode", Budget{})
	var ids []string
	for _, r := range p.Records {
		ids = append(ids, r.ID)
	}
	// A heading or URL path word weighs more than a text word, a title
	// word more than either.
	if got := strings.Join(ids, " "); got != "title url head text" && got != "title head url text" {
		t.Errorf("order %s\n%s", got, p.JSON())
	}
}

func TestEngine2Deterministic(t *testing.T) {
	qs := []string{"where", "How do I build drafts with GetRemote?", "taxonmy", "get remote resources", "snake_case and camelCase"}
	want := map[string][]byte{}
	ix := NewIndex2(hugoDocs("en"))
	for _, q := range qs {
		p := ix.Search(q, Budget{})
		want[q] = p.JSON()
	}
	again := NewIndex2(hugoDocs("en"))
	var wg sync.WaitGroup
	for i := 0; i < 4; i++ {
		wg.Go(func() {
			for _, q := range qs {
				for _, e := range []*Index2{ix, again} {
					p := e.Search(q, Budget{})
					if got := p.JSON(); !bytes.Equal(got, want[q]) {
						t.Errorf("%q: differs:\n%s\n%s", q, got, want[q])
					}
				}
			}
		})
	}
	wg.Wait()
}

func TestEngine2Package(t *testing.T) {
	ix := NewIndex2(hugoDocs("en"))
	p := ix.Search("GetRemote", Budget{})
	if p.Engine != EngineID2 || ix.ID() != EngineID2 || p.Recipe().EngineID != EngineID2 || p.SourceVersion != ix.SourceVersion() {
		t.Errorf("ids: %s", p.JSON())
	}
	if err := Check(&p); err != nil || p.Budget.UsedBytes != len(p.JSON()) {
		t.Errorf("identity: %v %d", err, p.Budget.UsedBytes)
	}
	p1 := NewIndex(hugoDocs("en")).Search("GetRemote", Budget{})
	if p1.ContextID == p.ContextID {
		t.Error("engines share a context id")
	}
	if n := NewIndex2(&corpus.Corpus{}).Search("anything", Budget{}); n.Status != Insufficient {
		t.Error("empty corpus")
	}
}

// Work per question is bounded: at most maxQueryTerms2 terms, at most
// maxFuzzyTerms corrected words of at most maxExpansions terms each.
func TestEngine2Bounds(t *testing.T) {
	ix := NewIndex2(hugoDocs("en"))
	var words []string
	for i := 0; i < 100; i++ {
		words = append(words, fmt.Sprintf("word%d", i))
	}
	q := ix.parse(strings.Join(words, " ") + " taxonomy")
	if len(q.terms) > maxQueryTerms2 {
		t.Errorf("%d terms", len(q.terms))
	}
	q = ix.parse("taxonmy resourcs partialcahced includecahced getremot fetchd")
	n := 0
	for _, qt := range q.terms {
		if strings.Contains(qt.reason, "~") {
			n++
			if len(qt.ids) > maxExpansions {
				t.Errorf("%s: %d expansions", qt.reason, len(qt.ids))
			}
		}
	}
	if n > maxFuzzyTerms || n == 0 {
		t.Errorf("%d corrected words", n)
	}
	for _, s := range oddStrings {
		ix.Search(s+" where "+s, Budget{})
	}
}

// The golden identities pin askplane.bm25/2: if any changes, what the
// engine returns changed, and EngineID2 must change with it (keeping this
// engine for replay).
func TestEngine2GoldenContextIDs(t *testing.T) {
	ix := NewIndex2(hugoDocs("en"))
	tx := NewIndex2(tiny(t))
	var got []string
	for _, q := range []string{"where", "How do I build drafts with GetRemote?", "taxonmy", "get remote resources fetched", "snake_case"} {
		got = append(got, ix.Search(q, Budget{}).ContextID)
	}
	for _, q := range []string{"How do I install the CLI?", "vérifier le site"} {
		got = append(got, tx.Search(q, Budget{}).ContextID)
	}
	want := []string{
		"sha256:64d0ccde942c28e6b6d677f093e6e3eca51c397986538157b1b5620e10fe94ee",
		"sha256:f4c4256d0e3d7c1bfd907d1dfcbcfc17c8d29040a560762b467487ec2c9922f3",
		"sha256:227f9f203c8118478fc1235ff46d74b370441f447a4a10c34b35fd2eba6a2eed",
		"sha256:a8bdbfd46429c24bb43c1c0d5f3c29c4287cd3732bc962e9f54534f0e9e93073",
		"sha256:29e88651149575607628be7e0529e09ce279a6f52c819facbce9ade952c26b91",
		"sha256:b05cfbfbd0f53b281f92eca379786e47902d990079c0150d8d70fe7c0b991bd4",
		"sha256:da25ba92d821db51fe20b2e8e6473281f5da7d5d9bd612403c56e8ffedde2553",
	}
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("context ids:\n%s", strings.Join(got, "\n"))
	}
}
