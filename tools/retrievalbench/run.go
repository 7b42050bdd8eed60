package retrievalbench

import (
	"context"
	"crypto/rand"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/http/cookiejar"
	"net/http/httptest"
	"os"
	"slices"
	"strings"

	"github.com/askplane/askplane/internal/corpus"
	"github.com/askplane/askplane/internal/engines"
	"github.com/askplane/askplane/internal/evidence"
	"github.com/askplane/askplane/internal/grounding"
	"github.com/askplane/askplane/internal/protocol"
	"github.com/askplane/askplane/internal/sidecar"
)

// DefaultMaxRecords is the evidence budget per question: the maxSources
// of askplane dev's and the example configuration's site record.
const DefaultMaxRecords = 5

// Options is one run: one built site, one question file, the engines and
// generators to compare and, when measured, Pagefind's results for the
// same questions.
type Options struct {
	Public     string // the built site's folder
	File       *File
	Engines    []Engine
	Generators []Generator     // nil: Generators
	MaxRecords int             // 0: DefaultMaxRecords
	Pagefind   *PagefindResult // nil: Pagefind is not measured
}

// Report is what a run measured.
type Report struct {
	Site, Language string
	Questions      int
	Pages, Records int // in the corpus
	Kinds          []KindCount
	Systems        []*System
}

// System is one way of finding pages for a question, and how it did.
type System struct {
	Name    string // "askplane.bm25/1 evidence", "askplane.bm25/1 cited extractive/1", "pagefind 1.6.0"
	Via     string // how it was asked
	Score   Score
	ByKind  map[string]*Score
	Answers *AnswerChecks // for systems that answer, not only rank
	// Nuggets and NuggetsByKind score the answers against the questions'
	// nuggets, for systems that answer.
	Nuggets       NuggetScore
	NuggetsByKind map[string]*NuggetScore
	Results       []Outcome // one per question, in file order
}

// Outcome is one question's result in one system.
type Outcome struct {
	Pages  []string // ranked page paths
	Rank   int      // of the first labelled page, 0: none
	Answer string   // the answer text, for systems that answer
	Error  string   // the error code when it did not answer
	Flags  []string // the answer checks it failed
	Missed []int    // the question's nuggets the answer does not hold
}

// AnswerChecks counts what is wrong with the answers themselves.
type AnswerChecks struct {
	Answered int // answers with at least one citation
	// CodeCited: answers one of whose cited chunks holds a code block of
	// its page; Fenced: those whose text has a fenced block (```).
	CodeCited, Fenced int
	// QuotesCode: answers repeating part of a cited chunk's code block;
	// CutInCode: those that repeat only part of it (the answer starts or
	// stops inside the block).
	QuotesCode, CutInCode int
	FrontMatter           int // answers holding a front matter header
	OpenTemplate          int // answers cut inside a template action ({{ without }})
}

func (s *System) add(q Question, o Outcome) {
	kind := q.Kind
	s.Score.Add(o.Rank)
	if s.ByKind == nil {
		s.ByKind = map[string]*Score{}
	}
	if s.ByKind[kind] == nil {
		s.ByKind[kind] = &Score{}
	}
	s.ByKind[kind].Add(o.Rank)
	if s.Answers != nil && len(q.Nuggets) > 0 {
		o.Missed = MissedNuggets(o.Answer, q.Nuggets)
		answered := o.Error == "" && o.Answer != ""
		s.Nuggets.add(len(q.Nuggets), len(o.Missed), answered)
		if s.NuggetsByKind == nil {
			s.NuggetsByKind = map[string]*NuggetScore{}
		}
		if s.NuggetsByKind[kind] == nil {
			s.NuggetsByKind[kind] = &NuggetScore{}
		}
		s.NuggetsByKind[kind].add(len(q.Nuggets), len(o.Missed), answered)
	}
	s.Results = append(s.Results, o)
}

// MedianChars is the median length in characters of the system's
// answers, refusals left out.
func (s *System) MedianChars() int { return medianChars(s.Results) }

