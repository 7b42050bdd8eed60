package verify

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"io/fs"
	"maps"
	"path"
	"reflect"
	"slices"
	"strings"
	"testing"
	"testing/fstest"

	"github.com/askplane/askplane/internal/corpus"
	"github.com/askplane/askplane/internal/protocol"
)

// fixture is one language's outputs as the module publishes them, held as
// JSON values so a test can break one rule at a time before they are
// written into a fake publish folder.
type fixture struct {
	lang, siteID, base, fallback string

	artifact map[string]any
	corpus   map[string]any
	sources  map[string]string

	pin      string // the hash site.json and the manifest pin; default the artifact's
	artName  string // the artifact's file name; default from the pin
	site     func(map[string]any)
	manifest func(map[string]any)
	files    func(fstest.MapFS, *fixture)

	// Set by build: the paths written.
	manifestPath, sitePath, artifactPath, corpusPath string
}

func newFixture(t testing.TB, lang string) *fixture {
	t.Helper()
	siteID := "my-docs-" + lang
	a, err := protocol.Seal(&protocol.Artifact{
		ArtifactID:  siteID + "-0123456789ab",
		SiteID:      siteID,
		GeneratedAt: "2026-01-02T00:00:00.000Z",
		ExpiresAt:   "2026-02-01T00:00:00.000Z",
		Entries: []protocol.Entry{
			{
				ID: "install-cli", Kind: "command", Label: "Install the CLI",
				Values: []string{"install cli", "go install askplane"},
				Answer: protocol.Answer{Markdown: "Run `go install`.", Citations: []protocol.Citation{
					{ID: "page-docs-install", Title: "Install", Href: "/docs/install/"},
				}},
			},
			{
				ID: "report-bug", Kind: "contribution", Label: "Report a bug",
				Values: []string{"report a bug", "file an issue"},
				Answer: protocol.Answer{Markdown: "Open an issue.", Citations: []protocol.Citation{
					{ID: "cite-1", Title: "Issue tracker", Href: "https://example.com/issues"},
				}},
			},
			{
				// Shares "install cli" with install-cli: the two become
				// choices, and "setup" keeps it reachable.
				ID: "setup", Kind: "document", Label: "Setup",
				Values: []string{"setup", "Install CLI"},
				Answer: protocol.Answer{Markdown: "Open [Setup](/docs/setup/)."},
			},
		},
	})
	if err != nil {
		t.Fatalf("Seal: %v", err)
	}
	b, err := a.MarshalJSON()
	if err != nil {
		t.Fatal(err)
	}
	return &fixture{
		lang: lang, siteID: siteID, base: "/", fallback: "disabled",
		artifact: decode(t, b),
		corpus: decode(t, fmt.Appendf(nil, `{"protocol":"askplane.corpus","version":1,"siteId":%q,"language":%q,"pages":[
			{"url":"/docs/install/","title":"Install","chunks":[
				{"anchor":"","headings":["Install"],"text":"Intro."},
				{"anchor":"steps","headings":["Install","Steps"],"text":"Do the thing."}]},
			{"url":"/docs/setup/","title":"Setup","chunks":[
				{"anchor":"","headings":["Setup"],"text":"Set it up."}]}]}`, siteID, lang)),
		sources: map[string]string{
			"install-cli": "content/docs/install.md",
			"report-bug":  "data/askplane/community.yaml",
			"setup":       "content/docs/setup.md",
		},
	}
}

func decode(t testing.TB, b []byte) map[string]any {
	t.Helper()
	v, err := parseJSON(b)
	if err != nil {
		t.Fatalf("decode: %v\n%s", err, b)
	}
	return v.(map[string]any)
}

func encode(t testing.TB, v any) []byte {
	t.Helper()
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(v); err != nil {
		t.Fatal(err)
	}
	return bytes.TrimSuffix(buf.Bytes(), []byte("\n"))
}

// entry returns the artifact's i-th entry.
func (f *fixture) entry(i int) map[string]any {
	return f.artifact["entries"].([]any)[i].(map[string]any)
}

func (f *fixture) match(i int) map[string]any { return f.entry(i)["match"].(map[string]any) }

func (f *fixture) answer(i int) map[string]any { return f.entry(i)["answer"].(map[string]any) }

func (f *fixture) page(i int) map[string]any { return f.corpus["pages"].([]any)[i].(map[string]any) }

func (f *fixture) chunk(p, c int) map[string]any {
	return f.page(p)["chunks"].([]any)[c].(map[string]any)
}

