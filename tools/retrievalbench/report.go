package retrievalbench

import (
	"fmt"
	"io"
	"strings"
	"text/tabwriter"
)

// WriteTable prints the report's figures: one row per system (for the
// systems that answer, the share of answers holding every nugget of
// their question and the median answer length beside the ranks), the
// MRR and the nugget share per kind, and the answer checks.
func (r *Report) WriteTable(w io.Writer) error {
	kinds := make([]string, len(r.Kinds))
	for i, k := range r.Kinds {
		kinds[i] = fmt.Sprintf("%s %d", k.Kind, k.N)
	}
	fmt.Fprintf(w, "%s (%s): %d questions (%s); corpus %d pages, %d records\n\n", r.Site, r.Language, r.Questions, strings.Join(kinds, ", "), r.Pages, r.Records)
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	fmt.Fprintln(tw, "system\tvia\thit@1\thit@3\thit@5\tMRR\tno result\tall nuggets\tnuggets held\tmedian chars")
	for _, s := range r.Systems {
		none := 0
		for _, o := range s.Results {
			if len(o.Pages) == 0 {
				none++
			}
		}
		all, held, median := "-", "-", "-"
		if s.Answers != nil {
			median = fmt.Sprint(s.MedianChars())
			if n := s.Nuggets; n.N > 0 {
				all = fmt.Sprintf("%.3f (%d/%d)", n.Share(), n.All, n.N)
				held = fmt.Sprintf("%.3f", n.PartShare())
			}
		}
		fmt.Fprintf(tw, "%s\t%s\t%.3f\t%.3f\t%.3f\t%.3f\t%d\t%s\t%s\t%s\n", s.Name, s.Via, s.Score.Rate(s.Score.Hit1), s.Score.Rate(s.Score.Hit3), s.Score.Rate(s.Score.Hit5), s.Score.MRR(), none, all, held, median)
	}
	tw.Flush()

	fmt.Fprintf(w, "\nMRR by kind\n")
	tw = tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	fmt.Fprint(tw, "system")
	for _, k := range r.Kinds {
		fmt.Fprintf(tw, "\t%s", k.Kind)
	}
	fmt.Fprintln(tw)
	for _, s := range r.Systems {
		fmt.Fprint(tw, s.Name)
		for _, k := range r.Kinds {
			fmt.Fprintf(tw, "\t%.3f", s.ByKind[k.Kind].MRR())
		}
		fmt.Fprintln(tw)
	}
	tw.Flush()

	if nuggeted := r.nuggetedKinds(); len(nuggeted) > 0 {
		fmt.Fprintf(w, "\nshare of answers holding every nugget, by kind (questions with nuggets)\n")
		tw = tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
		fmt.Fprint(tw, "system")
		for _, k := range nuggeted {
			fmt.Fprintf(tw, "\t%s %d", k, r.nuggetQuestions(k))
		}
		fmt.Fprintln(tw)
		for _, s := range r.Systems {
			if s.Answers == nil {
				continue
			}
			fmt.Fprint(tw, s.Name)
			for _, k := range nuggeted {
				if n := s.NuggetsByKind[k]; n != nil {
					fmt.Fprintf(tw, "\t%.3f", n.Share())
				} else {
					fmt.Fprint(tw, "\t-")
				}
			}
			fmt.Fprintln(tw)
		}
		tw.Flush()
	}

	for _, s := range r.Systems {
		a := s.Answers
		if a == nil {
			continue
		}
		fmt.Fprintf(w, "\nanswer checks, %s (%s): %d answered of %d\n", s.Name, s.Via, a.Answered, r.Questions)
		fmt.Fprintf(w, "  cited chunk had code: %d, of which the answer has a fenced block: %d\n", a.CodeCited, a.Fenced)
		fmt.Fprintf(w, "  answer repeats code of a cited chunk: %d, of which only part of a block (cut inside it): %d\n", a.QuotesCode, a.CutInCode)
		fmt.Fprintf(w, "  answer holds front matter (--- or +++ then a key): %d\n", a.FrontMatter)
		fmt.Fprintf(w, "  answer cut inside a template action ({{ without }}): %d\n", a.OpenTemplate)
	}
	return nil
}

