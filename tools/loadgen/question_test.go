package loadgen

import (
	"strings"
	"testing"

	"github.com/askplane/askplane/internal/corpus"
)

func TestFromCorpusSpreadsHeadingQuestionsOverTheCorpus(t *testing.T) {
	c := loadCorpus(t, 100) // 400 records
	qs := FromCorpus(c, 40) // record k·10 + k mod 10 (4 records a page)
	if len(qs) != 40 {
		t.Fatalf("%d questions, want 40", len(qs))
	}
	if qs[0].Text != c.Records[0].Title {
		t.Errorf("first question %q, want the first page's title %q", qs[0].Text, c.Records[0].Title)
	}
	r := c.Records[39*10+9]
	if want := r.Title + " " + r.Headings[1]; qs[39].Text != want {
		t.Errorf("last question %q, want %q (spread over every record)", qs[39].Text, want)
	}
	sections := 0
	for _, q := range qs {
		if strings.Count(q.Text, " ") > 3 { // a title has 4 words, a section question 6
			sections++
		}
	}
	if sections < 25 {
		t.Errorf("%d of 40 questions ask about a section; the spread keeps hitting introductions", sections)
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
