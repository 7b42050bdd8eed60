package evidence

import (
	"bytes"
	"encoding/json"
	"math/rand/v2"
	"reflect"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/askplane/askplane/internal/chunk"
	"github.com/askplane/askplane/internal/chunk/chunk1"
	"github.com/askplane/askplane/internal/corpus"
)

const tinyCorpus = `{"language":"en","pages":[` +
	`{"chunks":[{"anchor":"","headings":["Install"],"text":"Install the CLI with go install. It needs Go 1.26."},` +
	`{"anchor":"verify","headings":["Install","Verify a build"],"text":"Run askplane verify public/ after every build. It checks hashes."}],` +
	`"title":"Install","url":"/docs/install/"},` +
	`{"chunks":[{"anchor":"cache","headings":["Caching","Cache headers"],"text":"Serve the artifact with Cache-Control immutable. The site config must revalidate."}],` +
	`"title":"Caching","url":"/docs/caching/"},` +
	`{"chunks":[{"anchor":"démarrer","headings":["Démarrer"],"text":"Installez la CLI. Vérifiez le site généré."}],` +
	`"title":"Démarrer","url":"/fr/demarrer/"}` +
	`],"protocol":"askplane.corpus","siteId":"docs","version":1}`

func tiny(t testing.TB) *corpus.Corpus {
	t.Helper()
	c, err := corpus.Load([]byte(tinyCorpus), corpus.ContentHash([]byte(tinyCorpus)))
	if err != nil {
		t.Fatal(err)
	}
	return c
}

// The golden identities pin the engine: if they change, EngineID must.
// They were checked independently with Python (json.dumps with sorted
// keys, compact separators, ensure_ascii=False, which is JCS for this data).
func TestGoldenContextID(t *testing.T) {
	p := NewIndex(tiny(t)).Search("How do I install the CLI?", Budget{})
	const wantContext = "sha256:16b342f5fac16c4745fd1dd470476bc8b4bdf3d1c75445731debc5de98380526"
	const wantDigest = "sha256:65f2d8f520d6133ed851a87af3ff5ad9e85c5b96fb561b63f7334ad8c467bf03"
	if p.ContextID != wantContext || p.Digest != wantDigest {
		t.Errorf("context_id = %s\ndigest     = %s\n%s", p.ContextID, p.Digest, p.JSON())
	}
	if p.Status != Sufficient || len(p.Records) == 0 || p.Records[0].URL != "/docs/install/" {
		t.Fatalf("package = %s", p.JSON())
	}
	if got := strings.Join(p.Records[0].Reasons, ","); got != "cli,install" {
		t.Errorf("reasons = %q", got)
	}
	if p.Budget.UsedBytes != len(p.JSON()) {
		t.Errorf("used_bytes = %d, len = %d", p.Budget.UsedBytes, len(p.JSON()))
	}
	if err := Check(&p); err != nil {
		t.Fatal(err)
	}
}

func TestContextIDIgnoresUsedBytesDigestAndFieldOrder(t *testing.T) {
	p := NewIndex(tiny(t)).Search("verify build", Budget{})
	q := p
	q.Budget.UsedBytes++
	q.Digest = "x"
	if q.identity(true) != p.ContextID {
		t.Error("context_id depends on used_bytes or digest")
	}
	if q.identity(false) == p.Digest {
		t.Error("digest ignores used_bytes")
	}
	if Check(&q) == nil {
		t.Error("Check accepted a tampered package")
	}
	q = p
	q.Records = append([]Selected(nil), p.Records...)
	q.Records[0].Excerpt += " extra"
	if Check(&q) == nil || q.identity(true) == p.ContextID {
		t.Error("context_id ignores an excerpt change")
	}
}

func TestDeterministic(t *testing.T) {
	c := tiny(t)
	first := NewIndex(c).Search("Verify the build's hashes, and cache!", Budget{})
	for i := 0; i < 50; i++ {
		p := NewIndex(c).Search("Verify the build's hashes, and cache!", Budget{})
		if !bytes.Equal(p.JSON(), first.JSON()) {
			t.Fatalf("run %d differs:\n%s\n%s", i, p.JSON(), first.JSON())
		}
	}
}

// Shuffling records changes only what depends on record order (tie
// breaks and the corpus hash); the selection, scores and reasons of
// distinct-scoring records stay the same.
func TestShuffledRecordOrder(t *testing.T) {
	c := tiny(t)
	want := NewIndex(c).Search("install verify cache", Budget{MaxRecords: 16})
	rng := rand.New(rand.NewPCG(1, 2))
	for i := 0; i < 50; i++ {
		s := *c
		s.Records = append([]corpus.Record(nil), c.Records...)
		rng.Shuffle(len(s.Records), func(i, j int) { s.Records[i], s.Records[j] = s.Records[j], s.Records[i] })
		got := NewIndex(&s).Search("install verify cache", Budget{MaxRecords: 16})
		if scoresOf(got) != scoresOf(want) {
			t.Fatalf("shuffle %d:\n%s\n%s", i, scoresOf(got), scoresOf(want))
		}
	}
}