// Run measures every system on every question of opts.File.
func Run(ctx context.Context, opts Options) (*Report, error) {
	f := opts.File
	c, raw, err := corpus.LoadDirRaw(os.DirFS(opts.Public), f.Language)
	if err != nil {
		return nil, fmt.Errorf("loading the %s corpus of %s: %w", f.Language, opts.Public, err)
	}
	maxRecords := opts.MaxRecords
	if maxRecords <= 0 {
		maxRecords = DefaultMaxRecords
	}
	rep := &Report{Site: f.Site, Language: f.Language, Questions: len(f.Questions), Records: len(c.Records), Kinds: f.CountKinds()}
	pages := map[string]bool{}
	byID := make(map[string]*corpus.Record, len(c.Records))
	for i := range c.Records {
		pages[c.Records[i].URL] = true
		byID[c.Records[i].ID] = &c.Records[i]
	}
	rep.Pages = len(pages)
	gens := opts.Generators
	if gens == nil {
		gens = Generators
	}
	ck := &checker{public: opts.Public, blocks: map[string][]string{}, byID: byID}

	for _, e := range opts.Engines {
		ix, err := e.Open(raw, c.Version)
		if err != nil {
			return nil, fmt.Errorf("engine %s: %w", e.ID, err)
		}
		if ix.ID() != e.ID {
			return nil, fmt.Errorf("engine %s reports id %s", e.ID, ix.ID())
		}
		ev := &System{Name: e.ID + " evidence", Via: fmt.Sprintf("Search, %d records", maxRecords)}
		for _, q := range f.Questions {
			pkg := ix.Search(q.Q, evidence.Budget{MaxRecords: maxRecords})
			urls := make([]string, len(pkg.Records))
			for i, r := range pkg.Records {
				urls[i] = r.URL
			}
			got := distinctPages(urls)
			ev.add(q, Outcome{Pages: got, Rank: Rank(got, q.Pages)})
		}
		rep.Systems = append(rep.Systems, ev)

		var direct []*System
		for _, g := range gens {
			s, err := askGrounded(ctx, c, ix, g, f, maxRecords, ck)
			if err != nil {
				return nil, fmt.Errorf("%s with %s: %w", e.ID, g.Name, err)
			}
			s.Name = e.ID + " cited " + g.Name
			direct = append(direct, s)
			rep.Systems = append(rep.Systems, s)
		}
		if e.ID == engines.Current().ID {
			// The sidecar serves this engine: ask it for real, and
			// say which generator's answers it gives.
			viaHTTP, err := askSidecar(ctx, opts.Public, c, f, maxRecords, ck)
			if err != nil {
				return nil, fmt.Errorf("%s over the sidecar: %w", e.ID, err)
			}
			var same []string
			for i, d := range direct {
				agree := 0
				for j := range f.Questions {
					if slices.Equal(viaHTTP.Results[j].Pages, d.Results[j].Pages) && viaHTTP.Results[j].Answer == d.Results[j].Answer {
						agree++
					}
				}
				same = append(same, fmt.Sprintf("= %s on %d/%d", gens[i].Name, agree, len(f.Questions)))
			}
			viaHTTP.Name = e.ID + " cited sidecar"
			viaHTTP.Via += " (" + strings.Join(same, ", ") + ")"
			rep.Systems = append(rep.Systems, viaHTTP)
		}
	}

	if pf := opts.Pagefind; pf != nil {
		if len(pf.Results) != len(f.Questions) {
			return nil, fmt.Errorf("pagefind answered %d questions of %d", len(pf.Results), len(f.Questions))
		}
		s := &System{Name: "pagefind " + pf.Version, Via: fmt.Sprintf("Node search, %d pages", pf.Pages)}
		for i, q := range f.Questions {
			got := distinctPages(pf.Results[i])
			s.add(q, Outcome{Pages: got, Rank: Rank(got, q.Pages)})
		}
		rep.Systems = append(rep.Systems, s)
	}
	return rep, nil
}

