package evidence

import (
	"fmt"
	"math/bits"
	"testing"

	"github.com/askplane/askplane/internal/corpus"
)

// A word in every record's title (a site name, "Guide") is common: it
// cannot reach minScore alone, so rank must not walk its posting list
// for every record. A term that can reach minScore alone never is.
func TestCommonTerms(t *testing.T) {
	var recs []corpus.Record
	for i := 0; i < 2000; i++ {
		recs = append(recs, corpus.Record{ID: fmt.Sprint(i), Title: fmt.Sprintf("Guide page%d", i), Text: fmt.Sprintf("Body words w%d and w%d.", i%7, i%300)})
	}
	ix := NewIndex(&corpus.Corpus{Records: recs})
	terms := queryTerms("guide w3 page17 nosuchword")
	lists := make([]*postings, len(terms))
	for i, term := range terms {
		if id, ok := ix.terms[term]; ok {
			lists[i] = &ix.posts[id]
		}
	}
	common := commonTerms(lists)
	for i, term := range terms {
		isCommon := common&(1<<uint(i)) != 0
		switch {
		case term == "guide" && !isCommon:
			t.Errorf("guide (in all %d records, max %.6f) is not common", len(recs), lists[i].max)
		case lists[i] == nil && isCommon:
			t.Errorf("%s is not in the corpus but marked common", term)
		case lists[i] != nil && lists[i].max*scoreScale >= minScore && isCommon:
			t.Errorf("%s can score %.6f alone but is common", term, lists[i].max)
		}
	}
	if bits.OnesCount64(common) != 1 {
		t.Errorf("common = %b for %q", common, terms)
	}
	// The guide-only question selects nothing; with a rare word, the
	// record that has it also lists guide among its reasons.
	if p := ix.Search("Guide", Budget{}); len(p.Records) != 0 {
		t.Errorf("guide alone selected %d records", len(p.Records))
	}
	p := ix.Search("guide page17", Budget{})
	if len(p.Records) == 0 || p.Records[0].ID != "17" || fmt.Sprint(p.Records[0].Reasons) != "[guide page17]" {
		t.Errorf("package %s", p.JSON())
	}
}
