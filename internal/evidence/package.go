package evidence

import "github.com/askplane/askplane/internal/corpus"

// Protocol name and version of the evidence package.
const (
	Protocol = "askplane.evidence"
	Version  = 1
)

// Status says whether the package holds anything to answer from.
type Status string

const (
	Sufficient   Status = "sufficient"
	Insufficient Status = "insufficient"
)

// Package is the evidence one question was answered from. Field order is
// the JSON order; identities are computed over RFC 8785 canonical JSON,
// so they do not depend on it.
type Package struct {
	Protocol      string     `json:"protocol"`
	Version       int        `json:"version"`
	SourceVersion string     `json:"source_version"` // corpus contentHash
	Engine        string     `json:"engine"`
	Question      string     `json:"question"`
	Budget        Budget     `json:"budget"`
	Records       []Selected `json:"records"`
	Status        Status     `json:"status"`
	// ContextID identifies what was selected: "sha256:" + hex SHA-256 of
	// the JCS form of the package without context_id, digest and
	// budget.used_bytes. Two packages with equal ContextID hold the same
	// evidence for the same question from the same corpus and engine.
	ContextID string `json:"context_id"`
	// Digest is the same hash over the whole package except digest, so
	// it proves byte-level identity (used_bytes included).
	Digest string `json:"digest"`
}

// Selected is one record chosen as evidence, with why it was chosen.
type Selected struct {
	ID       string   `json:"id"`
	URL      string   `json:"url"`
	Anchor   string   `json:"anchor"`
	Title    string   `json:"title"`
	Headings []string `json:"headings"`
	Excerpt  string   `json:"excerpt"`
	// Score is the BM25 score with exactly six decimals ("3.141593"),
	// a string so the JSON never depends on float formatting.
	Score string `json:"score"`
	// Reasons are the query terms the record matched, sorted.
	Reasons []string `json:"reasons"`
	// Blocks is the whole record's structure (paragraphs, code with its
	// language, lists, tables), from a v3 corpus; nil from v1 and v2. It
	// is for generators composing an answer and is not part of the
	// package's JSON, byte budget or identities: the record's id and the
	// package's source_version (and the chunker version the engine id
	// stands for) determine it. A package decoded from JSON has none.
	Blocks []corpus.Block `json:"-"`
	// Order is the record's place in the corpus (pages in build order,
	// each page's sections in reading order), so a generator can put
	// sections of one page in the order a reader meets them. Like Blocks
	// it is not part of the package's JSON or identities; a package
	// decoded from JSON has none (0).
	Order int `json:"-"`
	// Page is every record of the record's page, in reading order (a
	// view of the corpus, not a copy), so a generator can tell a step or
	// an alternative among sibling sections the package does not hold.
	// Not part of the JSON or identities; nil when decoded from JSON.
	Page []corpus.Record `json:"-"`
}

// pageOf is the run of records around rs[i] with its URL: a corpus
// keeps a page's records together, in reading order.
func pageOf(rs []corpus.Record, i int) []corpus.Record {
	lo, hi := i, i+1
	for lo > 0 && rs[lo-1].URL == rs[i].URL {
		lo--
	}
	for hi < len(rs) && rs[hi].URL == rs[i].URL {
		hi++
	}
	return rs[lo:hi:hi]
}

// Href is the citation link: the page, with the anchor when there is one.
func (s *Selected) Href() string {
	if s.Anchor == "" {
		return s.URL
	}
	return s.URL + "#" + s.Anchor
}

// JSON returns the package's wire bytes: compact, fields in declaration
// order, with <, > and & left as they are (it is data, not HTML): what
// encoding/json with SetEscapeHTML(false) writes (see wire.go).
// budget.used_bytes is the length of exactly these bytes.
func (p *Package) JSON() []byte {
	return p.appendJSON(make([]byte, 0, p.jsonSizeHint()))
}

// jsonSizeHint is a capacity that usually holds the whole JSON, so it is
// written without growing the buffer: used_bytes when sealed.
func (p *Package) jsonSizeHint() int {
	if n := p.Budget.UsedBytes; n > 0 && n <= MaxMaxBytes {
		return n
	}
	return 512
}
