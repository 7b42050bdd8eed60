package generate

import (
	"context"
	"encoding/json"
	"errors"
	"strings"
	"sync"
	"testing"

	"github.com/askplane/askplane/internal/contract"
	"github.com/askplane/askplane/internal/evidence"
	"github.com/askplane/askplane/internal/provider"
)

// fakeClient is a provider.Client that answers every Complete with resp
// (or err) and records the requests. With block set it waits for the
// context instead, as a slow provider would.
type fakeClient struct {
	profile provider.Profile
	resp    provider.Response
	err     error
	block   bool

	mu   sync.Mutex
	reqs []provider.Request
}

func (f *fakeClient) Profile() provider.Profile { return f.profile }

func (f *fakeClient) Complete(ctx context.Context, r provider.Request) (provider.Response, error) {
	f.mu.Lock()
	f.reqs = append(f.reqs, r)
	f.mu.Unlock()
	if f.block {
		<-ctx.Done()
		return provider.Response{}, &provider.Error{Code: provider.CodeCancelled, Message: "the call was cancelled"}
	}
	return f.resp, f.err
}

func (f *fakeClient) Stream(context.Context, provider.Request, func(string) error) (provider.Response, error) {
	return provider.Response{}, &provider.Error{Code: provider.CodeStreamingUnsupported, Message: "no streaming"}
}

var structured = provider.Profile{Name: "fake", StructuredOutput: true, MaxSchemaBytes: 64 << 10}

// newModel binds the Ask contract to a fake client answering text.
func newModel(t *testing.T, f *fakeClient) *Model {
	t.Helper()
	if f.profile == (provider.Profile{}) {
		f.profile = structured
	}
	return bindModel(t, f)
}

// bindModel binds the Ask contract to a client.
func bindModel(t testing.TB, c provider.Client) *Model {
	t.Helper()
	def, err := contract.DefineAskAnswer(contract.ModelDescriptor{Model: "fake-model-1", MaxOutputTokens: 800})
	if err != nil {
		t.Fatal(err)
	}
	b, err := contract.NewRegistryBuilder(contract.RegistryLimits{})
	if err != nil {
		t.Fatal(err)
	}
	if err := def.Register(b); err != nil {
		t.Fatal(err)
	}
	reg, err := b.Build()
	if err != nil {
		t.Fatal(err)
	}
	m, err := NewModel(def, reg, c, contract.Budget{MaxOutputTokens: 500})
	if err != nil {
		t.Fatal(err)
	}
	return m
}

// answerJSON is the contract output the fake model returns; no cites is
// an empty array.
func answerJSON(answer string, cites ...string) string {
	b, _ := json.Marshal(contract.AskOutput{Answer: answer, Cites: append([]string{}, cites...)})
	return string(b)
}

// installPackage is the package for an install question: two or more
// records, the first about installing.
func installPackage(t *testing.T) *evidence.Package {
	t.Helper()
	_, ix := setup(t)
	pkg := ix.Search("install verify cache", evidence.Budget{})
	if len(pkg.Records) < 2 {
		t.Fatalf("package has %d records", len(pkg.Records))
	}
	return &pkg
}

