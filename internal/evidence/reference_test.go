package evidence

// This file keeps the engine as it was before the search path was
// optimized (commit c1f0d59): index, rank, fit, seal and JSON, verbatim but
// renamed. It is the oracle of the differential tests in
// differential_test.go: whatever the optimized code does, its packages
// must equal these byte for byte. Do not "fix" or speed up anything here;
// a change to what Search returns needs a new EngineID, not a new oracle.

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"math"
	"math/bits"
	"slices"
	"sort"

	"github.com/askplane/askplane/internal/corpus"
	"github.com/gowebpki/jcs"
)

type refIndex struct {
	version string
	records []corpus.Record
	terms   map[string]int32
	posts   [][]refPosting
	norm    []float64
}

type refPosting struct {
	rec int32
	tf2 int32
}

func refNewIndex(c *corpus.Corpus) *refIndex {
	ix := &refIndex{version: c.Version, records: c.Records, terms: map[string]int32{}}
	lens := make([]int64, len(c.Records))
	var total int64
	counts := map[string]int32{}
	var keys []string
	var buf []string
	for i := range c.Records {
		r := &c.Records[i]
		clear(counts)
		var n int64
		add := func(text string, w int32) {
			buf = appendTerms(buf[:0], text)
			for _, t := range buf {
				counts[t] += w
			}
			n += int64(len(buf)) * int64(w)
		}
		add(r.Title, titleWeight2)
		for _, h := range r.Headings {
			add(h, headingWeight2)
		}
		add(r.Text, textWeight2)
		keys = keys[:0]
		for t := range counts {
			keys = append(keys, t)
		}
		sort.Strings(keys)
		for _, t := range keys {
			id, ok := ix.terms[t]
			if !ok {
				id = int32(len(ix.posts))
				ix.terms[t] = id
				ix.posts = append(ix.posts, nil)
			}
			ix.posts[id] = append(ix.posts[id], refPosting{rec: int32(i), tf2: counts[t]})
		}
		lens[i] = n
		total += n
	}
	ix.norm = make([]float64, len(lens))
	avg := 1.0
	if len(lens) > 0 && total > 0 {
		avg = float64(total) / float64(len(lens))
	}
	for i, n := range lens {
		ix.norm[i] = k1 * float64((1-b)+float64(b*float64(n))/avg)
	}
	return ix
}

func (ix *refIndex) rank(terms []string, k int) []hit {
	score := make([]float64, len(ix.records))
	mask := make([]uint64, len(ix.records))
	var touched []int32
	n := float64(len(ix.records))
	for i, t := range terms {
		id, ok := ix.terms[t]
		if !ok {
			continue
		}
		posts := ix.posts[id]
		df := float64(len(posts))
		idf := math.Log(1 + (n-df+0.5)/(df+0.5))
		for _, p := range posts {
			tf := float64(p.tf2) / 2
			s := float64(idf*float64(tf*(k1+1))) / float64(tf+ix.norm[p.rec])
			if mask[p.rec] == 0 {
				touched = append(touched, p.rec)
			}
			score[p.rec] += s
			mask[p.rec] |= 1 << uint(i)
		}
	}
	hits := make([]hit, 0, k+1)
	for _, r := range touched {
		micro := int64(math.Round(score[r] * scoreScale))
		if micro < minScore {
			continue
		}
		h := hit{rec: r, score: micro, mask: mask[r]}
		if len(hits) == k && !better(h, hits[k-1]) {
			continue
		}
		j, _ := slices.BinarySearchFunc(hits, h, func(x, y hit) int {
			if better(x, y) {
				return -1
			}
			return 1
		})
		hits = slices.Insert(hits, j, h)
		if len(hits) > k {
			hits = hits[:k]
		}
	}
	return hits
}

func (ix *refIndex) Search(question string, budget Budget) Package {
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
	refFit(&p)
	refSeal(&p)
	return p
}

func refFit(p *Package) {
	p.ContextID, p.Digest, p.Budget.UsedBytes = placeholder, placeholder, p.Budget.MaxBytes
	for {
		p.Status = Insufficient
		if len(p.Records) > 0 {
			p.Status = Sufficient
		}
		if len(p.Records) == 0 || len(refJSON(p)) <= p.Budget.MaxBytes {
			break
		}
		p.Records = p.Records[:len(p.Records)-1]
	}
}

func refSeal(p *Package) {
	p.ContextID, p.Digest, p.Budget.UsedBytes = "", "", 0
	p.ContextID = refIdentity(p, true)
	p.Digest = placeholder
	for i := 0; i < 4; i++ {
		n := len(refJSON(p))
		if n == p.Budget.UsedBytes {
			break
		}
		p.Budget.UsedBytes = n
	}
	p.Digest = ""
	p.Digest = refIdentity(p, false)
}

// refCanonical is the JCS text refIdentity hashes.
func refCanonical(p *Package, context bool) []byte {
	v := refIDView{
		Protocol: p.Protocol, Version: p.Version, SourceVersion: p.SourceVersion,
		Engine: p.Engine, Question: p.Question,
		Budget:  refIDBudget{MaxRecords: p.Budget.MaxRecords, MaxBytes: p.Budget.MaxBytes},
		Records: p.Records, Status: p.Status,
	}
	if !context {
		used := p.Budget.UsedBytes
		v.Budget.UsedBytes = &used
		v.ContextID = &p.ContextID
	}
	raw, err := json.Marshal(&v)
	if err != nil {
		panic("evidence: encoding a package: " + err.Error())
	}
	canon, err := jcs.Transform(raw)
	if err != nil {
		panic("evidence: canonicalizing a package: " + err.Error())
	}
	return canon
}

func refIdentity(p *Package, context bool) string {
	sum := sha256.Sum256(refCanonical(p, context))
	return hashPrefix + hex.EncodeToString(sum[:])
}

type refIDView struct {
	Protocol      string      `json:"protocol"`
	Version       int         `json:"version"`
	SourceVersion string      `json:"source_version"`
	Engine        string      `json:"engine"`
	Question      string      `json:"question"`
	Budget        refIDBudget `json:"budget"`
	Records       []Selected  `json:"records"`
	Status        Status      `json:"status"`
	ContextID     *string     `json:"context_id,omitempty"`
}

type refIDBudget struct {
	MaxRecords int  `json:"max_records"`
	MaxBytes   int  `json:"max_bytes"`
	UsedBytes  *int `json:"used_bytes,omitempty"`
}

func refJSON(p *Package) []byte {
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(p); err != nil {
		panic("evidence: encoding a package: " + err.Error())
	}
	return bytes.TrimSuffix(buf.Bytes(), []byte("\n"))
}

func refCheck(p *Package) bool {
	q := *p
	refSeal(&q)
	return q.ContextID == p.ContextID && q.Digest == p.Digest && q.Budget.UsedBytes == p.Budget.UsedBytes
}
