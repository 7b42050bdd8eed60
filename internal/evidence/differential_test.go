package evidence

import (
	"bytes"
	"encoding/json"
	"fmt"
	"math"
	"math/rand/v2"
	"strconv"
	"strings"
	"testing"

	"github.com/askplane/askplane/internal/corpus"
)

// The optimized search path (pruned ranking, direct JSON writers,
// arithmetic used_bytes) must return exactly what the engine returned
// before it: the oracle is the verbatim copy in reference_test.go. Any
// difference is a bug in the optimization, never a reason to relax this.

// oddStrings are the spellings where JSON encoders disagree: controls,
// quotes, backslashes, HTML characters, DEL, U+2028/9, astral characters,
// invalid UTF-8 (which only a hand-built corpus can hold), U+FFFD itself.
var oddStrings = []string{
	"", "a", "\"", "\\", "\x00", "\x01", "\b", "\f", "\n", "\r", "\t", "\x1f", "\x7f",
	"<", ">", "&", "</script>", "\u2028", "\u2029", "\u00e9", "e\u0301", "東京", "𝄞", "🙂",
	"\xff", "\xc3", "\xed\xa0\x80", "\ufffd", "\u200b", "/", "\\u0041", "'",
}

// genWords is the vocabulary of generated corpora: ASCII words, words in
// other scripts, and a few words that become one term only after
// normalization.
var genWords = append(strings.Fields(`alpha beta gamma delta widget corpus build hugo sidecar answer question
cache header artifact hash verify install module config page section anchor site deploy server
kalo miven torsa reldi ponqua brinex ulfa zergi motas perin cordal senvi`),
	"démarrer", "vérifiez", "東京タワー", "σίσυφος", "naïve", "Été", "İstanbul", "ＤＥＭＯ", "x1", "2026")

type corpusShape struct {
	records   int
	vocab     int     // how many of genWords (Zipf-drawn)
	common    string  // a title word in every record, "" for none
	dupRate   float64 // chance a record repeats an earlier one (score ties)
	odd       bool    // sprinkle oddStrings into every field
	longTexts bool    // texts over MaxExcerptBytes
	rare      int     // a quarter of words are drawn from this many rare words ("rw0"…)
}

func genRecords(rng *rand.Rand, sh corpusShape) []corpus.Record {
	word := func() string {
		if sh.rare > 0 && rng.IntN(4) == 0 {
			return "rw" + strconv.Itoa(rng.IntN(sh.rare))
		}
		u := rng.Float64()
		return genWords[int(u*u*float64(sh.vocab))]
	}
	odd := func() string {
		if !sh.odd || rng.IntN(3) != 0 {
			return ""
		}
		return oddStrings[rng.IntN(len(oddStrings))]
	}
	phrase := func(n int) string {
		var b strings.Builder
		for i := 0; i < n; i++ {
			if i > 0 {
				b.WriteString([]string{" ", " ", " ", ", ", "-", "\t"}[rng.IntN(6)])
			}
			b.WriteString(word())
			b.WriteString(odd())
		}
		return b.String()
	}
	recs := make([]corpus.Record, 0, sh.records)
	for i := 0; i < sh.records; i++ {
		if i > 0 && rng.Float64() < sh.dupRate {
			r := recs[rng.IntN(len(recs))]
			r.ID = fmt.Sprintf("dup-%d", i)
			recs = append(recs, r)
			continue
		}
		title := phrase(1 + rng.IntN(3))
		if sh.common != "" {
			title = sh.common + " " + title
		}
		var headings []string
		switch rng.IntN(4) {
		case 0: // nil
		case 1:
			headings = []string{}
		default:
			headings = []string{title}
			for j := rng.IntN(3); j > 0; j-- {
				headings = append(headings, phrase(1+rng.IntN(3)))
			}
		}
		var sentences []string
		n := 1 + rng.IntN(6)
		if sh.longTexts && rng.IntN(3) == 0 {
			n = 30 + rng.IntN(60)
		}
		for j := 0; j < n; j++ {
			sentences = append(sentences, phrase(2+rng.IntN(14))+[]string{".", "!", "?", ".\n", "。"}[rng.IntN(5)])
		}
		recs = append(recs, corpus.Record{
			ID:       fmt.Sprintf("r%d%s", i, odd()),
			URL:      fmt.Sprintf("/docs/p%d/%s", i/4, odd()),
			Anchor:   []string{"", "s" + strconv.Itoa(i%4), "sec" + odd()}[rng.IntN(3)],
			Title:    title,
			Headings: headings,
			Text:     strings.Join(sentences, " "),
		})
	}
	return recs
}

