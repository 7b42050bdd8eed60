package generate

import (
	"context"
	"errors"
	"slices"
	"strings"
	"testing"

	"github.com/askplane/askplane/internal/corpus"
	"github.com/askplane/askplane/internal/evidence"
)

const docs = `{"language":"en","pages":[` +
	`{"chunks":[{"anchor":"","headings":["Install"],"text":"Install the CLI with go install. It needs Go 1.26. Windows is supported."},` +
	`{"anchor":"verify","headings":["Install","Verify"],"text":"Run askplane verify public/ after every build. It checks every hash. Failures name the source file."}],` +
	`"title":"Install","url":"/docs/install/"},` +
	`{"chunks":[{"anchor":"cache","headings":["Caching"],"text":"Serve the artifact with Cache-Control immutable. The site config must revalidate. Nothing else matters here."}],` +
	`"title":"Caching","url":"/docs/caching/"}` +
	`],"protocol":"askplane.corpus","siteId":"docs","version":1}`

func setup(t testing.TB) (*corpus.Corpus, *evidence.Index) {
	t.Helper()
	c, err := corpus.Load([]byte(docs), corpus.ContentHash([]byte(docs)))
	if err != nil {
		t.Fatal(err)
	}
	return c, evidence.NewIndex(c)
}

func answer(t *testing.T, ix *evidence.Index, q string) (Result, []Event) {
	t.Helper()
	pkg := ix.Search(q, evidence.Budget{})
	var events []Event
	res, err := Run(context.Background(), Extractive{}, Question{Text: q}, &pkg, func(e Event) error {
		events = append(events, e)
		return nil
	})
	if err != nil {
		t.Fatalf("%q: %v", q, err)
	}
	return res, events
}

// Every sentence of an answer is verbatim from a record it cites, and
// every cited record contributed a sentence.
func TestAnswersOnlyFromCitedRecords(t *testing.T) {
	c, ix := setup(t)
	byID := map[string]corpus.Record{}
	for _, r := range c.Records {
		byID[r.ID] = r
	}
	for _, q := range []string{"How do I install the CLI?", "verify hash", "cache immutable config revalidate install", "Which Go version?"} {
		res, events := answer(t, ix, q)
		if res.Text == "" || len(res.Used) == 0 {
			t.Fatalf("%q: empty answer %+v", q, res)
		}
		if len(res.Text) > DefaultMaxBytes {
			t.Errorf("%q: %d bytes", q, len(res.Text))
		}
		deltas := 0
		contributed := map[string]bool{}
		for _, e := range events {
			if e.Delta == "" {
				continue
			}
			deltas++
			if len(e.Sources) != 1 {
				t.Fatalf("%q: delta %q sources %v", q, e.Delta, e.Sources)
			}
			rec := byID[e.Sources[0]]
			if !strings.Contains(rec.Text, strings.TrimSpace(e.Delta)) {
				t.Errorf("%q: %q is not in record %s", q, e.Delta, rec.ID)
			}
			if !slices.Contains(res.Used, rec.ID) {
				t.Errorf("%q: %s used but not cited", q, rec.ID)
			}
			contributed[rec.ID] = true
		}
		if deltas == 0 || deltas > DefaultMaxSentences || len(contributed) != len(res.Used) {
			t.Errorf("%q: %d deltas, used %v", q, deltas, res.Used)
		}
		if last := events[len(events)-1]; last.Usage == nil || last.Usage.Model != ExtractiveModel {
			t.Errorf("%q: last event %+v", q, last)
		}
	}
}

func TestCoversQuestionTerms(t *testing.T) {
	_, ix := setup(t)
	res, _ := answer(t, ix, "verify hash")
	if res.Text != "Run askplane verify public/ after every build. It checks every hash." {
		t.Errorf("text = %q", res.Text)
	}
	res, _ = answer(t, ix, "immutable cache and go install")
	if !strings.Contains(res.Text, "Install the CLI with go install.") || !strings.Contains(res.Text, "Serve the artifact with Cache-Control immutable.") || len(res.Used) != 2 {
		t.Errorf("text = %q used %v", res.Text, res.Used)
	}
}

func TestDeterministic(t *testing.T) {
	_, ix := setup(t)
	first, _ := answer(t, ix, "verify the build and cache")
	for i := 0; i < 50; i++ {
		got, _ := answer(t, ix, "verify the build and cache")
		if got.Text != first.Text || !slices.Equal(got.Used, first.Used) {
			t.Fatalf("run %d: %q %v", i, got.Text, got.Used)
		}
	}
}

func TestCancellation(t *testing.T) {
	_, ix := setup(t)
	pkg := ix.Search("install verify cache hash", evidence.Budget{})
	ctx, cancel := context.WithCancel(context.Background())
	n := 0
	_, err := Run(ctx, Extractive{}, Question{Text: "install verify cache hash"}, &pkg, func(e Event) error {
		n++
		cancel()
		return nil
	})
	if !errors.Is(err, context.Canceled) || n != 1 {
		t.Fatalf("err = %v after %d events", err, n)
	}
	boom := errors.New("client gone")
	_, err = Run(context.Background(), Extractive{}, Question{Text: "install"}, &pkg, func(Event) error { return boom })
	if !errors.Is(err, boom) {
		t.Fatalf("emit error not returned: %v", err)
	}
}

func TestNoEvidence(t *testing.T) {
	_, ix := setup(t)
	pkg := ix.Search("zebra", evidence.Budget{})
	if _, err := Run(context.Background(), Extractive{}, Question{Text: "zebra"}, &pkg, nil); err != ErrNoEvidence {
		t.Fatalf("err = %v", err)
	}
}

// A generator cannot get a record cited that is not in the package.
type liar struct{}

func (liar) Generate(ctx context.Context, q Question, pkg *evidence.Package, emit func(Event) error) error {
	return emit(Event{Delta: "text", Sources: []string{"not-in-package", pkg.Records[0].ID}})
}

func TestRunCitesOnlyPackageRecords(t *testing.T) {
	_, ix := setup(t)
	pkg := ix.Search("install", evidence.Budget{})
	res, err := Run(context.Background(), liar{}, Question{Text: "install"}, &pkg, nil)
	if err != nil || !slices.Equal(res.Used, []string{pkg.Records[0].ID}) {
		t.Fatalf("used %v, err %v", res.Used, err)
	}
}

// Titles or headings alone can select a record; the answer is then its
// first sentence, still verbatim.
func TestHeadingOnlyMatch(t *testing.T) {
	_, ix := setup(t)
	res, _ := answer(t, ix, "caching")
	if res.Text != "Serve the artifact with Cache-Control immutable." {
		t.Errorf("text = %q", res.Text)
	}
}
