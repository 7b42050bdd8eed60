package evidence

import "math/bits"

// Search ranks the corpus against question and returns the sealed
// package. The question is recorded verbatim (the caller passes the
// trimmed user turn). Records are taken best first up to
// budget.MaxRecords, then dropped from the end until the package's JSON
// fits budget.MaxBytes; with none left the status is insufficient, which
// the handler turns into ASK_NO_GROUNDED_SOURCES. Only a question too
// long for the budget on its own can leave used_bytes above max_bytes,
// and that package is always insufficient.
func (ix *Index) Search(question string, budget Budget) Package {
	budget = budget.normalize()
	p := Package{
		Protocol:      Protocol,
		Version:       Version,
		SourceVersion: ix.version,
		Engine:        EngineID,
		Question:      question,
		Budget:        budget,
		Records:       []Selected{},
	}
	terms := queryTerms(question)
	hits := ix.rank(terms, budget.MaxRecords)
	for _, h := range hits {
		if len(p.Records) == budget.MaxRecords || h.score*relativeCut < hits[0].score {
			break
		}
		r := &ix.records[h.rec]
		reasons := make([]string, 0, bits.OnesCount64(h.mask))
		for i := range terms {
			if h.mask&(1<<uint(i)) != 0 {
				reasons = append(reasons, terms[i])
			}
		}
		headings := r.Headings
		if headings == nil {
			headings = []string{}
		}
		p.Records = append(p.Records, Selected{
			ID: r.ID, URL: r.URL, Anchor: r.Anchor, Title: r.Title, Headings: headings,
			Excerpt: excerpt(r.Text, terms),
			Score:   formatScore(h.score),
			Reasons: reasons,
		})
	}
	p.fit()
	p.seal()
	return p
}

// fit drops the lowest-ranked records until the package, measured with
// full-length identities and the largest used_bytes it could carry, fits
// the byte budget. Measuring the worst case keeps the sealed package
// within budget without re-sealing.
func (p *Package) fit() {
	p.ContextID, p.Digest, p.Budget.UsedBytes = placeholder, placeholder, p.Budget.MaxBytes
	for {
		p.Status = Insufficient
		if len(p.Records) > 0 {
			p.Status = Sufficient
		}
		if len(p.Records) == 0 || len(p.JSON()) <= p.Budget.MaxBytes {
			break
		}
		p.Records = p.Records[:len(p.Records)-1]
	}
}