// build writes the fixture into fsys.
func (f *fixture) build(t testing.TB, fsys fstest.MapFS) {
	t.Helper()
	dir := "askplane/" + f.lang
	art := encode(t, f.artifact)
	pin := f.pin
	if pin == "" {
		pin, _ = f.artifact["contentHash"].(string)
	}
	artName := f.artName
	if artName == "" {
		artName = "knowledge." + pin[7:19] + ".json"
	}
	corpus := encode(t, f.corpus)
	sum := sha256.Sum256(corpus)
	corpusHash := "sha256:" + hex.EncodeToString(sum[:])
	corpusName := "corpus." + corpusHash[7:19] + ".json"
	href := func(name string) string { return f.base + dir + "/" + name }

	site := map[string]any{
		"protocol": "agentskit.chat.site", "version": 1, "siteId": f.siteID,
		"artifact": map[string]any{"href": href(artName), "contentHash": pin},
		"fallback": map[string]any{"mode": f.fallback},
	}
	if f.site != nil {
		f.site(site)
	}
	sources := map[string]any{}
	for k, v := range f.sources {
		sources[k] = v
	}
	manifest := map[string]any{
		"protocol": "askplane.manifest", "version": 1, "siteId": f.siteID, "language": f.lang,
		"site":     href("site.json"),
		"artifact": map[string]any{"href": href(artName), "contentHash": pin},
		"corpus":   map[string]any{"href": href(corpusName), "contentHash": corpusHash},
		"sources":  sources,
	}
	if f.manifest != nil {
		f.manifest(manifest)
	}
	f.manifestPath, f.sitePath = dir+"/manifest.json", dir+"/site.json"
	f.artifactPath, f.corpusPath = dir+"/"+artName, dir+"/"+corpusName
	fsys[f.manifestPath] = &fstest.MapFile{Data: encode(t, manifest)}
	fsys[f.sitePath] = &fstest.MapFile{Data: encode(t, site)}
	fsys[f.artifactPath] = &fstest.MapFile{Data: art}
	fsys[f.corpusPath] = &fstest.MapFile{Data: corpus}
	if f.files != nil {
		f.files(fsys, f)
	}
}

func run(t *testing.T, fixtures ...*fixture) *Report {
	t.Helper()
	fsys := fstest.MapFS{"index.html": &fstest.MapFile{Data: []byte("<!doctype html>")}}
	for _, f := range fixtures {
		f.build(t, fsys)
	}
	rep, err := Site(fsys)
	if err != nil {
		t.Fatalf("Site: %v", err)
	}
	return rep
}

// codes lists a report's problems as code, or code@fact.
func codes(rep *Report) []string {
	var out []string
	for _, p := range rep.Problems {
		s := p.Code
		if p.Fact != "" {
			s += "@" + p.Fact
		}
		out = append(out, s)
	}
	return out
}

func TestValidSite(t *testing.T) {
	f := newFixture(t, "en")
	rep := run(t, f)
	if len(rep.Problems) != 0 || !rep.OK() {
		t.Fatalf("problems: %v", rep.Problems)
	}
	sum := sha256.Sum256(encode(t, f.corpus))
	want := Language{
		Lang: "en", SiteID: "my-docs-en", Fallback: "disabled",
		Facts: 3, ContentHash: f.artifact["contentHash"].(string),
		Pages: 2, Chunks: 3, CorpusHash: "sha256:" + hex.EncodeToString(sum[:]),
	}
	got := rep.Languages
	if len(got) != 1 || !reflect.DeepEqual(got[0], want) {
		t.Fatalf("languages:\n got %+v\nwant %+v", got, want)
	}
	line := fmt.Sprintf("askplane: en: my-docs-en: 3 facts, 3 corpus chunks from 2 pages, artifact %s  OK", want.ContentHash)
	if s := got[0].Summary(); s != line {
		t.Errorf("summary:\n got %s\nwant %s", s, line)
	}
}

func TestValidVariants(t *testing.T) {
	tests := []struct {
		name string
		edit func(*fixture)
	}{
		{"base path", func(f *fixture) { f.base = "/proj/" }},
		{"no expiry", func(f *fixture) {
			delete(f.artifact, "expiresAt")
			f.artifact["contentHash"] = recompute(t, f.artifact)
		}},
		{"symlink inside the folder", func(f *fixture) {
			f.files = func(fsys fstest.MapFS, f *fixture) {
				fsys["assets/"+path.Base(f.corpusPath)] = fsys[f.corpusPath]
				fsys[f.corpusPath] = &fstest.MapFile{Mode: fs.ModeSymlink, Data: []byte("../../assets/" + path.Base(f.corpusPath))}
			}
		}},
		{"other askplane folder", func(f *fixture) {
			f.files = func(fsys fstest.MapFS, f *fixture) {
				fsys["askplane/images/logo.png"] = &fstest.MapFile{Data: []byte("png")}
			}
		}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			f := newFixture(t, "en")
			tt.edit(f)
			if rep := run(t, f); len(rep.Problems) != 0 || len(rep.Languages) != 1 {
				t.Fatalf("problems: %v; languages %+v", rep.Problems, rep.Languages)
			}
		})
	}
}

// recompute returns the content hash of an edited artifact.
func recompute(t *testing.T, artifact map[string]any) string {
	t.Helper()
	h, err := protocol.ComputeContentHash(encode(t, artifact))
	if err != nil {
		t.Fatalf("ComputeContentHash: %v", err)
	}
	return h
}

func TestBackendFallbackWarns(t *testing.T) {
	f := newFixture(t, "en")
	f.fallback = "backend"
	rep := run(t, f)
	if got := codes(rep); !slices.Equal(got, []string{"site.fallback.unchecked"}) {
		t.Fatalf("codes %v", got)
	}
	if !rep.OK() || rep.Errors() != 0 || rep.Warnings() != 1 || !rep.Problems[0].Warning {
		t.Errorf("a warning must not fail: %+v", rep)
	}
	if !strings.HasPrefix(rep.Problems[0].String(), "askplane: warning: [site.fallback.unchecked] askplane/en/site.json: ") {
		t.Errorf("line %q", rep.Problems[0].String())
	}
}