func genQuestion(rng *rand.Rand, sh corpusShape) string {
	n := rng.IntN(12)
	if rng.IntN(20) == 0 {
		n = 40 + rng.IntN(30) // more than maxQueryTerms distinct terms
	}
	var parts []string
	for i := 0; i < n; i++ {
		switch rng.IntN(10) {
		case 0:
			parts = append(parts, []string{"how", "do", "I", "the", "what", "is"}[rng.IntN(6)])
		case 1:
			parts = append(parts, "zz"+strconv.Itoa(rng.IntN(1000))) // unknown
		case 2:
			if sh.common != "" {
				parts = append(parts, strings.ToUpper(sh.common))
				continue
			}
			fallthrough
		case 3:
			parts = append(parts, oddStrings[rng.IntN(len(oddStrings))])
		case 4, 5:
			if sh.rare > 0 {
				parts = append(parts, "rw"+strconv.Itoa(rng.IntN(sh.rare)))
				continue
			}
			fallthrough
		default:
			parts = append(parts, genWords[rng.IntN(len(genWords))])
		}
	}
	return strings.Join(parts, []string{" ", ", ", "? "}[rng.IntN(3)])
}

var genBudgets = []Budget{
	{}, {MaxRecords: 1}, {MaxRecords: 2}, {MaxRecords: 3, MaxBytes: 2500}, {MaxRecords: 16},
	{MaxRecords: 16, MaxBytes: 1}, {MaxRecords: 8, MaxBytes: 3000}, {MaxRecords: 16, MaxBytes: 6000},
	{MaxRecords: 100, MaxBytes: 1 << 30}, {MaxRecords: -1, MaxBytes: -5}, {MaxRecords: 5, MaxBytes: 2048},
}

// assertSameSearch runs both engines and fails on any byte difference.
func assertSameSearch(t *testing.T, ix *Index, ref *refIndex, q string, bud Budget) {
	t.Helper()
	got := ix.Search(q, bud)
	want := ref.Search(q, bud)
	gj, wj := got.JSON(), refJSON(&want)
	if !bytes.Equal(gj, wj) {
		t.Fatalf("question %q budget %+v:\n got %s\nwant %s", q, bud, gj, wj)
	}
	if !bytes.Equal(refJSON(&got), wj) {
		t.Fatalf("question %q budget %+v: JSON() hides a field difference", q, bud)
	}
}

func TestSearchMatchesReference(t *testing.T) {
	shapes := []corpusShape{
		{records: 1, vocab: 5},
		{records: 3, vocab: 3, dupRate: 0.5},
		{records: 40, vocab: 10, common: "guide", dupRate: 0.3},
		{records: 200, vocab: len(genWords), odd: true, longTexts: true},
		{records: 300, vocab: len(genWords), common: "guide", dupRate: 0.1, odd: true},
		{records: 600, vocab: 26, common: "handbook"},
		{records: 1500, vocab: len(genWords), common: "guide", longTexts: true},
		{records: 2500, vocab: len(genWords), dupRate: 0.05},
		{records: 3000, vocab: 12, common: "guide", rare: 3000, dupRate: 0.02},
		{records: 800, vocab: len(genWords), common: "guide", rare: 400, odd: true},
	}
	questions := 600
	if testing.Short() || raceEnabled {
		questions = 120
	}
	for si, sh := range shapes {
		rng := rand.New(rand.NewPCG(uint64(si), 7))
		c := &corpus.Corpus{Version: "sha256:" + strings.Repeat(strconv.Itoa(si%10), 64), Records: genRecords(rng, sh)}
		ix, ref := NewIndex(c), refNewIndex(c)
		for i := 0; i < questions; i++ {
			assertSameSearch(t, ix, ref, genQuestion(rng, sh), genBudgets[rng.IntN(len(genBudgets))])
		}
	}
}

