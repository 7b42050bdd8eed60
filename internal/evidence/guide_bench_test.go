package evidence

import (
	"math/rand/v2"
	"strconv"
	"strings"
	"sync"
	"testing"

	"github.com/askplane/askplane/internal/corpus"
)

// guideCorpus is shaped like the load test's synthetic site
// (tools/loadgen): pages titled "Guide …" (a word in every record),
// an introduction and three sections each, words drawn from a
// 6,000-word vocabulary with a skewed frequency (u² of it), so most
// question terms are rare and one is in every record.
func guideCorpus(pages int) *corpus.Corpus {
	rng := rand.New(rand.NewPCG(9, 9))
	word := func() string {
		u := rng.Float64()
		return "w" + strconv.Itoa(int(u*u*6000))
	}
	sentence := func(n int) string {
		w := make([]string, n)
		for i := range w {
			w[i] = word()
		}
		return strings.Join(w, " ") + "."
	}
	var recs []corpus.Record
	for i := 0; i < pages; i++ {
		title := "Guide " + word() + " " + word() + " " + strconv.Itoa(i)
		url := "/docs/page-" + strconv.Itoa(i) + "/"
		recs = append(recs, corpus.Record{ID: "p" + strconv.Itoa(i), URL: url, Title: title, Headings: []string{title}, Text: sentence(12) + " " + sentence(10)})
		for j := 0; j < 3; j++ {
			h := word() + " " + word()
			recs = append(recs, corpus.Record{ID: "p" + strconv.Itoa(i) + "s" + strconv.Itoa(j), URL: url, Anchor: "s" + strconv.Itoa(j), Title: title,
				Headings: []string{title, h}, Text: sentence(15) + " " + sentence(15) + " " + sentence(8)})
		}
	}
	return &corpus.Corpus{Version: "sha256:" + strings.Repeat("0", 64), Records: recs}
}

var (
	guideOnce sync.Once
	guide     *corpus.Corpus
)

// BenchmarkSearchGuide10k asks heading questions ("How do I <heading> in
// <title>?") of a 10,000-page guideCorpus, as the load test does.
func BenchmarkSearchGuide10k(b *testing.B) {
	guideOnce.Do(func() { guide = guideCorpus(10_000) })
	benchGuide(b, NewIndex(guide))
}

// BenchmarkSearch2Guide10k is BenchmarkSearchGuide10k for askplane.bm25/2.
func BenchmarkSearch2Guide10k(b *testing.B) {
	guideOnce.Do(func() { guide = guideCorpus(10_000) })
	benchGuide(b, NewIndex2(guide))
}

func benchGuide(b *testing.B, ix Engine) {
	var qs []string
	for i := 0; i < len(guide.Records); i += 97 {
		r := guide.Records[i]
		qs = append(qs, "How do I "+r.Headings[len(r.Headings)-1]+" in the "+r.Title+"?")
	}
	b.ReportAllocs()
	i := 0
	for b.Loop() {
		ix.Search(qs[i%len(qs)], Budget{})
		i++
	}
}
