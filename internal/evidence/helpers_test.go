package evidence

import (
	"encoding/json"
	"fmt"
	"sort"
	"strings"
	"testing"

	"github.com/askplane/askplane/internal/corpus"
)

func slicesSort(s []string) { sort.Strings(s) }

// appendCanonical appends the whole canonical form sealMeasured hashes in
// two parts (see appendCanonicalHead).
func (p *Package) appendCanonical(b []byte, withIDs bool) []byte {
	return p.appendCanonicalBody(p.appendCanonicalHead(b, withIDs))
}

// identity hashes the canonical form in one piece: the context id when
// context, else the digest. The tests check sealMeasured against it.
func (p *Package) identity(context bool) string {
	return hashID(p.appendCanonical(nil, !context), nil)
}

var words = strings.Fields(`alpha beta gamma delta widget corpus build hugo sidecar answer question
cache header artifact hash verify install module config page section anchor site deploy server`)

// genCorpusJSON writes a deterministic askplane.corpus v1 document of
// pages pages with four sections each.
func genCorpusJSON(pages int) []byte {
	type chunk struct {
		Anchor   string   `json:"anchor"`
		Headings []string `json:"headings"`
		Text     string   `json:"text"`
	}
	type page struct {
		URL    string  `json:"url"`
		Title  string  `json:"title"`
		Chunks []chunk `json:"chunks"`
	}
	state := uint64(42)
	next := func() int {
		state = state*6364136223846793005 + 1442695040888963407
		return int(state >> 33)
	}
	sentence := func() string {
		n := 6 + next()%10
		var b strings.Builder
		for i := 0; i < n; i++ {
			if i > 0 {
				b.WriteByte(' ')
			}
			b.WriteString(words[next()%len(words)])
		}
		return strings.ToUpper(b.String()[:1]) + b.String()[1:] + "."
	}
	var ps []page
	for i := 0; i < pages; i++ {
		title := fmt.Sprintf("%s %s %d", words[next()%len(words)], words[next()%len(words)], i)
		p := page{URL: fmt.Sprintf("/docs/p%d/", i), Title: title}
		for j := 0; j < 4; j++ {
			var text []string
			for k := 0; k < 3+next()%5; k++ {
				text = append(text, sentence())
			}
			p.Chunks = append(p.Chunks, chunk{Anchor: fmt.Sprintf("s%d", j), Headings: []string{title, words[next()%len(words)]}, Text: strings.Join(text, " ")})
		}
		ps = append(ps, p)
	}
	data, _ := json.Marshal(map[string]any{"protocol": "askplane.corpus", "version": 1, "siteId": "gen", "language": "en", "pages": ps})
	return data
}

func bigCorpus(t testing.TB, pages int) *corpus.Corpus {
	t.Helper()
	data := genCorpusJSON(pages)
	c, err := corpus.Load(data, corpus.ContentHash(data))
	if err != nil {
		t.Fatal(err)
	}
	return c
}