func scoresOf(p Package) string {
	var lines []string
	for _, r := range p.Records {
		lines = append(lines, r.ID+" "+r.Score+" "+strings.Join(r.Reasons, ","))
	}
	slicesSort(lines)
	return strings.Join(lines, "\n")
}

func TestNoMatchIsInsufficient(t *testing.T) {
	ix := NewIndex(tiny(t))
	for _, q := range []string{"", "   ", "how do I do it?", "zebra quantum", "🙂"} {
		p := ix.Search(q, Budget{})
		if p.Status != Insufficient || len(p.Records) != 0 {
			t.Errorf("%q: %s", q, p.JSON())
		}
		if !strings.HasPrefix(p.ContextID, "sha256:") || Check(&p) != nil {
			t.Errorf("%q: identities %s %s", q, p.ContextID, p.Digest)
		}
	}
}

func TestUnicodeQueries(t *testing.T) {
	ix := NewIndex(tiny(t))
	for _, q := range []string{"DÉMARRER", "démarrer", "de\u0301marrer", "ＤＥＭＡＲＲＥＲ vérifiez"} {
		p := ix.Search(q, Budget{})
		if q == "ＤＥＭＡＲＲＥＲ vérifiez" {
			// Fullwidth letters fold to "demarrer", which is not "démarrer";
			// "vérifiez" still matches.
			if len(p.Records) != 1 || p.Records[0].URL != "/fr/demarrer/" || strings.Join(p.Records[0].Reasons, ",") != "vérifiez" {
				t.Errorf("%q: %s", q, p.JSON())
			}
			continue
		}
		if len(p.Records) != 1 || p.Records[0].URL != "/fr/demarrer/" {
			t.Errorf("%q: %s", q, p.JSON())
		}
	}
	got := Terms("İstanbul naïve ΣΊΣΥΦΟΣ 東京タワー e\u0301t\u00e9")
	want := []string{"i̇stanbul", "naïve", "σίσυφος", "東京タワー", "été"}
	if strings.Join(got, "|") != strings.Join(want, "|") {
		t.Errorf("Terms = %q, want %q", got, want)
	}
}

func TestBudget(t *testing.T) {
	c := bigCorpus(t, 50)
	ix := NewIndex(c)
	p := ix.Search("alpha widget", Budget{MaxRecords: 3})
	if len(p.Records) != 3 || p.Budget.MaxRecords != 3 {
		t.Fatalf("%d records", len(p.Records))
	}
	for _, maxBytes := range []int{MinMaxBytes, 3000, 5000, 9000} {
		p := ix.Search("alpha widget", Budget{MaxRecords: 16, MaxBytes: maxBytes})
		if n := len(p.JSON()); n > maxBytes || p.Budget.UsedBytes != n {
			t.Errorf("max %d: %d bytes, used_bytes %d", maxBytes, n, p.Budget.UsedBytes)
		}
		if len(p.Records) == 0 || len(p.Records) == 16 && maxBytes < 9000 {
			t.Errorf("max %d: %d records", maxBytes, len(p.Records))
		}
		for _, r := range p.Records {
			if len(r.Excerpt) > MaxExcerptBytes || !utf8.ValidString(r.Excerpt) {
				t.Errorf("excerpt of %d bytes", len(r.Excerpt))
			}
		}
	}
	p = ix.Search("alpha", Budget{MaxRecords: 1000, MaxBytes: 1 << 30})
	if p.Budget.MaxRecords != MaxMaxRecords || p.Budget.MaxBytes != MaxMaxBytes {
		t.Errorf("budget not clamped: %+v", p.Budget)
	}
}

func TestExcerptIsVerbatimAndBounded(t *testing.T) {
	long := strings.Repeat("Filler sentence about nothing much. ", 60) + "The widget needs the ünïcode key. " + strings.Repeat("Trailing words here. ", 60)
	got := excerpt(long, []string{"key", "widget"})
	if !strings.Contains(long, got) || len(got) > MaxExcerptBytes || !strings.Contains(got, "The widget needs the ünïcode key.") {
		t.Errorf("excerpt = %q", got)
	}
	one := strings.Repeat("é", 2000)
	if got := excerpt(one, nil); len(got) > MaxExcerptBytes || !utf8.ValidString(got) || !strings.HasPrefix(one, got) {
		t.Errorf("cut excerpt of %d bytes", len(got))
	}
}

func TestSentences(t *testing.T) {
	got := Sentences("  Run askplane.json now. Then go!\nNext line? Yes… 東京。大阪  ")
	want := []string{"Run askplane.json now.", "Then go!", "Next line?", "Yes…", "東京。", "大阪"}
	if strings.Join(got, "|") != strings.Join(want, "|") {
		t.Errorf("Sentences = %q", got)
	}
}

