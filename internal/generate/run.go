package generate

import (
	"context"
	"strings"

	"github.com/askplane/askplane/internal/evidence"
)

// Result is a finished generation: the whole text, the package record ids
// the text came from (in package order, each once), and the last usage.
type Result struct {
	Text  string
	Used  []string
	Usage *Usage
	// Unsure is set when any event said Unsure: the answer is the
	// closest sections, not a direct answer.
	Unsure bool
}

// Run drives g, forwarding every event to emit (which may be nil), and
// collects the Result. Source ids that are not in the package are dropped,
// so whatever a generator claims, the handler can only cite evidence; a
// generation with no text fails with ErrEmpty.
func Run(ctx context.Context, g Generator, q Question, pkg *evidence.Package, emit func(Event) error) (Result, error) {
	if pkg == nil || len(pkg.Records) == 0 {
		return Result{}, ErrNoEvidence
	}
	rank := make(map[string]int, len(pkg.Records))
	for i, r := range pkg.Records {
		rank[r.ID] = i
	}
	used := make([]bool, len(pkg.Records))
	var text strings.Builder
	var usage *Usage
	unsure := false
	err := g.Generate(ctx, q, pkg, func(ev Event) error {
		if ev.Usage != nil {
			u := *ev.Usage
			usage = &u
		}
		unsure = unsure || ev.Unsure
		if ev.Delta != "" {
			text.WriteString(ev.Delta)
			for _, id := range ev.Sources {
				if i, ok := rank[id]; ok {
					used[i] = true
				}
			}
		}
		if emit != nil {
			return emit(ev)
		}
		return nil
	})
	res := Result{Text: text.String(), Usage: usage, Unsure: unsure}
	for i, u := range used {
		if u {
			res.Used = append(res.Used, pkg.Records[i].ID)
		}
	}
	if err != nil {
		return res, err
	}
	if strings.TrimSpace(res.Text) == "" {
		return res, ErrEmpty
	}
	return res, nil
}