// TestArtifactRules breaks one artifact rule at a time.
func TestArtifactRules(t *testing.T) {
	long := func(n int) string { return strings.Repeat("x", n) }
	tests := []struct {
		name string
		edit func(*fixture)
		want []string
	}{
		{"duplicate id", func(f *fixture) { f.entry(2)["id"] = "install-cli" },
			[]string{"fact.id.duplicate@install-cli"}},
		{"duplicate after normalization", func(f *fixture) {
			f.match(0)["values"] = []any{"install cli", "go install askplane", "  Install   CLI "}
		}, []string{"fact.match.duplicate@install-cli"}},
		{"same phrasing twice", func(f *fixture) {
			f.match(1)["values"] = []any{"report a bug", "file an issue", "report a bug"}
		}, []string{"fact.match.duplicate@report-bug"}},
		{"no unique phrasing", func(f *fixture) { f.match(2)["values"] = []any{"install cli"} },
			[]string{"fact.match.not-unique@setup"}},
		{"phrasing too long", func(f *fixture) {
			f.match(1)["values"] = []any{"report a bug", long(protocol.MaxAliasLen + 1)}
		}, []string{"fact.match.too-long@report-bug"}},
		{"phrasing too long after normalization", func(f *fixture) {
			// U+FB03 (ﬃ) is one UTF-16 unit and "ffi" after NFKC.
			f.match(1)["values"] = []any{"report a bug", strings.Repeat("\ufb03", 200)}
		}, []string{"fact.match.too-long@report-bug"}},
		{"empty phrasing", func(f *fixture) { f.match(1)["values"] = []any{"report a bug", " \u3000 "} },
			[]string{"fact.match.empty@report-bug"}},
		{"no phrasings", func(f *fixture) { f.match(1)["values"] = []any{} },
			[]string{"fact.match.missing@report-bug"}},
		{"too many phrasings", func(f *fixture) {
			var v []any
			for i := range protocol.MaxAliases + 1 {
				v = append(v, fmt.Sprintf("bug %d", i))
			}
			f.match(1)["values"] = v
		}, []string{"fact.match.too-many@report-bug"}},
		{"label too long", func(f *fixture) { f.entry(0)["label"] = long(protocol.MaxLabelLen + 1) },
			[]string{"fact.label.too-long@install-cli"}},
		{"label empty after trimming", func(f *fixture) { f.entry(0)["label"] = "\t\ufeff " },
			[]string{"fact.label.missing@install-cli"}},
		{"answer too long", func(f *fixture) { f.answer(0)["markdown"] = long(protocol.MaxMarkdownLen + 1) },
			[]string{"fact.answer.too-long@install-cli"}},
		{"citation title too long", func(f *fixture) {
			f.answer(0)["citations"].([]any)[0].(map[string]any)["title"] = long(protocol.MaxTitleLen + 1)
		}, []string{"fact.cite.title.too-long@install-cli"}},
		{"too many citations", func(f *fixture) {
			var c []any
			for i := range protocol.MaxCitations + 1 {
				c = append(c, map[string]any{"id": fmt.Sprintf("c%d", i), "title": "T", "href": "/t/"})
			}
			f.answer(1)["citations"] = c
		}, []string{"fact.cite.too-many@report-bug"}},
		{"bad id", func(f *fixture) { f.entry(1)["id"] = "-report-bug" },
			[]string{"fact.id.invalid@-report-bug"}},
		{"missing id", func(f *fixture) { delete(f.entry(1), "id") },
			[]string{"fact.id.missing"}},
		{"bad kind", func(f *fixture) { f.entry(1)["kind"] = "faq" },
			[]string{"fact.kind.invalid@report-bug"}},
		{"unsafe href", func(f *fixture) {
			f.answer(1)["citations"].([]any)[0].(map[string]any)["href"] = "javascript:alert(1)"
		}, []string{"fact.href.unsafe@report-bug"}},
		{"relative href", func(f *fixture) {
			f.answer(0)["citations"].([]any)[0].(map[string]any)["href"] = "docs/install/"
		}, []string{"fact.href.unsafe@install-cli"}},
		{"bad citation id", func(f *fixture) {
			f.answer(0)["citations"].([]any)[0].(map[string]any)["id"] = "a b"
		}, []string{"fact.cite.invalid@install-cli"}},
		{"entry not an object", func(f *fixture) { f.artifact["entries"].([]any)[1] = "report-bug" },
			[]string{"fact.invalid"}},
		{"bad generatedAt", func(f *fixture) { f.artifact["generatedAt"] = "2026-01-02" },
			[]string{"artifact.generated-at.invalid"}},
		{"bad expiresAt", func(f *fixture) { f.artifact["expiresAt"] = "2026-02-30T00:00:00Z" },
			[]string{"artifact.expires-at.invalid"}},
		{"expiresAt not after generatedAt", func(f *fixture) { f.artifact["expiresAt"] = "2026-01-02T00:00:00Z" },
			[]string{"artifact.expires-at.too-early"}},
		{"bad artifactId", func(f *fixture) { f.artifact["artifactId"] = "" },
			[]string{"artifact.id.invalid"}},
		{"malformed contentHash", func(f *fixture) {
			f.pin = f.artifact["contentHash"].(string)
			f.artifact["contentHash"] = strings.ToUpper(f.pin)
		}, []string{"artifact.hash.invalid"}},
		{"wrong protocol", func(f *fixture) { f.artifact["protocol"] = "agentskit.chat.answer" },
			[]string{"artifact.invalid"}},
		{"unsupported version", func(f *fixture) { f.artifact["version"] = 2 },
			[]string{"artifact.invalid"}},
		{"edited after the build", func(f *fixture) { f.answer(0)["markdown"] = "Run `go get`." },
			[]string{"artifact.hash.mismatch"}},
		{"pinned hash differs", func(f *fixture) {
			h := f.artifact["contentHash"].(string)
			f.pin = "sha256:" + strings.Repeat("0", 64)
			f.artName = "knowledge." + h[7:19] + ".json"
		}, []string{"artifact.name.mismatch", "artifact.hash.mismatch"}},
		{"renamed file", func(f *fixture) { f.artName = "knowledge.0123456789ab.json" },
			[]string{"artifact.name.mismatch"}},
		{"site id differs", func(f *fixture) {
			f.artifact["siteId"] = "someone-else"
			f.artifact["contentHash"] = recompute(t, f.artifact)
		}, []string{"artifact.site.mismatch"}},
		{"too many facts", func(f *fixture) {
			var list []any
			for i := range protocol.MaxEntries + 1 {
				list = append(list, map[string]any{
					"id": fmt.Sprintf("f%d", i), "kind": "document", "label": "L",
					"match":  map[string]any{"type": "exact", "values": []any{fmt.Sprintf("q%d", i)}},
					"answer": map[string]any{"markdown": "A", "citations": []any{}},
				})
			}
			f.artifact["entries"] = list
		}, []string{"facts.too-many"}},
		{"too large", func(f *fixture) { f.artifact["padding"] = long(protocol.MaxArtifactBytes) },
			[]string{"artifact.too-large"}},
		{"not JSON", func(f *fixture) {
			f.files = func(fsys fstest.MapFS, f *fixture) { fsys[f.artifactPath].Data = []byte("{") }
		}, []string{"artifact.invalid"}},
		{"several at once, in entry order", func(f *fixture) {
			f.entry(2)["label"] = ""
			f.entry(0)["kind"] = "faq"
			f.match(0)["values"] = []any{"install cli", "go install askplane", "Install CLI"}
		}, []string{"fact.kind.invalid@install-cli", "fact.match.duplicate@install-cli", "fact.label.missing@setup"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			f := newFixture(t, "en")
			tt.edit(f)
			rep := run(t, f)
			if got := codes(rep); !slices.Equal(got, tt.want) {
				t.Fatalf("codes\n got %v\nwant %v\n%s", got, tt.want, lines(rep))
			}
			t.Log(lines(rep))
			if rep.OK() || rep.Languages[0].OK() {
				t.Errorf("report OK despite %v", rep.Problems)
			}
		})
	}
}