func TestPackageJSONShape(t *testing.T) {
	p := NewIndex(tiny(t)).Search("cache", Budget{})
	var m map[string]any
	if err := json.Unmarshal(p.JSON(), &m); err != nil {
		t.Fatal(err)
	}
	for _, k := range []string{"protocol", "version", "source_version", "engine", "question", "budget", "records", "status", "context_id", "digest"} {
		if _, ok := m[k]; !ok {
			t.Errorf("missing %s", k)
		}
	}
	if m["protocol"] != Protocol || m["engine"] != EngineID || m["source_version"] != corpus.ContentHash([]byte(tinyCorpus)) {
		t.Errorf("%s", p.JSON())
	}
	r := p.Records[0]
	if r.Href() != "/docs/caching/#cache" || r.Score == "" || strings.Count(r.Score, ".") != 1 || len(r.Score[strings.Index(r.Score, ".")+1:]) != 6 {
		t.Errorf("record %+v", r)
	}
}

// The canonical form must name every Package field but digest, every
// Budget field and every Selected field, and the wire JSON every field of
// each: both are written by hand, so a field added to a type and not to
// its writers would silently fall out of the bytes and the identities.
func TestWritersNameEveryField(t *testing.T) {
	p := NewIndex(tiny(t)).Search("install", Budget{})
	var full, canon map[string]json.RawMessage
	if err := json.Unmarshal(p.JSON(), &full); err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal(p.appendCanonical(nil, true), &canon); err != nil {
		t.Fatal(err)
	}
	if n := reflect.TypeFor[Package]().NumField(); len(full) != n || len(canon) != n-1 {
		t.Fatalf("Package has %d fields; JSON has %d keys, canonical %d", n, len(full), len(canon))
	}
	delete(full, "digest")
	for k := range full {
		if _, ok := canon[k]; !ok {
			t.Errorf("canonical form lacks %s", k)
		}
	}
	for _, pair := range []struct {
		typ       reflect.Type
		wire, jcs json.RawMessage
	}{
		{reflect.TypeFor[Budget](), full["budget"], canon["budget"]},
		{reflect.TypeFor[Selected](), p.Records[0].appendJSON(nil), p.Records[0].appendCanonical(nil)},
	} {
		var w, c map[string]any
		json.Unmarshal(pair.wire, &w)
		json.Unmarshal(pair.jcs, &c)
		n := 0 // fields on the wire: all but those tagged json:"-" (Selected.Blocks)
		for i := range pair.typ.NumField() {
			if pair.typ.Field(i).Tag.Get("json") != "-" {
				n++
			}
		}
		if len(w) != n || len(c) != n {
			t.Errorf("%s has %d fields; JSON has %d keys, canonical %d", pair.typ, n, len(w), len(c))
		}
	}
	if strings.Contains(string(p.appendCanonical(nil, false)), "used_bytes") || strings.Contains(string(p.appendCanonical(nil, false)), "context_id") {
		t.Error("context form holds used_bytes or context_id")
	}
}

func TestLabel(t *testing.T) {
	long := strings.Repeat("𝄞", 200) // 400 UTF-16 units
	for _, tc := range []struct {
		s    Selected
		want string
	}{
		{Selected{Title: "Install", Headings: []string{"Install"}}, "Install"},
		{Selected{Title: "Install", Anchor: "verify", Headings: []string{"Install", "Verify"}}, "Install › Verify"},
		{Selected{Title: " ", Anchor: "a", Headings: []string{"A"}, URL: "/x/"}, "A"},
		{Selected{URL: "/x/"}, "/x/"},
		{Selected{Title: long}, strings.Repeat("𝄞", 128)},
	} {
		if got := tc.s.Label(); got != tc.want {
			t.Errorf("Label(%+v) = %q, want %q", tc.s, got, tc.want)
		}
	}
}

// Questions are recorded verbatim, whatever they contain, and the
// identities still verify.
func TestOddQuestions(t *testing.T) {
	ix := NewIndex(tiny(t))
	for _, q := range []string{"install\u2028cache", "<script>&amp;</script> install", "ctl\x00\x1f\x7f verify", "bad \xff utf8 install", strings.Repeat("install ", 2000)} {
		p := ix.Search(q, Budget{})
		if err := Check(&p); err != nil {
			t.Errorf("%.40q: %v", q, err)
		}
		if !json.Valid(p.JSON()) {
			t.Errorf("%.40q: invalid JSON", q)
		}
	}
}

// An engine id stands for one chunker version (see EngineID): changing
// either alone fails here. askplane.bm25/1 and /2 read with the frozen
// askplane.chunk/1, askplane.bm25/3, /4 and /5 with the current chunker.
func TestEngineChunker(t *testing.T) {
	if EngineID != "askplane.bm25/1" || EngineID2 != "askplane.bm25/2" || chunk1.Version != "askplane.chunk/1" {
		t.Fatalf("engines %s and %s with chunker %s: their chunker is frozen", EngineID, EngineID2, chunk1.Version)
	}
	if EngineID3 != "askplane.bm25/3" || EngineID4 != "askplane.bm25/4" || EngineID5 != "askplane.bm25/5" || chunk.Version != "askplane.chunk/2" {
		t.Fatalf("engines %s, %s and %s with chunker %s: a new chunker needs a new engine id", EngineID3, EngineID4, EngineID5, chunk.Version)
	}
}
