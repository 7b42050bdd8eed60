package corpus

import (
	"encoding/json"
	"reflect"
	"strings"
	"testing"
)

// v2 builds a one-page version 2 corpus from chunk objects.
func v2(chunks ...string) string {
	return `{"protocol":"askplane.corpus","version":2,"siteId":"docs","language":"en",` +
		`"pages":[{"url":"/docs/x/","title":"X","chunks":[` + strings.Join(chunks, ",") + `]}]}`
}

func ch(level int, anchor, heading, text string) string {
	b, _ := json.Marshal(map[string]any{"level": level, "anchor": anchor, "heading": heading, "text": text})
	return string(b)
}

func load(t *testing.T, doc string) (*Corpus, error) {
	t.Helper()
	return Load([]byte(doc), ContentHash([]byte(doc)))
}

// paths returns "anchor=path/…:text" for each record, for compact checks.
func paths(c *Corpus) []string {
	out := make([]string, len(c.Records))
	for i, r := range c.Records {
		out[i] = r.Anchor + "=" + strings.Join(r.Headings, "/") + ":" + r.Text
	}
	return out
}

func TestV2Records(t *testing.T) {
	for _, tc := range []struct {
		name   string
		chunks []string
		want   []string
	}{
		{"the documented example", []string{
			ch(0, "", "", " intro text "), ch(2, "install", "Install ", "plain text of the section"), ch(3, "linux", "Linux", ""),
		}, []string{"=X:intro text", "install=X/Install:plain text of the section"}},
		{"heading paths across levels", []string{
			ch(2, "a", "A", "a"), // h2
			ch(3, "b", "B", "b"), // h3 under A
			ch(2, "c", "C", "c"), // h2 closes A and B
			ch(4, "d", "D", "d"), // h4 right under an h2
			ch(3, "e", "E", "e"), // h3 closes D, stays under C
			ch(1, "f", "F", "f"), // h1 closes everything
			ch(3, "g", "G", "g"), // h3 under an h1
			ch(3, "h", "H", "h"), // sibling h3
			ch(6, "i", "I", "i"), // h6
			ch(5, "j", "J", "j"), // h5 closes the h6
			ch(1, "k", "K", "k"), // a second h1
		}, []string{
			"a=X/A:a", "b=X/A/B:b", "c=X/C:c", "d=X/C/D:d", "e=X/C/E:e", "f=X/F:f",
			"g=X/F/G:g", "h=X/F/H:h", "i=X/F/H/I:i", "j=X/F/H/J:j", "k=X/K:k",
		}},
		{"empty chunks are skipped but open their heading", []string{
			ch(0, "", "", "  "), ch(2, "a", "A", ""), ch(3, "b", "B", "b"), ch(4, "c", "C", " \t\n"), ch(5, "d", "D", "d"),
		}, []string{"b=X/A/B:b", "d=X/A/B/C/D:d"}},
		{"a skipped chunk's anchor may repeat", []string{
			ch(2, "a", "A", ""), ch(2, "a", "A", "kept"),
		}, []string{"a=X/A:kept"}},
		{"trimming uses Unicode White_Space", []string{
			ch(0, "", "", "\u00a0\u3000intro\u2003 "), ch(2, "a", "\u3000A\u00a0", "\u0085text\u00a0x\u3000"),
		}, []string{"=X:intro", "a=X/A:text\u00a0x"}},
		{"text that is only U+FEFF has no record", []string{
			ch(2, "a", "A", "\ufeff"), ch(3, "b", "B", "\ufeffb"),
		}, []string{"b=X/A/B:\ufeffb"}},
		{"no chunks", nil, []string{}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			c, err := load(t, v2(tc.chunks...))
			if err != nil {
				t.Fatal(err)
			}
			if got := paths(c); !reflect.DeepEqual(got, tc.want) {
				t.Fatalf("records\n got %q\nwant %q", got, tc.want)
			}
			for _, r := range c.Records {
				if r.URL != "/docs/x/" || r.Title != "X" || r.ID != RecordID(r.URL, r.Anchor) {
					t.Errorf("record %+v", r)
				}
			}
		})
	}
}