func lines(rep *Report) string {
	var b strings.Builder
	for _, p := range rep.Problems {
		b.WriteString(p.String() + "\n")
	}
	return b.String()
}

// TestExplanations checks what the messages say: the entry, its source
// file, both phrasings and the key they share.
func TestExplanations(t *testing.T) {
	f := newFixture(t, "en")
	f.match(0)["values"] = []any{"install cli", "go install askplane", "Install  CLI"}
	f.match(2)["values"] = []any{"Go Install askplane", "Report a bug"}
	rep := run(t, f)
	want := []string{
		`askplane: [fact.match.duplicate] content/docs/install.md: fact "install-cli": phrasings "install cli" and "Install  CLI" both normalize to "install cli", so they are the same phrasing; keep one`,
		`askplane: [fact.match.not-unique] content/docs/setup.md: fact "setup": every phrasing is shared with another fact, so no question reaches this one directly: ` +
			`"Go Install askplane" (normalized "go install askplane") is also a phrasing of fact "install-cli" (content/docs/install.md); ` +
			`"Report a bug" (normalized "report a bug") is also a phrasing of fact "report-bug" (data/askplane/community.yaml); add a phrasing only this fact has`,
	}
	if got := strings.Split(strings.TrimSpace(lines(rep)), "\n"); !slices.Equal(got, want) {
		t.Fatalf("lines\n got %q\nwant %q", got, want)
	}
}

func TestUnknownSourceNamesTheArtifact(t *testing.T) {
	f := newFixture(t, "en")
	delete(f.sources, "report-bug")
	f.entry(1)["kind"] = "bug"
	rep := run(t, f)
	if len(rep.Problems) != 1 || rep.Problems[0].Source != f.artifactPath || rep.Problems[0].Fact != "report-bug" {
		t.Fatalf("problems %+v", rep.Problems)
	}
}

