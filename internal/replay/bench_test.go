package replay

import (
	"math/rand/v2"
	"strconv"
	"strings"
	"testing"

	"github.com/askplane/askplane/internal/corpus"
	"github.com/askplane/askplane/internal/engines"
	"github.com/askplane/askplane/internal/evidence"
)

// guideFile is a corpus file shaped like internal/evidence's guide
// benchmark corpus (and tools/loadgen's synthetic site): pages titled
// "Guide …", an introduction and three sections each, words from a
// 6,000-word skewed vocabulary.
func guideFile(pages int) []byte {
	rng := rand.New(rand.NewPCG(9, 9))
	word := func() string { u := rng.Float64(); return "w" + strconv.Itoa(int(u*u*6000)) }
	sentence := func(n int) string {
		w := make([]string, n)
		for i := range w {
			w[i] = word()
		}
		return strings.Join(w, " ") + "."
	}
	var b strings.Builder
	b.WriteString(`{"language":"en","protocol":"askplane.corpus","siteId":"docs","version":1,"pages":[`)
	for i := range pages {
		if i > 0 {
			b.WriteByte(',')
		}
		title := "Guide " + word() + " " + word() + " " + strconv.Itoa(i)
		b.WriteString(`{"url":"/docs/page-` + strconv.Itoa(i) + `/","title":"` + title + `","chunks":[{"anchor":"","headings":["` + title + `"],"text":"` + sentence(12) + " " + sentence(10) + `"}`)
		for j := range 3 {
			b.WriteString(`,{"anchor":"s` + strconv.Itoa(j) + `","headings":["` + title + `","` + word() + " " + word() + `"],"text":"` + sentence(15) + " " + sentence(15) + " " + sentence(8) + `"}`)
		}
		b.WriteString(`]}`)
	}
	b.WriteString(`]}`)
	return []byte(b.String())
}

// BenchmarkReplay10kPages replays an answer's recipe over a 10,000-page
// corpus (40,000 records): "warm" is a replay of a version whose engine
// is built (the served version, or a retained one replayed before);
// "cold" reads the retained bytes, decodes and indexes them first, the
// cost of the first replay of a retained version after a restart.
func BenchmarkReplay10kPages(b *testing.B) {
	raw := guideFile(10_000)
	version := corpus.ContentHash(raw)
	ix, err := engines.Current().Open(raw, version)
	if err != nil {
		b.Fatal(err)
	}
	p := ix.Search("how do I configure w12 w40 with w7?", evidence.Budget{MaxRecords: 5})
	if p.Status != evidence.Sufficient {
		b.Fatal("the benchmark question found nothing")
	}
	recipe := p.Recipe()
	b.Logf("corpus: %d bytes, %d records", len(raw), ix.(*evidence.Index).Len())
	b.Run("warm", func(b *testing.B) {
		r := mustNew(b, Config{Loaded: []Loaded{{Engine: engines.Current(), Index: ix}}})
		for b.Loop() {
			res, err := r.Replay(b.Context(), recipe)
			if err != nil || res.Identity.Digest != p.Digest {
				b.Fatal(err)
			}
		}
	})
	b.Run("cold", func(b *testing.B) {
		s := newFakeStore()
		s.put(raw, engines.Current().ID)
		for b.Loop() {
			r := mustNew(b, Config{Sources: s})
			res, err := r.Replay(b.Context(), recipe)
			if err != nil || res.Identity.Digest != p.Digest {
				b.Fatal(err)
			}
		}
	})
}
