// Package fakesite lays out small built-site folders for tests of the
// commands and entry points that serve them: the files the Hugo module
// publishes for a corpus (askplane/<lang>/manifest.json and the
// content-addressed corpus it pins), faked without running Hugo (for a
// site Hugo really builds, see internal/sitetest). Buffer keeps a
// process's output for those tests.
package fakesite

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
)

// Page is one page of a test corpus, with one chunk.
type Page struct {
	URL, Title, Anchor, Text string
}

// WriteCorpus writes the corpus of pages for siteID in lang into the
// built-site folder public, with the manifest pinning its hash, and
// returns the corpus's content hash.
func WriteCorpus(public, lang, siteID string, pages ...Page) (string, error) {
	type chunk struct {
		Anchor   string   `json:"anchor"`
		Headings []string `json:"headings"`
		Text     string   `json:"text"`
	}
	type page struct {
		Chunks []chunk `json:"chunks"`
		Title  string  `json:"title"`
		URL    string  `json:"url"`
	}
	doc := struct {
		Language string `json:"language"`
		Pages    []page `json:"pages"`
		Protocol string `json:"protocol"`
		SiteID   string `json:"siteId"`
		Version  int    `json:"version"`
	}{Language: lang, Protocol: "askplane.corpus", SiteID: siteID, Version: 1}
	for _, p := range pages {
		doc.Pages = append(doc.Pages, page{Chunks: []chunk{{Anchor: p.Anchor, Headings: []string{p.Title}, Text: p.Text}}, Title: p.Title, URL: p.URL})
	}
	corpus, err := json.Marshal(doc)
	if err != nil {
		return "", err
	}
	sum := sha256.Sum256(corpus)
	hash := hex.EncodeToString(sum[:])
	dir := "askplane/" + lang
	manifest := `{"protocol":"askplane.manifest","version":1,"siteId":"` + siteID + `","language":"` + lang + `","site":"/` + dir + `/site.json",` +
		`"artifact":{"href":"/` + dir + `/knowledge.000000000000.json","contentHash":"sha256:` + strings.Repeat("0", 64) + `"},` +
		`"corpus":{"href":"/` + dir + `/corpus.` + hash[:12] + `.json","contentHash":"sha256:` + hash + `"},"sources":{}}`
	for name, data := range map[string][]byte{
		dir + "/manifest.json":                 []byte(manifest),
		dir + "/corpus." + hash[:12] + ".json": corpus,
	} {
		path := filepath.Join(public, filepath.FromSlash(name))
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			return "", err
		}
		if err := os.WriteFile(path, data, 0o644); err != nil {
			return "", err
		}
	}
	return "sha256:" + hash, nil
}