func TestManifestSiteAndFiles(t *testing.T) {
	tests := []struct {
		name string
		edit func(*fixture)
		want []string
	}{
		{"wrong manifest protocol", func(f *fixture) {
			f.manifest = func(m map[string]any) { m["protocol"] = "askplane.manifes" }
		}, []string{"manifest.invalid"}},
		{"manifest version", func(f *fixture) {
			f.manifest = func(m map[string]any) { m["version"] = "1" }
		}, []string{"manifest.invalid"}},
		{"manifest language differs from its folder", func(f *fixture) {
			f.manifest = func(m map[string]any) { m["language"] = "fr" }
		}, []string{"manifest.invalid"}},
		{"manifest without corpus, no backend", func(f *fixture) {
			f.manifest = func(m map[string]any) { delete(m, "corpus") }
		}, nil},
		{"manifest without corpus, backend", func(f *fixture) {
			f.fallback = "backend"
			f.manifest = func(m map[string]any) { delete(m, "corpus") }
		}, []string{"site.fallback.unchecked", "corpus.missing"}},
		{"manifest corpus not an object", func(f *fixture) {
			f.manifest = func(m map[string]any) { m["corpus"] = "x" }
		}, []string{"manifest.invalid"}},
		{"href escapes with ..", func(f *fixture) {
			f.manifest = func(m map[string]any) {
				c := m["corpus"].(map[string]any)
				c["href"] = "/askplane/en/../../../etc/" + path.Base(c["href"].(string))
			}
		}, []string{"manifest.href.invalid"}},
		{"absolute URL href", func(f *fixture) {
			f.manifest = func(m map[string]any) {
				c := m["corpus"].(map[string]any)
				c["href"] = "https://cdn.example" + c["href"].(string)
			}
		}, []string{"manifest.href.invalid"}},
		{"missing corpus", func(f *fixture) {
			f.files = func(fsys fstest.MapFS, f *fixture) { delete(fsys, f.corpusPath) }
		}, []string{"file.missing"}},
		{"missing site config", func(f *fixture) {
			f.files = func(fsys fstest.MapFS, f *fixture) { delete(fsys, f.sitePath) }
		}, []string{"file.missing"}},
		{"missing artifact", func(f *fixture) {
			f.files = func(fsys fstest.MapFS, f *fixture) { delete(fsys, f.artifactPath) }
		}, []string{"file.missing"}},
		{"symlink out of the folder", func(f *fixture) {
			f.files = func(fsys fstest.MapFS, f *fixture) {
				fsys[f.artifactPath] = &fstest.MapFile{Mode: fs.ModeSymlink, Data: []byte("../../../secrets.json")}
			}
		}, []string{"file.escape"}},
		{"language folder links out of the folder", func(f *fixture) {
			f.files = func(fsys fstest.MapFS, f *fixture) {
				for name, file := range fsys {
					if rest, ok := strings.CutPrefix(name, "askplane/en/"); ok {
						fsys["elsewhere/"+rest] = file
						delete(fsys, name)
					}
				}
				fsys["askplane/en"] = &fstest.MapFile{Mode: fs.ModeSymlink, Data: []byte("../../elsewhere")}
			}
		}, []string{"file.escape"}},
		{"language folder links inside the folder", func(f *fixture) {
			f.files = func(fsys fstest.MapFS, f *fixture) {
				for name, file := range fsys {
					if rest, ok := strings.CutPrefix(name, "askplane/en/"); ok {
						fsys["elsewhere/"+rest] = file
						delete(fsys, name)
					}
				}
				fsys["askplane/en"] = &fstest.MapFile{Mode: fs.ModeSymlink, Data: []byte("../elsewhere")}
			}
		}, nil},
		{"absolute symlink", func(f *fixture) {
			f.files = func(fsys fstest.MapFS, f *fixture) {
				fsys[f.sitePath] = &fstest.MapFile{Mode: fs.ModeSymlink, Data: []byte("/etc/passwd")}
			}
		}, []string{"file.escape"}},
		{"directory instead of a file", func(f *fixture) {
			f.files = func(fsys fstest.MapFS, f *fixture) {
				delete(fsys, f.corpusPath)
				fsys[f.corpusPath+"/x"] = &fstest.MapFile{}
			}
		}, []string{"file.unreadable"}},
		{"invalid site config", func(f *fixture) {
			f.site = func(s map[string]any) { s["fallback"] = map[string]any{"mode": "sometimes"} }
		}, []string{"site.invalid"}},
		{"site config with a bad href", func(f *fixture) {
			f.site = func(s map[string]any) { s["artifact"].(map[string]any)["href"] = "//cdn.example/k.json" }
		}, []string{"site.invalid"}},
		{"site config for another site", func(f *fixture) {
			f.site = func(s map[string]any) { s["siteId"] = "other" }
		}, []string{"site.mismatch", "artifact.site.mismatch"}},
		{"site config pins another href", func(f *fixture) {
			f.site = func(s map[string]any) { s["artifact"].(map[string]any)["href"] = "/askplane/en/knowledge.json" }
		}, []string{"site.mismatch"}},
		{"site config too large", func(f *fixture) {
			f.site = func(s map[string]any) { s["padding"] = strings.Repeat(" ", protocol.MaxSiteConfigBytes) }
		}, []string{"site.too-large"}},
		{"source missing from the manifest", func(f *fixture) { delete(f.sources, "setup") },
			[]string{"manifest.sources.mismatch@setup"}},
		{"source for an unknown fact", func(f *fixture) { f.sources["gone"] = "content/gone.md" },
			[]string{"manifest.sources.mismatch@gone"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			f := newFixture(t, "en")
			tt.edit(f)
			rep := run(t, f)
			if got := codes(rep); !slices.Equal(got, tt.want) {
				t.Fatalf("codes\n got %v\nwant %v\n%s", got, tt.want, lines(rep))
			}
			t.Log(lines(rep))
		})
	}
}