// askGrounded answers every question with grounding.Grounded over ix and gen,
// the retriever and generator the sidecar wires for a site, without HTTP.
func askGrounded(ctx context.Context, c *corpus.Corpus, ix evidence.Engine, gen Generator, f *File, maxRecords int, ck *checker) (*System, error) {
	site := &protocol.BackendSite{Limits: protocol.BackendLimits{MaxSources: maxRecords}}
	g := &grounding.Grounded{Engine: ix, Generator: gen.New()}
	s := &System{Via: "grounding.Grounded, " + gen.Name, Answers: &AnswerChecks{}}
	for _, q := range f.Questions {
		query := grounding.Query{Site: site, Text: q.Q}
		p, err := g.RetrieveEvidence(ctx, query)
		if err != nil {
			return nil, err
		}
		query.Evidence = p
		var sources []grounding.Source
		if p.Status == evidence.Sufficient {
			for i := range p.Records {
				r := &p.Records[i]
				sources = append(sources, grounding.Source{ID: r.ID, Title: r.Label(), Href: r.Href(), Excerpt: r.Excerpt})
			}
		}
		var o Outcome
		if len(sources) == 0 {
			o.Error = string(protocol.CodeAskNoGroundedSources)
			s.add(q, o)
			continue
		}
		var text strings.Builder
		res, err := g.Generate(ctx, query, sources, func(d string) error { text.WriteString(d); return nil })
		if err != nil {
			o.Error = err.Error()
			s.add(q, o)
			continue
		}
		var urls []string
		for _, id := range res.Used {
			if r := ck.byID[id]; r != nil {
				urls = append(urls, r.URL)
			}
		}
		o.Answer, o.Pages = text.String(), distinctPages(urls)
		o.Rank = Rank(o.Pages, q.Pages)
		o.Flags = ck.check(s.Answers, o.Answer, res.Used)
		s.add(q, o)
	}
	return s, nil
}

// askSidecar runs the sidecar (internal/sidecar.New, as askplane serve
// builds it) on the built site over httptest and POSTs every question to
// /v1/ask, reading the NDJSON answer and its cite event.
func askSidecar(ctx context.Context, public string, c *corpus.Corpus, f *File, maxRecords int, ck *checker) (*System, error) {
	const secretEnv = "ASKPLANE_BENCH_COOKIE_SECRET"
	secret := rand.Text() + rand.Text()
	// Limits no run reaches: the benchmark asks every question from one
	// address as fast as the server answers.
	lots := `{"requests": 1000000, "windowSeconds": 60}`
	site, err := json.Marshal(protocol.BackendSite{
		Protocol: protocol.BackendSiteProtocol, Version: 1, SiteID: c.SiteID,
		Assistant:   protocol.BackendAssistant{ID: "docs-guide", Name: "Docs guide"},
		Corpus:      protocol.BackendCorpus{ID: "docs-" + f.Language, Mode: protocol.CorpusLocal},
		Limits:      protocol.BackendLimits{RequestTimeoutMs: 30_000, RetrievalTimeoutMs: 5_000, GenerationTimeoutMs: 20_000, MaxSources: maxRecords},
		Persistence: protocol.BackendPersistence{Mode: protocol.PersistenceDisabled},
	})
	if err != nil {
		return nil, err
	}
	pub, _ := json.Marshal(public)
	lang, _ := json.Marshal(f.Language)
	cfg, err := sidecar.Decode([]byte(`{"sessions": "memory:", "edge": {"perAddress": ` + lots + `, "newSubjects": ` + lots + `},
		"sites": [{"site": ` + string(site) + `, "public": ` + string(pub) + `, "language": ` + string(lang) + `,
		"cookieSecretEnv": "` + secretEnv + `", "secureCookie": false, "rateLimit": ` + lots + `}]}`))
	if err != nil {
		return nil, err
	}
	env := func(name string) (string, bool) {
		if name == secretEnv {
			return secret, true
		}
		return "", false
	}
	srv, err := sidecar.New(ctx, cfg, sidecar.Options{Env: env})
	if err != nil {
		return nil, err
	}
	defer srv.Close()
	ts := httptest.NewServer(srv)
	defer ts.Close()
	client := ts.Client()
	client.Jar, _ = cookiejar.New(nil)

	s := &System{Via: "sidecar POST /v1/ask", Answers: &AnswerChecks{}}
	for _, q := range f.Questions {
		o, used, err := askOnce(ctx, client, ts.URL+"/v1/ask", q.Q)
		if err != nil {
			return nil, fmt.Errorf("%q: %w", q.Q, err)
		}
		var urls []string
		for _, id := range used {
			if r := ck.byID[id]; r != nil {
				urls = append(urls, r.URL)
			}
		}
		o.Pages = distinctPages(urls)
		o.Rank = Rank(o.Pages, q.Pages)
		if o.Error == "" {
			o.Flags = ck.check(s.Answers, o.Answer, used)
		}
		s.add(q, o)
	}
	return s, nil
}

