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
			Blocks:  r.Blocks,
			Order:   int(h.rec),
			Page:    pageOf(ix.records, int(h.rec)),
		})
	}
	p.sealMeasured(p.fit())
	return p
}

// fit drops the lowest-ranked records until the package, measured with
// full-length identities and the largest used_bytes it could carry, fits
// the byte budget. Measuring the worst case keeps the sealed package
// within budget without re-sealing. The JSON is measured in parts (the
// members around the records, then each record and its comma), once
// each: the length only grows with each record kept, so keeping the
// longest prefix that fits is what dropping from the end until it fits
// gives. It returns the kept package's length without the digits of
// used_bytes, for sealMeasured, or -1 when it kept no record.
func (p *Package) fit() int {
	p.ContextID, p.Digest, p.Budget.UsedBytes = placeholder, placeholder, p.Budget.MaxBytes
	p.Status = Sufficient
	buf := getBuf()
	defer putBuf(buf)
	b := p.appendTail(p.appendHead((*buf)[:0]))
	size := len(b) + len("[]")
	keep, kept := 0, -1
	for i := range p.Records {
		b = p.Records[i].appendJSON(b[:0])
		size += len(b)
		if i > 0 {
			size++ // comma
		}
		if size > p.Budget.MaxBytes {
			break
		}
		keep, kept = i+1, size-intLen(p.Budget.MaxBytes)
	}
	*buf = b[:0]
	p.Records = p.Records[:keep]
	if keep == 0 {
		p.Status = Insufficient
	}
	return kept
}