func TestCorpusRules(t *testing.T) {
	tests := []struct {
		name string
		edit func(*fixture)
		want []string
	}{
		{"edited after the build", func(f *fixture) {
			f.files = func(fsys fstest.MapFS, f *fixture) {
				fsys[f.corpusPath].Data = bytes.Replace(fsys[f.corpusPath].Data, []byte("Intro."), []byte("Intro!"), 1)
			}
		}, []string{"corpus.hash.mismatch"}},
		{"renamed", func(f *fixture) {
			f.manifest = func(m map[string]any) { m["corpus"].(map[string]any)["href"] = "/askplane/en/corpus.json" }
			f.files = func(fsys fstest.MapFS, f *fixture) {
				fsys["askplane/en/corpus.json"] = fsys[f.corpusPath]
			}
		}, []string{"corpus.name.mismatch"}},
		{"duplicate anchor", func(f *fixture) { f.chunk(0, 1)["anchor"] = "" },
			[]string{"corpus.anchor.duplicate"}},
		{"empty text", func(f *fixture) { f.chunk(1, 0)["text"] = "  " },
			[]string{"corpus.text.empty"}},
		{"relative url", func(f *fixture) { f.page(1)["url"] = "docs/setup/" },
			[]string{"corpus.url.unsafe"}},
		{"script url", func(f *fixture) { f.page(1)["url"] = "javascript:alert(1)" },
			[]string{"corpus.url.unsafe"}},
		{"duplicate url", func(f *fixture) { f.page(1)["url"] = "/docs/install/" },
			[]string{"corpus.url.duplicate"}},
		{"other site", func(f *fixture) { f.corpus["siteId"] = "other" },
			[]string{"corpus.invalid"}},
		{"other language", func(f *fixture) { f.corpus["language"] = "fr" },
			[]string{"corpus.invalid"}},
		{"wrong protocol", func(f *fixture) { f.corpus["protocol"] = "askplane.corpora" },
			[]string{"corpus.invalid"}},
		{"headings not strings", func(f *fixture) { f.chunk(0, 0)["headings"] = []any{1} },
			[]string{"corpus.invalid"}},
		{"null text", func(f *fixture) { f.chunk(0, 0)["text"] = nil },
			[]string{"corpus.invalid"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			f := newFixture(t, "en")
			tt.edit(f)
			rep := run(t, f)
			if got := codes(rep); !slices.Equal(got, tt.want) {
				t.Fatalf("codes\n got %v\nwant %v\n%s", got, tt.want, lines(rep))
			}
			t.Log(lines(rep))
		})
	}
}

func TestLanguagesInOrder(t *testing.T) {
	fr, en := newFixture(t, "fr"), newFixture(t, "en")
	fr.entry(0)["kind"] = "faq"
	en.chunk(0, 0)["text"] = ""
	en.entry(1)["kind"] = "faq"
	rep := run(t, fr, en)
	want := []string{"fact.kind.invalid@report-bug", "corpus.text.empty", "fact.kind.invalid@install-cli"}
	if got := codes(rep); !slices.Equal(got, want) {
		t.Fatalf("codes\n got %v\nwant %v", got, want)
	}
	if len(rep.Languages) != 2 || rep.Languages[0].Lang != "en" || rep.Languages[1].Lang != "fr" ||
		rep.Languages[0].Errors != 2 || rep.Languages[1].Errors != 1 {
		t.Errorf("languages %+v", rep.Languages)
	}
}

func TestNoOutputs(t *testing.T) {
	for name, fsys := range map[string]fstest.MapFS{
		"empty":         {},
		"site only":     {"index.html": &fstest.MapFile{}},
		"other folders": {"askplane/img/x.png": &fstest.MapFile{}},
	} {
		t.Run(name, func(t *testing.T) {
			rep, err := Site(fsys)
			if err != nil {
				t.Fatal(err)
			}
			if got := codes(rep); !slices.Equal(got, []string{"outputs.missing"}) || rep.OK() {
				t.Fatalf("codes %v", got)
			}
			if !strings.Contains(rep.Problems[0].Message, "askplane/widget.html") {
				t.Errorf("message %q", rep.Problems[0].Message)
			}
		})
	}
	rep, _ := Site(fstest.MapFS{"askplane/en/site.json": &fstest.MapFile{Data: []byte("{}")}})
	if got := codes(rep); !slices.Equal(got, []string{"manifest.missing"}) {
		t.Fatalf("codes %v", got)
	}
}

func TestProblemString(t *testing.T) {
	for _, tt := range []struct {
		p    Problem
		want string
	}{
		{Problem{Code: "fact.id.duplicate", Source: "content/a.md", Fact: "a", Message: "m"},
			`askplane: [fact.id.duplicate] content/a.md: fact "a": m`},
		{Problem{Code: "corpus.invalid", Source: "askplane/en/corpus.x.json", Message: "m"},
			`askplane: [corpus.invalid] askplane/en/corpus.x.json: m`},
		{Problem{Code: "site.fallback.unchecked", Message: "m", Warning: true},
			`askplane: warning: [site.fallback.unchecked] m`},
	} {
		if got := tt.p.String(); got != tt.want {
			t.Errorf("got %q, want %q", got, tt.want)
		}
	}
}

// TestReadsAreBounded checks that an oversize file is not read whole.
func TestReadsAreBounded(t *testing.T) {
	data := make([]byte, 1<<20)
	fsys := fstest.MapFS{"big": &fstest.MapFile{Data: data}}
	got, size, err := readFile(fsys, "big", 100)
	if err != nil || len(got) != 101 || size != int64(len(data)) {
		t.Fatalf("read %d bytes of %d, err %v", len(got), size, err)
	}
}