func TestV2Errors(t *testing.T) {
	for _, tc := range []struct {
		name, doc, code string
	}{
		{"level 0 not first", v2(ch(2, "a", "A", "a"), ch(0, "", "", "b")), CodeInvalid},
		{"level 0 not first, even after an empty chunk", v2(ch(0, "", "", ""), ch(0, "", "", "b")), CodeInvalid},
		{"level 7", v2(ch(7, "a", "A", "a")), CodeInvalid},
		{"level -1", v2(ch(-1, "a", "A", "a")), CodeInvalid},
		{"level not an integer", v2(`{"level":2.5,"anchor":"a","heading":"A","text":"a"}`), CodeInvalid},
		{"level 0 with an anchor", v2(ch(0, "a", "", "a")), CodeInvalid},
		{"level 0 with a heading", v2(ch(0, "", "A", "a")), CodeInvalid},
		{"duplicate anchors among kept chunks", v2(ch(2, "a", "A", "a"), ch(3, "b", "B", ""), ch(2, "a", "A2", "b")), CodeInvalid},
		{"missing level", v2(`{"anchor":"a","heading":"A","text":"a"}`), CodeInvalid},
		{"missing heading", v2(`{"level":2,"anchor":"a","text":"a"}`), CodeInvalid},
		{"null text", v2(`{"level":2,"anchor":"a","heading":"A","text":null}`), CodeInvalid},
		{"v1 chunk in a v2 corpus", v2(`{"anchor":"a","headings":["X","A"],"text":"a"}`), CodeInvalid},
		{"unsafe anchor", v2(ch(2, "a\tb", "A", "a")), CodeInvalid},
		{"unsafe url", strings.Replace(v2(ch(2, "a", "A", "a")), `"/docs/x/"`, `"javascript:x"`, 1), CodeInvalid},
		{"version 4", strings.Replace(v2(ch(2, "a", "A", "a")), `"version":2`, `"version":4`, 1), CodeUnsupported},
		{"version 0", strings.Replace(v2(ch(2, "a", "A", "a")), `"version":2`, `"version":0`, 1), CodeUnsupported},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, err := load(t, tc.doc)
			if got := CodeOf(err); got != tc.code {
				t.Fatalf("code = %q, want %q (%v)", got, tc.code, err)
			}
		})
	}
}

// Two pages written as v1 (paths and trimming done by the templates) and
// as v2 (done by the reader) decode to the same records.
func TestV1AndV2DecodeAlike(t *testing.T) {
	const v1 = `{"language":"en","pages":[` +
		`{"chunks":[` +
		`{"anchor":"","headings":["Guide"],"text":"Intro\u00a0text."},` +
		`{"anchor":"setup","headings":["Guide","Set up"],"text":"Set it up."},` +
		`{"anchor":"linux","headings":["Guide","Set up","Linux"],"text":"apt install x"},` +
		`{"anchor":"deep","headings":["Guide","Use","Deep"],"text":"Deep text."},` +
		`{"anchor":"faq","headings":["Guide","FAQ"],"text":"Ask."}],` +
		`"title":"Guide","url":"/docs/guide/"},` +
		`{"chunks":[{"anchor":"x","headings":["Other","X"],"text":"x"}],"title":"Other","url":"/docs/other/"}],` +
		`"protocol":"askplane.corpus","siteId":"docs","version":1}`
	const v2doc = `{"language":"en","pages":[` +
		`{"chunks":[` +
		`{"anchor":"","heading":"","level":0,"text":" \u3000Intro\u00a0text. "},` +
		`{"anchor":"setup","heading":" Set up ","level":2,"text":"Set it up."},` +
		`{"anchor":"linux","heading":"Linux","level":3,"text":"apt install x\u00a0"},` +
		`{"anchor":"use","heading":"Use","level":2,"text":" "},` +
		`{"anchor":"deep","heading":"Deep","level":4,"text":"Deep text."},` +
		`{"anchor":"faq","heading":"FAQ","level":2,"text":"Ask."}],` +
		`"title":"Guide","url":"/docs/guide/"},` +
		`{"chunks":[{"anchor":"x","heading":"X","level":1,"text":"x"}],"title":"Other","url":"/docs/other/"}],` +
		`"protocol":"askplane.corpus","siteId":"docs","version":2}`
	a, err := load(t, v1)
	if err != nil {
		t.Fatal(err)
	}
	b, err := load(t, v2doc)
	if err != nil {
		t.Fatal(err)
	}
	if len(a.Records) != 6 || !reflect.DeepEqual(a.Records, b.Records) {
		t.Fatalf("records differ\nv1 %+v\nv2 %+v", a.Records, b.Records)
	}
	if a.SiteID != b.SiteID || a.Language != b.Language || a.Version == b.Version {
		t.Errorf("headers %+v %+v", a, b)
	}
}

func TestV1StillDecodes(t *testing.T) {
	c, err := load(t, tinyCorpus)
	if err != nil {
		t.Fatal(err)
	}
	if got := paths(c); !reflect.DeepEqual(got, []string{
		"=Install:Install the CLI with go install.", "verify=Install/Verify:Run askplane verify public/.",
	}) {
		t.Fatalf("records %q", got)
	}
}

// Paths share no backing array a later heading could overwrite.
func TestV2PathsDoNotAlias(t *testing.T) {
	c, err := load(t, v2(ch(1, "a", "A", "a"), ch(2, "b", "B", "b"), ch(2, "c", "C", "c"), ch(3, "d", "D", "d"), ch(2, "e", "E", "e")))
	if err != nil {
		t.Fatal(err)
	}
	want := []string{"a=X/A:a", "b=X/A/B:b", "c=X/A/C:c", "d=X/A/C/D:d", "e=X/A/E:e"}
	if got := paths(c); !reflect.DeepEqual(got, want) {
		t.Fatalf("records\n got %q\nwant %q", got, want)
	}
}