// nuggetedKinds are the kinds, in Kinds order, some answering system
// scored nuggets for.
func (r *Report) nuggetedKinds() []string {
	var out []string
	for _, k := range r.Kinds {
		if r.nuggetQuestions(k.Kind) > 0 {
			out = append(out, k.Kind)
		}
	}
	return out
}

// nuggetQuestions is how many questions of kind had nuggets.
func (r *Report) nuggetQuestions(kind string) int {
	for _, s := range r.Systems {
		if n := s.NuggetsByKind[kind]; s.Answers != nil && n != nil {
			return n.N
		}
	}
	return 0
}

// WriteMisses writes, for every question some system did not get at
// rank 1, what each system returned, and the answers of those that
// answer.
func (r *Report) WriteMisses(w io.Writer, qs []Question) error {
	fmt.Fprintf(w, "# %s (%s): questions some system missed at rank 1\n", r.Site, r.Language)
	fmt.Fprintf(w, "# rank = position of the first labelled page; - = none in the results\n\n")
	for i, q := range qs {
		missed := false
		for _, s := range r.Systems {
			if s.Results[i].Rank != 1 {
				missed = true
			}
		}
		if !missed {
			continue
		}
		fmt.Fprintf(w, "[%s] %q\n  want %s\n", q.Kind, q.Q, strings.Join(q.Pages, " "))
		for _, s := range r.Systems {
			o := s.Results[i]
			rank := "-"
			if o.Rank > 0 {
				rank = fmt.Sprint(o.Rank)
			}
			got := strings.Join(o.Pages, " ")
			if o.Error != "" {
				got += " (" + o.Error + ")"
			}
			fmt.Fprintf(w, "  %-28s rank %s  %s\n", s.Name, rank, got)
			if o.Answer != "" && o.Rank != 1 {
				fmt.Fprintf(w, "  %-28s answer %q\n", "", cut(o.Answer, 300))
			}
		}
		fmt.Fprintln(w)
	}
	for _, s := range r.Systems {
		if s.Answers == nil {
			continue
		}
		fmt.Fprintf(w, "# %s: answers failing a check other than \"code without a fence\"\n\n", s.Name)
		for i, o := range s.Results {
			var serious []string
			for _, f := range o.Flags {
				if f != "code without a fence" {
					serious = append(serious, f)
				}
			}
			if len(serious) == 0 {
				continue
			}
			fmt.Fprintf(w, "[%s] %q: %s\n  answer %q\n\n", qs[i].Kind, qs[i].Q, strings.Join(serious, ", "), cut(o.Answer, 400))
		}
	}
	for _, s := range r.Systems {
		if s.Answers == nil || s.Nuggets.N == 0 {
			continue
		}
		fmt.Fprintf(w, "# %s: answers missing a nugget (%d of %d questions with nuggets)\n\n", s.Name, s.Nuggets.N-s.Nuggets.All, s.Nuggets.N)
		for i, o := range s.Results {
			if len(o.Missed) == 0 {
				continue
			}
			q := qs[i]
			missed := make([]string, len(o.Missed))
			for j, m := range o.Missed {
				alts := make([]string, len(q.Nuggets[m]))
				for k, a := range q.Nuggets[m] {
					alts[k] = fmt.Sprintf("%q", a)
				}
				missed[j] = "[" + strings.Join(alts, " | ") + "]"
			}
			fmt.Fprintf(w, "[%s] %q\n  missed %s (%d of %d)\n", q.Kind, q.Q, strings.Join(missed, ", "), len(o.Missed), len(q.Nuggets))
			if o.Error != "" {
				fmt.Fprintf(w, "  no answer: %s\n\n", o.Error)
				continue
			}
			fmt.Fprintf(w, "  answer %q\n\n", cut(o.Answer, 300))
		}
	}
	return nil
}

func cut(s string, n int) string {
	if len(s) <= n {
		return s
	}
	for n > 0 && (s[n]&0xC0) == 0x80 {
		n--
	}
	return s[:n] + "…"
}
