package ask_test

import (
	"context"
	"fmt"
	"slices"
	"sync"
	"testing"

	"github.com/askplane/askplane/internal/grounding"
)

// Config.Outcome is told how each question ended: answered (with the
// cited pages), low confidence (the generator's typed signal), refused
// (with the pages retrieved), no sources, error (the generation failed,
// with the pages retrieved).
func TestOutcome(t *testing.T) {
	cite := func(low bool) grounding.GeneratorFunc {
		return func(_ context.Context, _ grounding.Query, sources []grounding.Source, emit func(string) error) (grounding.Result, error) {
			emit("text")
			return grounding.Result{Used: []string{sources[0].ID}, LowConfidence: low}, nil
		}
	}
	cases := []struct {
		name string
		edit func(*config)
		want *grounding.Outcome
	}{
		{"answered", func(c *config) { c.Generator = cite(false) }, &grounding.Outcome{Kind: grounding.OutcomeAnswered}},
		{"low confidence", func(c *config) { c.Generator = cite(true) }, &grounding.Outcome{Kind: grounding.OutcomeLowConfidence}},
		{"refused", func(c *config) {
			c.Generator = grounding.GeneratorFunc(func(context.Context, grounding.Query, []grounding.Source, func(string) error) (grounding.Result, error) {
				return grounding.Result{}, fmt.Errorf("%w: no", grounding.ErrNotGrounded)
			})
		}, &grounding.Outcome{Kind: grounding.OutcomeRefused}},
		{"no sources", func(c *config) {
			c.Retriever = grounding.RetrieverFunc(func(context.Context, grounding.Query) ([]grounding.Source, error) { return nil, nil })
		}, &grounding.Outcome{Kind: grounding.OutcomeNoSources}},
		{"generation failed", func(c *config) {
			c.Generator = grounding.GeneratorFunc(func(context.Context, grounding.Query, []grounding.Source, func(string) error) (grounding.Result, error) {
				return grounding.Result{}, context.DeadlineExceeded
			})
		}, &grounding.Outcome{Kind: grounding.OutcomeFailed}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			var mu sync.Mutex
			var got []grounding.Outcome
			f := newFixture(t, func(c *config) {
				tc.edit(c)
				c.Outcome = func(ctx context.Context, o grounding.Outcome) {
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
			if tc.want.Kind == grounding.OutcomeNoSources {
				wantPages = nil
			}
			if !slices.Equal(o.Pages, wantPages) {
				t.Errorf("pages %q, want %q", o.Pages, wantPages)
			}
		})
	}
}
