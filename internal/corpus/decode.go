package corpus

import (
	"encoding/json"
	"strconv"
	"strings"

	"github.com/askplane/askplane/internal/protocol"
)

// The wire shape of askplane.corpus v1. The build writes keys sorted, so
// nothing may depend on key order; encoding/json matches by name.
type wireCorpus struct {
	Protocol string     `json:"protocol"`
	Version  int        `json:"version"`
	SiteID   string     `json:"siteId"`
	Language string     `json:"language"`
	Pages    []wirePage `json:"pages"`
}

type wirePage struct {
	URL    string      `json:"url"`
	Title  string      `json:"title"`
	Chunks []wireChunk `json:"chunks"`
}

type wireChunk struct {
	Anchor   *string  `json:"anchor"`
	Headings []string `json:"headings"`
	Text     string   `json:"text"`
}

// decode checks the rules retrieval relies on, the same ones `askplane
// verify` reports on: every citation href is safe, every record id is
// unique, and no record is empty. A corpus failing them is refused whole,
// since it was not produced by a correct build.
func decode(data []byte) (*Corpus, error) {
	var w wireCorpus
	if err := json.Unmarshal(data, &w); err != nil {
		return nil, fail(CodeInvalid, "the corpus is not valid askplane.corpus JSON")
	}
	switch {
	case w.Protocol != CorpusProtocol:
		return nil, fail(CodeInvalid, "protocol must be "+CorpusProtocol)
	case w.Version != Version:
		return nil, fail(CodeUnsupported, "the corpus version is not 1")
	case !protocol.ValidIdentifier(w.SiteID):
		return nil, fail(CodeInvalid, "siteId is not a SafeIdentifier")
	case !protocol.ValidIdentifier(w.Language):
		return nil, fail(CodeInvalid, "language is not a SafeIdentifier")
	}
	n := 0
	for _, p := range w.Pages {
		n += len(p.Chunks)
	}
	c := &Corpus{SiteID: w.SiteID, Language: w.Language, Records: make([]Record, 0, n)}
	seen := make(map[string]struct{}, n)
	for i, p := range w.Pages {
		where := "page " + strconv.Itoa(i+1)
		if !strings.HasPrefix(p.URL, "/") || !protocol.ValidHref(p.URL) {
			return nil, fail(CodeInvalid, where+": url is not a safe root-relative href")
		}
		for j, ch := range p.Chunks {
			at := where + ", chunk " + strconv.Itoa(j+1)
			if ch.Anchor == nil || ch.Headings == nil {
				return nil, fail(CodeInvalid, at+": anchor and headings are required")
			}
			r := Record{URL: p.URL, Anchor: *ch.Anchor, Title: p.Title, Headings: ch.Headings, Text: ch.Text}
			if protocol.Trim(r.Text) == "" {
				return nil, fail(CodeInvalid, at+": the text is empty")
			}
			if !protocol.ValidHref(r.Href()) {
				return nil, fail(CodeInvalid, at+": url#anchor is not a safe href")
			}
			r.ID = RecordID(r.URL, r.Anchor)
			if _, dup := seen[r.ID]; dup {
				return nil, fail(CodeInvalid, at+": the same url and anchor appear twice")
			}
			seen[r.ID] = struct{}{}
			c.Records = append(c.Records, r)
		}
	}
	return c, nil
}