// The generated corpora the benchmarks and other tests use, and the tiny
// golden corpus, with questions made of their own words.
func TestSearchMatchesReferenceOnFixtures(t *testing.T) {
	for _, c := range []*corpus.Corpus{tiny(t), bigCorpus(t, 50), bigCorpus(t, 700)} {
		ix, ref := NewIndex(c), refNewIndex(c)
		rng := rand.New(rand.NewPCG(3, uint64(len(c.Records))))
		for i := 0; i < 300; i++ {
			r := c.Records[rng.IntN(len(c.Records))]
			ws := Terms(r.Title + " " + r.Text)
			var q []string
			for j := rng.IntN(8); j >= 0 && len(ws) > 0; j-- {
				q = append(q, ws[rng.IntN(len(ws))])
			}
			assertSameSearch(t, ix, ref, strings.Join(q, " "), genBudgets[rng.IntN(len(genBudgets))])
		}
		for _, q := range []string{benchQuestion, "", "guide", "alpha beta gamma delta widget corpus build hugo sidecar answer question"} {
			assertSameSearch(t, ix, ref, q, Budget{MaxRecords: 16})
		}
	}
}

// randomPackage builds a package no search would return: any strings,
// nil and empty slices, ints anywhere in range. Check and JSON must
// still treat it exactly as before.
func randomPackage(rng *rand.Rand) Package {
	str := func() string {
		var b strings.Builder
		for n := rng.IntN(6); n > 0; n-- {
			if rng.IntN(2) == 0 {
				b.WriteString(oddStrings[rng.IntN(len(oddStrings))])
			} else {
				b.WriteString(genWords[rng.IntN(len(genWords))])
			}
		}
		return b.String()
	}
	strs := func() []string {
		switch rng.IntN(4) {
		case 0:
			return nil
		case 1:
			return []string{}
		}
		out := make([]string, 1+rng.IntN(3))
		for i := range out {
			out[i] = str()
		}
		return out
	}
	num := func() int {
		switch rng.IntN(8) {
		case 0:
			return []int{0, -1, 1 << 53, 1<<53 + 1, -(1<<53 + 1), 1<<53 - 1, math.MaxInt64, math.MinInt64, 1e15 + 3, 123456789012345678}[rng.IntN(10)]
		case 1:
			return int(rng.Int64())
		}
		return rng.IntN(1 << 20)
	}
	p := Package{
		Protocol: str(), Version: num(), SourceVersion: str(), Engine: str(), Question: str(),
		Budget: Budget{MaxRecords: num(), MaxBytes: num(), UsedBytes: num()},
		Status: Status(str()), ContextID: str(), Digest: str(),
	}
	if rng.IntN(5) > 0 {
		p.Records = []Selected{}
		for n := rng.IntN(4); n > 0; n-- {
			p.Records = append(p.Records, Selected{ID: str(), URL: str(), Anchor: str(), Title: str(),
				Headings: strs(), Excerpt: str(), Score: str(), Reasons: strs()})
		}
	}
	return p
}

func TestWritersMatchEncodingJSONAndJCS(t *testing.T) {
	rng := rand.New(rand.NewPCG(11, 13))
	for i := 0; i < 3000; i++ {
		p := randomPackage(rng)
		if got, want := p.JSON(), refJSON(&p); !bytes.Equal(got, want) {
			t.Fatalf("JSON:\n got %s\nwant %s", got, want)
		}
		for _, withIDs := range []bool{false, true} {
			if got, want := p.appendCanonical(nil, withIDs), refCanonical(&p, !withIDs); !bytes.Equal(got, want) {
				t.Fatalf("canonical (ids %v):\n got %s\nwant %s", withIDs, got, want)
			}
		}
		q, r := p, p
		q.seal()
		refSeal(&r)
		if q.ContextID != r.ContextID || q.Digest != r.Digest || q.Budget.UsedBytes != r.Budget.UsedBytes {
			t.Fatalf("seal of %s:\n got %s %s %d\nwant %s %s %d", refJSON(&p), q.ContextID, q.Digest, q.Budget.UsedBytes, r.ContextID, r.Digest, r.Budget.UsedBytes)
		}
		if (Check(&p) == nil) != refCheck(&p) || Check(&q) != nil {
			t.Fatalf("Check disagrees on %s", refJSON(&p))
		}
	}
}

// Package must keep encoding through JSON(), not a MarshalJSON method:
// callers that json.Marshal a package (HTML escaping on) would otherwise
// change bytes, and refJSON would stop being an independent oracle.
func TestPackageHasNoMarshaler(t *testing.T) {
	var p any = &Package{}
	if _, ok := p.(json.Marshaler); ok {
		t.Fatal("Package implements json.Marshaler")
	}
}
