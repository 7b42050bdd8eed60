package corpus

import (
	"errors"
	"strings"
	"testing"
	"testing/fstest"

	"github.com/askplane/askplane/internal/protocol"
)

// CodeOf returns the code of a corpus error, or "" for any other error.
func CodeOf(err error) string {
	var e *Error
	if errors.As(err, &e) {
		return e.Code
	}
	return ""
}

const tinyCorpus = `{"language":"en","pages":[{"chunks":[` +
	`{"anchor":"","headings":["Install"],"text":"Install the CLI with go install."},` +
	`{"anchor":"verify","headings":["Install","Verify"],"text":"Run askplane verify public/."}],` +
	`"title":"Install","url":"/docs/install/"}],"protocol":"askplane.corpus","siteId":"docs","version":1}`

func site(corpus, hash string) fstest.MapFS {
	if hash == "" {
		hash = ContentHash([]byte(corpus))
	}
	manifest := `{"protocol":"askplane.manifest","version":1,"siteId":"docs","language":"en",` +
		`"site":"/askplane/en/site.json","corpus":{"href":"/askplane/en/corpus.0123456789ab.json","contentHash":"` + hash + `"}}`
	return fstest.MapFS{
		"askplane/en/manifest.json":            {Data: []byte(manifest)},
		"askplane/en/corpus.0123456789ab.json": {Data: []byte(corpus)},
	}
}

func TestLoadDir(t *testing.T) {
	c, err := LoadDir(site(tinyCorpus, ""), "en")
	if err != nil {
		t.Fatal(err)
	}
	if c.SiteID != "docs" || c.Language != "en" || c.Version != ContentHash([]byte(tinyCorpus)) {
		t.Fatalf("header = %q %q %q", c.SiteID, c.Language, c.Version)
	}
	if len(c.Records) != 2 {
		t.Fatalf("%d records", len(c.Records))
	}
	r0, r1 := c.Records[0], c.Records[1]
	if r0.Href() != "/docs/install/" || r1.Href() != "/docs/install/#verify" {
		t.Errorf("hrefs %q %q", r0.Href(), r1.Href())
	}
	if r1.Title != "Install" || strings.Join(r1.Headings, "/") != "Install/Verify" || r1.Text != "Run askplane verify public/." {
		t.Errorf("record 1 = %+v", r1)
	}
	if r0.ID != "docs.install-"+r0.ID[len(r0.ID)-12:] || !strings.HasPrefix(r1.ID, "docs.install:verify-") {
		t.Errorf("ids %q %q", r0.ID, r1.ID)
	}
}

func TestErrorCodes(t *testing.T) {
	for _, tc := range []struct {
		name string
		fsys fstest.MapFS
		code string
	}{
		{"hash mismatch", site(tinyCorpus, "sha256:"+strings.Repeat("0", 64)), CodeMismatch},
		{"malformed hash", site(tinyCorpus, "sha256:XYZ"), CodeManifest},
		{"not json", site("{", ""), CodeInvalid},
		{"wrong protocol", site(strings.Replace(tinyCorpus, `"askplane.corpus"`, `"x"`, 1), ""), CodeInvalid},
		{"version 4", site(strings.Replace(tinyCorpus, `"version":1`, `"version":4`, 1), ""), CodeUnsupported},
		{"unsafe url", site(strings.Replace(tinyCorpus, `"/docs/install/"`, `"javascript:alert(1)"`, 1), ""), CodeInvalid},
		{"empty text", site(strings.Replace(tinyCorpus, `"Run askplane verify public/."`, `"  "`, 1), ""), CodeInvalid},
		{"duplicate anchor", site(strings.Replace(tinyCorpus, `"anchor":""`, `"anchor":"verify"`, 1), ""), CodeInvalid},
		{"other site", site(strings.Replace(tinyCorpus, `"siteId":"docs"`, `"siteId":"other"`, 1), ""), CodeInvalid},
		{"no manifest", fstest.MapFS{}, CodeRead},
		{"no corpus", fstest.MapFS{"askplane/en/manifest.json": {Data: []byte(`{"protocol":"askplane.manifest","version":1,"siteId":"docs","language":"en"}`)}}, CodeMissing},
		{"href escapes", fstest.MapFS{"askplane/en/manifest.json": {Data: []byte(`{"protocol":"askplane.manifest","version":1,"siteId":"docs","language":"en","corpus":{"href":"/askplane/en/../fr/corpus.0.json","contentHash":"sha256:` + strings.Repeat("0", 64) + `"}}`)}}, CodeManifest},
		{"manifest too large", fstest.MapFS{"askplane/en/manifest.json": {Data: make([]byte, MaxManifestBytes+1)}}, CodeTooLarge},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, err := LoadDir(tc.fsys, "en")
			if got := CodeOf(err); got != tc.code {
				t.Fatalf("code = %q, want %q (%v)", got, tc.code, err)
			}
		})
	}
}

func TestLoadChecksHashBeforeParsing(t *testing.T) {
	_, err := Load([]byte("not json"), ContentHash([]byte("other")))
	if CodeOf(err) != CodeMismatch {
		t.Fatalf("err = %v", err)
	}
	if strings.Contains(err.Error(), "not json") {
		t.Fatal("error echoes the payload")
	}
}

func TestRecordIDs(t *testing.T) {
	long := "/" + strings.Repeat("segment/", 40)
	for _, tc := range [][2]string{
		{"/", ""}, {"/", "top"}, {"/docs/x/", ""}, {"/fr/démarrer/", "étape-1"}, {long, strings.Repeat("a", 300)}, {"/%E2%9C%93/", "✓"},
	} {
		id := RecordID(tc[0], tc[1])
		if !protocol.ValidIdentifier(id) {
			t.Errorf("RecordID(%q, %q) = %q is not a SafeIdentifier", tc[0], tc[1], id)
		}
		if id != RecordID(tc[0], tc[1]) {
			t.Errorf("unstable id")
		}
	}
	if RecordID("/a/", "b") == RecordID("/a/b/", "") || RecordID("/a-b/", "") == RecordID("/a/b/", "") {
		t.Error("ids collide")
	}
}
