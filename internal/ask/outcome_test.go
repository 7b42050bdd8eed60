package ask_test

import (
	"context"
	"fmt"
	"slices"
	"sync"
	"testing"

	"github.com/askplane/askplane/internal/ask"
)

// Config.Outcome is told how each question ended: answered (with the
// cited pages), low confidence (the generator's typed signal), refused
// (with the pages retrieved), no sources, error (the generation failed,
// with the pages retrieved).
func TestOutcome(t *testing.T) {
	cite := func(low bool) ask.GeneratorFunc {
		return func(_ context.Context, _ ask.Query, sources []ask.Source, emit func(string) error) (ask.Result, error) {
			emit("text")
			return ask.Result{Used: []string{sources[0].ID}, LowConfidence: low}, nil
		}
	}
	cases := []struct {
		name string
		edit func(*ask.Config)
		want *ask.Outcome
	}{
		{"answered", func(c *ask.Config) { c.Generator = cite(false) }, &ask.Outcome{Kind: ask.OutcomeAnswered}},
		{"low confidence", func(c *ask.Config) { c.Generator = cite(true) }, &ask.Outcome{Kind: ask.OutcomeLowConfidence}},
		{"refused", func(c *ask.Config) {
			c.Generator = ask.GeneratorFunc(func(context.Context, ask.Query, []ask.Source, func(string) error) (ask.Result, error) {
				return ask.Result{}, fmt.Errorf("%w: no", ask.ErrNotGrounded)
			})
		}, &ask.Outcome{Kind: ask.OutcomeRefused}},
		{"no sources", func(c *ask.Config) {
			c.Retriever = ask.RetrieverFunc(func(context.Context, ask.Query) ([]ask.Source, error) { return nil, nil })
		}, &ask.Outcome{Kind: ask.OutcomeNoSources}},
		{"generation failed", func(c *ask.Config) {
			c.Generator = ask.GeneratorFunc(func(context.Context, ask.Query, []ask.Source, func(string) error) (ask.Result, error) {
				return ask.Result{}, context.DeadlineExceeded
			})
		}, &ask.Outcome{Kind: ask.OutcomeFailed}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			var mu sync.Mutex
			var got []ask.Outcome
			f := newFixture(t, func(c *ask.Config) {
				tc.edit(c)
				c.Outcome = func(ctx context.Context, o ask.Outcome) {
					if ctx.Err() != nil {
						t.Error("the outcome's context is already done")
					}
					mu.Lock()
					got = append(got, o)
					mu.Unlock()
				}
			})
			f.post(t, "", askBody("s1", "how do I deploy?"))
			mu.Lock()
			defer mu.Unlock()
			if tc.want == nil {
				if len(got) != 0 {
					t.Fatalf("reported %+v", got)
				}
				return
			}
			if len(got) != 1 {
				t.Fatalf("%d outcomes, want 1", len(got))
			}
			o := got[0]
			if o.Kind != tc.want.Kind || o.Question != "how do I deploy?" || o.Subject != subject {
				t.Errorf("outcome %+v", o)
			}
			wantPages := []string{localGuide.Href}
			if tc.want.Kind == ask.OutcomeNoSources {
				wantPages = nil
			}
			if !slices.Equal(o.Pages, wantPages) {
				t.Errorf("pages %q, want %q", o.Pages, wantPages)
			}
		})
	}
}