// FuzzSite replaces one published file with arbitrary bytes: verify must
// never panic, and every problem must say what it is.
func FuzzSite(f *testing.F) {
	fx := newFixture(f, "en")
	base := fstest.MapFS{}
	fx.build(f, base)
	paths := []string{fx.manifestPath, fx.sitePath, fx.artifactPath, fx.corpusPath}
	for i, p := range paths {
		f.Add(uint8(i), base[p].Data)
	}
	f.Add(uint8(2), []byte(`{"protocol":"agentskit.chat.knowledge","version":1,"entries":[{"id":"a","match":{"values":["x","X"," x "]}},{"id":"a","match":{"values":["x"]}},null,[]]}`))
	f.Add(uint8(3), []byte(`{"protocol":"askplane.corpus","version":1,"pages":[{"url":1,"chunks":[{},null]},null]}`))
	f.Add(uint8(3), []byte(`{"protocol":"askplane.corpus","version":2,"pages":[{"url":"/","chunks":[{"level":9},{"level":0,"text":" "},{"level":1e0,"anchor":"","heading":1,"text":"x"},null]}]}`))
	f.Add(uint8(0), []byte(`{"protocol":"askplane.manifest","version":1e0,"site":"/../x","artifact":{"href":"/%2e%2e/x"},"corpus":{},"sources":[]}`))
	f.Fuzz(func(t *testing.T, which uint8, data []byte) {
		fsys := maps.Clone(base)
		p := paths[int(which)%len(paths)]
		fsys[p] = &fstest.MapFile{Data: data}
		rep, err := Site(fsys)
		if err != nil {
			t.Fatal(err)
		}
		for _, pr := range rep.Problems {
			if pr.Code == "" || pr.Message == "" || pr.Source == "" {
				t.Fatalf("incomplete problem %+v", pr)
			}
		}
	})
}

// useV2 replaces the fixture's corpus with a version 2 one: two pages,
// five chunks, of which the reader keeps four (the Linux section has no
// text of its own).
func (f *fixture) useV2(t testing.TB) {
	f.corpus = decode(t, fmt.Appendf(nil, `{"protocol":"askplane.corpus","version":2,"siteId":%q,"language":%q,"pages":[
		{"url":"/docs/install/","title":"Install","chunks":[
			{"level":0,"anchor":"","heading":"","text":" Intro. "},
			{"level":2,"anchor":"steps","heading":"Steps ","text":"Do the thing."},
			{"level":3,"anchor":"linux","heading":"Linux","text":""},
			{"level":4,"anchor":"apt","heading":"apt","text":"apt install askplane"}]},
		{"url":"/docs/setup/","title":"Setup","chunks":[
			{"level":0,"anchor":"","heading":"","text":"Set it up."}]}]}`, f.siteID, f.lang))
}

func TestValidSiteV2(t *testing.T) {
	f := newFixture(t, "en")
	f.useV2(t)
	rep := run(t, f)
	if len(rep.Problems) != 0 || !rep.OK() {
		t.Fatalf("problems: %v", rep.Problems)
	}
	if l := rep.Languages[0]; l.Pages != 2 || l.Chunks != 4 {
		t.Fatalf("%d pages, %d chunks; want 2 and 4", l.Pages, l.Chunks)
	}
}

// Each v2 rule, and agreement with the reader: a corpus verify passes is
// one the sidecar loads, and one it rejects the sidecar refuses.
func TestCorpusRulesV2(t *testing.T) {
	tests := []struct {
		name   string
		edit   func(*fixture)
		want   []string
		chunks int
	}{
		{"empty text is skipped", func(f *fixture) { f.chunk(0, 1)["text"] = " \u00a0\n" }, nil, 3},
		{"empty level 0 text is skipped", func(f *fixture) { f.chunk(1, 0)["text"] = "" }, nil, 3},
		{"a skipped chunk's anchor may repeat", func(f *fixture) { f.chunk(0, 2)["anchor"] = "steps" }, nil, 4},
		{"duplicate anchor among kept chunks", func(f *fixture) { f.chunk(0, 3)["anchor"] = "steps" },
			[]string{"corpus.anchor.duplicate"}, 4},
		{"level 7", func(f *fixture) { f.chunk(0, 1)["level"] = 7 }, []string{"corpus.invalid"}, 4},
		{"level -1", func(f *fixture) { f.chunk(0, 1)["level"] = -1 }, []string{"corpus.invalid"}, 4},
		{"level 2.5", func(f *fixture) { f.chunk(0, 1)["level"] = 2.5 }, []string{"corpus.invalid"}, 4},
		{"level a string", func(f *fixture) { f.chunk(0, 1)["level"] = "2" }, []string{"corpus.invalid"}, 4},
		{"level missing", func(f *fixture) { delete(f.chunk(0, 1), "level") }, []string{"corpus.invalid"}, 4},
		{"level 0 after the first chunk", func(f *fixture) {
			c := f.chunk(0, 1)
			c["level"], c["anchor"], c["heading"] = 0, "", ""
		}, []string{"corpus.invalid", "corpus.anchor.duplicate"}, 4},
		{"level 0 with an anchor", func(f *fixture) { f.chunk(1, 0)["anchor"] = "top" }, []string{"corpus.invalid"}, 4},
		{"heading missing", func(f *fixture) { delete(f.chunk(0, 1), "heading") }, []string{"corpus.invalid"}, 4},
		{"null text", func(f *fixture) { f.chunk(0, 1)["text"] = nil }, []string{"corpus.invalid"}, 3},
		{"v1 chunks in a v2 corpus", func(f *fixture) {
			f.page(1)["chunks"] = []any{map[string]any{"anchor": "", "headings": []any{"Setup"}, "text": "Set it up."}}
		}, []string{"corpus.invalid", "corpus.invalid"}, 4},
		{"relative url", func(f *fixture) { f.page(1)["url"] = "docs/setup/" }, []string{"corpus.url.unsafe"}, 4},
		{"duplicate url", func(f *fixture) { f.page(1)["url"] = "/docs/install/" }, []string{"corpus.url.duplicate"}, 4},
		{"version 4", func(f *fixture) { f.corpus["version"] = 4 }, []string{"corpus.invalid"}, 0},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			f := newFixture(t, "en")
			f.useV2(t)
			tt.edit(f)
			rep := run(t, f)
			if got := codes(rep); !slices.Equal(got, tt.want) {
				t.Fatalf("codes\n got %v\nwant %v\n%s", got, tt.want, lines(rep))
			}
			if got := rep.Languages[0].Chunks; got != tt.chunks {
				t.Errorf("%d chunks, want %d", got, tt.chunks)
			}
			data := encode(t, f.corpus)
			c, err := corpus.Load(data, corpus.ContentHash(data))
			if (err == nil) != (len(tt.want) == 0) {
				t.Errorf("the reader says %v, verify %v", err, tt.want)
			}
			if err == nil && len(c.Records) != tt.chunks {
				t.Errorf("the reader keeps %d records, verify counts %d", len(c.Records), tt.chunks)
			}
			t.Log(lines(rep))
		})
	}
}

