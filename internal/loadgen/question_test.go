package loadgen

import (
	"strings"
	"testing"

	"github.com/askplane/askplane/internal/corpus"
)

func TestFromCorpusSpreadsHeadingQuestionsOverTheCorpus(t *testing.T) {
	c := loadCorpus(t, 100) // 400 records
	qs := FromCorpus(c, 30) // every 13th record
	if len(qs) != 30 {
		t.Fatalf("%d questions, want 30", len(qs))
	}
	if qs[0].Text != c.Records[0].Title {
		t.Errorf("first question %q, want the first page's title %q", qs[0].Text, c.Records[0].Title)
	}
	r := c.Records[29*13]
	if want := r.Title + " " + r.Headings[1]; qs[29].Text != want {
		t.Errorf("last question %q, want %q (spread over every record)", qs[29].Text, want)
	}
	for _, q := range qs {
		if q.Unanswerable || q.Text == "" {
			t.Errorf("question %+v", q)
		}
	}
	if got := FromCorpus(c, MaxQuestions+5); len(got) > MaxQuestions || len(got) != 400 {
		t.Errorf("n over the corpus: %d questions, want 400", len(got))
	}
	if FromCorpus(c, 0) != nil || FromCorpus(nil, 5) != nil {
		t.Error("no questions wanted or no corpus must give none")
	}
}

func TestHeadingQuestionIsBoundedAndDeduplicatesTheTitle(t *testing.T) {
	r := corpus.Record{Title: "Install", Headings: []string{"Install"}}
	if q := headingQuestion(&r); q != "Install" {
		t.Errorf("title-only chunk: %q", q)
	}
	r = corpus.Record{Title: strings.Repeat("word ", 100), Headings: []string{"Tail"}}
	if q := headingQuestion(&r); len(q) > maxQuestionBytes || strings.HasSuffix(q, " ") {
		t.Errorf("long question (%d bytes) %q", len(q), q)
	}
}

func TestMixInsertsUnanswerableQuestions(t *testing.T) {
	in := []Question{{Text: "a"}, {Text: "b"}, {Text: "c"}, {Text: "d"}}
	out := Mix(in, 2)
	var marks []bool
	for _, q := range out {
		marks = append(marks, q.Unanswerable)
	}
	if len(out) != 6 || !out[2].Unanswerable || !out[5].Unanswerable || out[0].Unanswerable || out[3].Text != "c" {
		t.Errorf("Mix(4, 2) = %v", marks)
	}
	if len(Mix(in, 0)) != 4 {
		t.Error("every 0 must insert none")
	}
	if out := Mix(in[:1], 10); len(out) != 2 || !out[1].Unanswerable {
		t.Error("a list shorter than every still gets one unanswerable question")
	}
}