// askOnce sends one question and returns the answer and the ids its cite
// event lists. A designed refusal (422, or an error event) is an Outcome
// with Error set; anything else unexpected is an error.
func askOnce(ctx context.Context, client *http.Client, url, question string) (Outcome, []string, error) {
	var o Outcome
	body, err := (&protocol.AskRequest{Messages: []protocol.AskMessage{{Role: protocol.RoleUser, Content: question}}}).MarshalJSON()
	if err != nil {
		return o, nil, err
	}
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, url, strings.NewReader(string(body)))
	if err != nil {
		return o, nil, err
	}
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Accept", "application/x-ndjson")
	resp, err := client.Do(req)
	if err != nil {
		return o, nil, err
	}
	defer resp.Body.Close()
	data, err := io.ReadAll(io.LimitReader(resp.Body, 4<<20))
	if err != nil {
		return o, nil, err
	}
	if resp.StatusCode != http.StatusOK {
		var e struct {
			Code string `json:"code"`
		}
		_ = json.Unmarshal(data, &e)
		if resp.StatusCode == http.StatusUnprocessableEntity {
			o.Error = e.Code
			return o, nil, nil
		}
		return o, nil, fmt.Errorf("POST /v1/ask = %d %s", resp.StatusCode, data)
	}
	events, _, _ := protocol.DecodeAskEvents(data)
	var text strings.Builder
	var used []string
	done := false
	for _, ev := range events {
		switch ev := ev.(type) {
		case protocol.AskTextEvent:
			text.WriteString(ev.Delta)
		case protocol.AskToolEvent:
			if ev.Name != "cite" {
				continue
			}
			var args struct {
				Sources []struct {
					ID   string `json:"id"`
					Path string `json:"path"`
				} `json:"sources"`
			}
			if err := json.Unmarshal(ev.Args, &args); err != nil {
				return o, nil, fmt.Errorf("cite event: %w", err)
			}
			for _, src := range args.Sources {
				used = append(used, src.ID)
			}
		case protocol.AskDoneEvent:
			done = true
		case protocol.AskErrorEvent:
			o.Error = ev.Code
		}
	}
	if !done && o.Error == "" {
		return o, nil, errors.New("the stream ended without done or error")
	}
	o.Answer = text.String()
	return o, used, nil
}

// checker runs the answer checks against the built pages' code blocks.
type checker struct {
	public string
	blocks map[string][]string // page path → its code blocks
	byID   map[string]*corpus.Record
}

func (ck *checker) pageBlocks(page string) []string {
	b, ok := ck.blocks[page]
	if !ok {
		b = codeBlocks(ck.public, page)
		ck.blocks[page] = b
	}
	return b
}

// check counts one answer citing the records used, and returns the
// checks it failed.
func (ck *checker) check(a *AnswerChecks, answer string, used []string) (flags []string) {
	if len(used) == 0 {
		return nil
	}
	a.Answered++
	text := collapse(answer)
	codeCited, quoted, cut := false, false, false
	for _, id := range used {
		r := ck.byID[id]
		if r == nil {
			continue
		}
		chunk := collapse(r.Text)
		for _, b := range ck.pageBlocks(r.URL) {
			if !strings.Contains(chunk, b[:min(len(b), 32)]) {
				continue // a block of another section of the page
			}
			codeCited = true
			if part, inside := quotes(text, b); part {
				quoted = true
				cut = cut || inside
			}
		}
	}
	if codeCited {
		a.CodeCited++
		if strings.Contains(answer, "```") || strings.Contains(answer, "~~~") {
			a.Fenced++
		} else {
			flags = append(flags, "code without a fence")
		}
	}
	if quoted {
		a.QuotesCode++
	}
	if cut {
		a.CutInCode++
		flags = append(flags, "cut inside a code block")
	}
	if frontMatter.MatchString(answer) {
		a.FrontMatter++
		flags = append(flags, "front matter")
	}
	if openTemplate(answer) {
		a.OpenTemplate++
		flags = append(flags, "cut inside a template action")
	}
	return flags
}