// useV3 replaces the fixture's corpus with a version 3 one: two pages
// whose HTML the reader chunks into four records.
func (f *fixture) useV3(t testing.TB) {
	f.corpus = decode(t, fmt.Appendf(nil, `{"protocol":"askplane.corpus","version":3,"siteId":%q,"language":%q,"pages":[
		{"url":"/docs/install/","title":"Install","kind":"page","section":"docs","lang":%[2]q,
		 "html":"<p>Intro.</p><h2 id=\"steps\">Steps</h2><p>Do the thing.</p><h3 id=\"linux\">Linux</h3><dl><dt id=\"apt\">apt</dt><dd><pre><code class=\"language-sh\">apt install askplane</code></pre></dd></dl>"},
		{"url":"/docs/","title":"Docs","kind":"section","section":"docs","lang":%[2]q,"html":"<p>Set it up.</p>"}]}`, f.siteID, f.lang))
}

// Each v3 rule, and agreement with the reader.
func TestCorpusRulesV3(t *testing.T) {
	tests := []struct {
		name   string
		edit   func(*fixture)
		want   []string
		chunks int
	}{
		{"valid", func(f *fixture) {}, nil, 4},
		{"empty html", func(f *fixture) { f.page(1)["html"] = "<nav>x</nav>" }, nil, 3},
		{"duplicate anchor", func(f *fixture) { f.page(0)["html"] = `<h2 id="a">A</h2><p>x</p><dl><dt id="a">a</dt><dd>y</dd></dl>` },
			[]string{"corpus.anchor.duplicate"}, 3},
		{"html too deep", func(f *fixture) { f.page(1)["html"] = strings.Repeat("<div>", 300) + "x" }, []string{"corpus.html.invalid"}, 3},
		{"html missing", func(f *fixture) { delete(f.page(1), "html") }, []string{"corpus.invalid"}, 3},
		{"kind missing", func(f *fixture) { delete(f.page(1), "kind") }, []string{"corpus.invalid"}, 4},
		{"other lang", func(f *fixture) { f.page(1)["lang"] = "fr" }, []string{"corpus.invalid"}, 4},
		{"unsafe url", func(f *fixture) { f.page(1)["url"] = "javascript:x" }, []string{"corpus.url.unsafe"}, 4},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			f := newFixture(t, "en")
			f.useV3(t)
			tt.edit(f)
			rep := run(t, f)
			if got := codes(rep); !slices.Equal(got, tt.want) {
				t.Fatalf("codes\n got %v\nwant %v\n%s", got, tt.want, lines(rep))
			}
			if got := rep.Languages[0].Chunks; got != tt.chunks {
				t.Errorf("%d chunks, want %d", got, tt.chunks)
			}
			data := encode(t, f.corpus)
			c, err := corpus.Load(data, corpus.ContentHash(data))
			if (err == nil) != (rep.Errors() == 0) {
				t.Errorf("the reader says %v, verify %v", err, tt.want)
			}
			if err == nil && len(c.Records) != tt.chunks {
				t.Errorf("the reader keeps %d records, verify counts %d", len(c.Records), tt.chunks)
			}
		})
	}
}

func TestSummaryWithoutCorpus(t *testing.T) {
	l := Language{Lang: "en", SiteID: "my-docs", Fallback: "disabled", Facts: 1, ContentHash: "sha256:ab"}
	if got, want := l.Summary(), "askplane: en: my-docs: 1 fact, no corpus (fallback is disabled), artifact sha256:ab  OK"; got != want {
		t.Errorf("Summary() = %q; want %q", got, want)
	}
	l.CorpusHash, l.Chunks, l.Pages = "sha256:cd", 3, 2
	if got, want := l.Summary(), "askplane: en: my-docs: 1 fact, 3 corpus chunks from 2 pages, artifact sha256:ab  OK"; got != want {
		t.Errorf("Summary() = %q; want %q", got, want)
	}
}

func TestManifestNotes(t *testing.T) {
	f := newFixture(t, "en")
	f.manifest = func(m map[string]any) {
		m["notes"] = []any{
			map[string]any{"code": "fact.generated.phrasing-dropped", "fact": "doc-install", "message": `"install" belongs to fact "install-cli"`},
			map[string]any{"message": "no code: skipped"},
			"not an object",
		}
	}
	rep := run(t, f)
	if !rep.OK() || len(rep.Languages) != 1 {
		t.Fatalf("a manifest with notes does not verify: %+v", rep)
	}
	notes := rep.Languages[0].Notes
	if len(notes) != 1 || notes[0].String() != `askplane: note: [fact.generated.phrasing-dropped] fact "doc-install": "install" belongs to fact "install-cli"` {
		t.Errorf("notes = %+v", notes)
	}
}