// A valid answer is emitted whole, in paragraphs, citing the package
// records named (in package order, whatever order the model gave), with
// the provider's model and tokens as usage; the request carries the
// question, the records and the output schema.
func TestModelAnswerCitesPackageRecords(t *testing.T) {
	pkg := installPackage(t)
	first, second := pkg.Records[0].ID, pkg.Records[1].ID
	answer := "Install with `go install`.\n\nThen run **askplane verify**."
	f := &fakeClient{resp: provider.Response{
		Text:  answerJSON(answer, second, first, second),
		Model: "fake-model-1-2026",
		Usage: provider.Usage{InputTokens: 300, OutputTokens: 40, TotalTokens: 340},
	}}
	m := newModel(t, f)
	var events []Event
	res, err := Run(context.Background(), m, Question{Text: "How do I install it?"}, pkg, func(e Event) error {
		events = append(events, e)
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if res.Text != answer {
		t.Errorf("text %q", res.Text)
	}
	if len(res.Used) != 2 || res.Used[0] != first || res.Used[1] != second {
		t.Errorf("used %v, want [%s %s]", res.Used, first, second)
	}
	if u := res.Usage; u == nil || u.Model != "fake-model-1-2026" || u.InputTokens != 300 || u.OutputTokens != 40 || u.TotalTokens != 340 {
		t.Errorf("usage %+v", res.Usage)
	}
	if len(events) != 3 || events[0].Delta != "Install with `go install`.\n\n" || events[2].Usage == nil {
		t.Errorf("events %+v", events)
	}

	if len(f.reqs) != 1 {
		t.Fatalf("%d requests", len(f.reqs))
	}
	req := f.reqs[0]
	var in contract.AskInput
	if err := json.Unmarshal([]byte(req.Input), &in); err != nil {
		t.Fatal(err)
	}
	if in.Question != "How do I install it?" || len(in.Records) != len(pkg.Records) || in.Records[0].ID != first ||
		in.Records[0].Text != pkg.Records[0].Excerpt || in.Records[0].Title != pkg.Records[0].Label() {
		t.Errorf("input %+v", in)
	}
	if req.Model != "fake-model-1" || req.MaxOutputTokens != 500 || req.Output == nil || req.Output.Name != "ask-answer" {
		t.Errorf("request %+v", req)
	}
	// The provider layer's own pre-I/O check accepts it.
	if _, err := provider.Prepare(req, provider.Config{}, structured); err != nil {
		t.Errorf("provider.Prepare: %v", err)
	}
}

// Answers that cannot be tied to the evidence, or do not meet the
// contract, fail with a typed error and emit nothing.
func TestModelRejectsBadAnswers(t *testing.T) {
	pkg := installPackage(t)
	known := pkg.Records[0].ID
	for _, c := range []struct {
		name  string
		text  string
		check func(*testing.T, error)
	}{
		{"unknown cite", answerJSON("Yes.", known, "not-in-the-package-0123456789ab"), isErr(ErrUnknownCite)},
		{"no cites", answerJSON("Yes."), isErr(ErrUncited)},
		{"null cites", `{"answer":"Yes.","cites":null}`, agentCode(contract.CodeOutputInvalid)},
		{"invalid JSON", `{"answer":"Yes.","cites":["` + known, agentCode(contract.CodeOutputMalformed)},
		{"prose", "Install it with go install.", agentCode(contract.CodeOutputMalformed)},
		{"schema violation", `{"answer":"Yes.","cites":["` + known + `"],"confidence":0.9}`, agentCode(contract.CodeOutputInvalid)},
		{"blank answer", answerJSON("  \n ", known), isErr(ErrEmpty)},
	} {
		t.Run(c.name, func(t *testing.T) {
			m := newModel(t, &fakeClient{resp: provider.Response{Text: c.text}})
			emitted := 0
			_, err := Run(context.Background(), m, Question{Text: "Can I install it?"}, pkg, func(Event) error {
				emitted++
				return nil
			})
			c.check(t, err)
			if emitted != 0 {
				t.Errorf("%d events emitted before the answer was checked", emitted)
			}
			var ge *Error
			if errors.As(err, &ge) && ge.Code == CodeUngrounded && c.name != "unknown cite" && c.name != "no cites" {
				t.Errorf("%s reported as ungrounded", c.name)
			}
		})
	}
}

func isErr(want error) func(*testing.T, error) {
	return func(t *testing.T, err error) {
		t.Helper()
		if !errors.Is(err, want) {
			t.Fatalf("error %v, want %v", err, want)
		}
		var ge *Error
		if want != ErrEmpty && (!errors.As(err, &ge) || ge.Code != CodeUngrounded) {
			t.Fatalf("error %v is not %s", err, CodeUngrounded)
		}
	}
}

func agentCode(code contract.Code) func(*testing.T, error) {
	return func(t *testing.T, err error) {
		t.Helper()
		var ae *contract.Error
		if !errors.As(err, &ae) || ae.Code != code {
			t.Fatalf("error %v, want %s", err, code)
		}
	}
}

// A provider failure comes back as the provider's typed error.
func TestModelReturnsProviderErrors(t *testing.T) {
	pkg := installPackage(t)
	f := &fakeClient{err: &provider.Error{Code: provider.CodeRateLimited, Message: "slow down", Status: 429}}
	_, err := Run(context.Background(), newModel(t, f), Question{Text: "install?"}, pkg, nil)
	var pe *provider.Error
	if !errors.As(err, &pe) || pe.Code != provider.CodeRateLimited {
		t.Fatalf("error %v", err)
	}
}

// Cancellation wins: a cancelled call returns ctx.Err() (not the
// provider's error), and cancelling while the answer is being emitted
// stops before the next delta.
func TestModelStopsOnCancellation(t *testing.T) {
	pkg := installPackage(t)

	ctx, cancel := context.WithCancel(context.Background())
	f := &fakeClient{block: true}
	m := newModel(t, f)
	done := make(chan error, 1)
	go func() { done <- m.Generate(ctx, Question{Text: "install?"}, pkg, func(Event) error { return nil }) }()
	cancel()
	if err := <-done; !errors.Is(err, context.Canceled) {
		t.Fatalf("blocked call: %v", err)
	}

	ctx, cancel = context.WithCancel(context.Background())
	defer cancel()
	f = &fakeClient{resp: provider.Response{Text: answerJSON("One.\n\nTwo.\n\nThree.", pkg.Records[0].ID)}}
	var deltas []string
	err := newModel(t, f).Generate(ctx, Question{Text: "install?"}, pkg, func(e Event) error {
		deltas = append(deltas, e.Delta)
		cancel()
		return nil
	})
	if !errors.Is(err, context.Canceled) || len(deltas) != 1 {
		t.Fatalf("error %v after deltas %q", err, deltas)
	}

	// Already cancelled: no call at all.
	f = &fakeClient{resp: provider.Response{Text: answerJSON("x", pkg.Records[0].ID)}}
	if err := newModel(t, f).Generate(ctx, Question{Text: "install?"}, pkg, nil); !errors.Is(err, context.Canceled) || len(f.reqs) != 0 {
		t.Fatalf("error %v, %d requests", err, len(f.reqs))
	}
}

// NewModel binds against the client's own profile, so a provider without
// structured output is refused at startup, not on the first question.
func TestNewModelChecksTheClientProfile(t *testing.T) {
	def, _ := contract.DefineAskAnswer(contract.ModelDescriptor{Model: "m", MaxOutputTokens: 10})
	b, _ := contract.NewRegistryBuilder(contract.RegistryLimits{})
	if err := def.Register(b); err != nil {
		t.Fatal(err)
	}
	reg, _ := b.Build()
	_, err := NewModel(def, reg, &fakeClient{profile: provider.Profile{Name: "plain", MaxSchemaBytes: 1 << 20}}, contract.Budget{})
	var ae *contract.Error
	if !errors.As(err, &ae) || ae.Code != contract.CodeProfileRejected {
		t.Fatalf("error %v", err)
	}
}

// Long excerpts and titles are cut to the contract's bounds on a
// character boundary, empty excerpts are left out, and at most
// AskMaxRecords records are sent.
func TestAskInputFitsTheContract(t *testing.T) {
	pkg := &evidence.Package{}
	for i := range contract.AskMaxRecords + 3 {
		pkg.Records = append(pkg.Records, evidence.Selected{
			ID: "r" + string(rune('a'+i)), URL: "/p/", Title: strings.Repeat("é", 300), Excerpt: strings.Repeat("ü", contract.AskMaxTextLen+5),
		})
	}
	pkg.Records[1].Excerpt = "  "
	in := askInput(Question{Text: "q"}, pkg)
	if len(in.Records) != contract.AskMaxRecords || in.Records[1].ID != "rc" {
		t.Fatalf("%d records, second %s", len(in.Records), in.Records[1].ID)
	}
	r := in.Records[0]
	if n := len([]rune(r.Text)); n != contract.AskMaxTextLen || !strings.HasPrefix(r.Text, "ü") {
		t.Errorf("text cut to %d runes", n)
	}
	if n := len([]rune(r.Title)); n > contract.AskMaxTitleLen {
		t.Errorf("title %d runes", n)
	}
}
