package ask_test

import (
	"log/slog"
	"strings"
	"sync"
	"sync/atomic"
	"testing"

	"github.com/askplane/askplane/internal/ask"
	"github.com/askplane/askplane/internal/corpus"
	"github.com/askplane/askplane/internal/evidence"
	"github.com/askplane/askplane/internal/grounding"
	"github.com/askplane/askplane/internal/protocol"
)

func groundedFixture(t *testing.T) *fixture {
	t.Helper()
	recs := []corpus.Record{
		{URL: "/docs/install/", Anchor: "install-the-cli", Title: "Install", Headings: []string{"Install the CLI"},
			Text: "Install the CLI with go install. The askplane binary then serves the sidecar."},
		{URL: "/docs/authoring/", Anchor: "facts", Title: "Authoring", Headings: []string{"Facts"},
			Text: "A fact declares an exact answer next to its page. Facts are matched by phrasing."},
	}
	for i := range recs {
		recs[i].ID = corpus.RecordID(recs[i].URL, recs[i].Anchor)
	}
	ix := evidence.NewIndex(&corpus.Corpus{SiteID: "docs-site", Language: "en", Version: "sha256:" + strings.Repeat("0", 64), Records: recs})
	g := &grounding.Grounded{Engine: &countingEngine{Engine: ix}}
	return newFixture(t, func(c *config) { c.Retriever, c.Generator = g, g })
}

// countingEngine counts searches, so a test can see the handler carry the
// package from retrieval to generation instead of searching twice.
type countingEngine struct {
	evidence.Engine
	searches atomic.Int64
}

func (e *countingEngine) Search(q string, b evidence.Budget) evidence.Package {
	e.searches.Add(1)
	return e.Engine.Search(q, b)
}

// TestGroundedLinksTheEvidence: the Link header's review fragment is the
// recipe of the package the answer was built from, and it rebuilds that
// package exactly; one search serves retrieval and generation.
func TestGroundedLinksTheEvidence(t *testing.T) {
	f := groundedFixture(t)
	resp, body := f.post(t, "", askBody("s1", "How do I install the CLI?"))
	if resp.StatusCode != 200 {
		t.Fatalf("%d %s", resp.StatusCode, body)
	}
	link := resp.Header.Get("Link")
	_, frag, ok := strings.Cut(link, "#")
	ok = ok && strings.HasPrefix(link, "</review/?corpus=")
	frag, ok2 := strings.CutSuffix(frag, `>; rel="evidence"`)
	if !ok || !ok2 {
		t.Fatalf("Link = %q", link)
	}
	r, err := evidence.DecodeFragment(frag)
	if err != nil {
		t.Fatal(err)
	}
	g := f.cfg.Retriever.(*grounding.Grounded)
	eng := g.Engine.(*countingEngine)
	if n := eng.searches.Load(); n != 1 {
		t.Errorf("%d searches for one answer, want 1", n)
	}
	p := eng.Engine.Search(r.Question, evidence.Budget{MaxRecords: r.Budget.MaxRecords, MaxBytes: r.Budget.MaxBytes})
	if p.ContextID != r.ContextID || r.Question != "How do I install the CLI?" || r.EngineID != evidence.EngineID {
		t.Fatalf("recipe %+v rebuilds %s", r, p.JSON())
	}
}

// TestGroundedAnswerFromCorpus: the evidence engine and the extractive
// generator answer through the handler with a cited, safe link.
func TestGroundedAnswerFromCorpus(t *testing.T) {
	f := groundedFixture(t)
	resp, body := f.post(t, "", askBody("s1", "How do I install the CLI?"))
	if resp.StatusCode != 200 {
		t.Fatalf("%d %s", resp.StatusCode, body)
	}
	events, rest, _ := protocol.DecodeAskEvents([]byte(body))
	if len(rest) != 0 || len(events) < 3 {
		t.Fatalf("events %v rest %q", events, rest)
	}
	text, ok := events[0].(protocol.AskTextEvent)
	if !ok || !strings.Contains(text.Delta, "go install") {
		t.Fatalf("first event %#v", events[0])
	}
	cite := events[len(events)-2].(protocol.AskToolEvent)
	if cite.Name != "cite" || !strings.Contains(string(cite.Args), `"path":"/docs/install/#install-the-cli"`) ||
		strings.Contains(string(cite.Args), "authoring") {
		t.Fatalf("cite %s", cite.Args)
	}
	done := events[len(events)-1].(protocol.AskDoneEvent)
	if done.Model == nil || *done.Model != "askplane.extractive/2" {
		t.Fatalf("done %#v", done)
	}
}

// TestGroundedNoEvidenceIs422: a question the corpus does not cover.
func TestGroundedNoEvidenceIs422(t *testing.T) {
	f := groundedFixture(t)
	resp, body := f.post(t, "", askBody("", "zebra quasar xylophone"))
	wantError(t, resp, body, 422, protocol.CodeAskNoGroundedSources)
}

// TestEvidenceLinkIsBounded: a question whose recipe would make the Link
// header longer than MaxEvidenceLinkBytes gets no Link header, and one Info
// record with the request id and never the question; a short one keeps it.
func TestEvidenceLinkIsBounded(t *testing.T) {
	var logs strings.Builder
	var mu sync.Mutex
	f := groundedFixture(t)
	cfg := f.cfg
	cfg.Logger = slog.New(slog.NewTextHandler(writerFunc(func(p []byte) (int, error) {
		mu.Lock()
		defer mu.Unlock()
		return logs.Write(p)
	}), nil))
	f = newFixture(t, func(c *config) { *c = cfg })

	resp, body := f.post(t, "", askBody("s1", "How do I install the CLI?"))
	if link := resp.Header.Get("Link"); resp.StatusCode != 200 || link == "" || len(link) > ask.MaxEvidenceLinkBytes {
		t.Fatalf("short question: %d Link %q %s", resp.StatusCode, link, body)
	}

	long := "How do I install the CLI " + strings.Repeat("zebra ", 2_300) + "?"
	resp, body = f.post(t, "", askBody("s2", long))
	if resp.StatusCode != 200 {
		t.Fatalf("%d %s", resp.StatusCode, body)
	}
	if link := resp.Header.Get("Link"); link != "" {
		t.Fatalf("long question: Link of %d bytes", len(link))
	}
	mu.Lock()
	out := logs.String()
	mu.Unlock()
	if !strings.Contains(out, "level=INFO") || !strings.Contains(out, "evidence link omitted") || !strings.Contains(out, "requestId=request-1") || strings.Contains(out, "zebra") {
		t.Fatalf("log %q", out)
	}
}

type writerFunc func([]byte) (int, error)

func (f writerFunc) Write(p []byte) (int, error) { return f(p) }
