package verify

import (
	"encoding/json"
	"fmt"
	"strconv"
	"strings"

	"github.com/askplane/askplane/internal/chunk"
	"github.com/askplane/askplane/internal/protocol"
)

// The askplane.corpus versions verify reads: the module writes
// corpusVersion, and a corpus of corpusOldest is still read by the sidecar.
const (
	corpusOldest  = 1
	corpusVersion = 3
)

// checkCorpus checks a corpus document against askplane.corpus v1, v2 or
// v3:
//
//	{"protocol":"askplane.corpus","version":1,"siteId","language",
//	 "pages":[{"url","title","chunks":[{"anchor","headings":[],"text"}]}]}
//	{"protocol":"askplane.corpus","version":2,"siteId","language",
//	 "pages":[{"url","title","chunks":[{"level","anchor","heading","text"}]}]}
//	{"protocol":"askplane.corpus","version":3,"siteId","language",
//	 "pages":[{"url","title","kind","section","lang","html"}]}
//
// A v3 page's lang must be the corpus language, and its html is chunked
// as the sidecar chunks it (internal/chunk): a page the chunker refuses
// is corpus.html.invalid, and two kept chunks with one anchor are a
// corpus.anchor.duplicate warning (the reader keeps both).
//
// Every url must be a safe root-relative href, and anchors unique within a
// page. In v1 no text may be empty. In v2 a chunk whose trimmed text is
// empty is left out by the reader, so it is no problem and its anchor is
// not compared; level is 0 to 6, and 0 only for a page's first chunk
// (which then has no anchor or heading). It returns the number of pages
// and of chunks the reader keeps.
//
// The document is decoded level by level as raw JSON, so a large corpus is
// held about three times at most, never as a tree of interface values.
func (c *checker) checkCorpus(name string, data []byte, siteID, lang string) (pages, chunks int) {
	bad := func(code, format string, args ...any) {
		c.add(Problem{Code: code, Source: name, Message: fmt.Sprintf(format, args...)})
	}
	warn := func(code, format string, args ...any) {
		c.add(Problem{Code: code, Source: name, Message: fmt.Sprintf(format, args...), Warning: true})
	}
	var top map[string]json.RawMessage
	if err := json.Unmarshal(data, &top); err != nil {
		bad("corpus.invalid", "the corpus is not a valid JSON object: %v", err)
		return 0, 0
	}
	head := map[string]any{}
	for _, k := range []string{"protocol", "version"} {
		if raw, ok := top[k]; ok {
			v, _ := parseJSON(raw)
			head[k] = v
		}
	}
	version, why := headerVersion(head, corpusProtocol, corpusOldest, corpusVersion)
	if why != "" {
		bad("corpus.invalid", "%s", why)
		return 0, 0
	}
	if got, ok := rawString(top["siteId"]); !ok || got != siteID {
		bad("corpus.invalid", "siteId must be the site's, %q, not %s", siteID, describeRaw(top["siteId"]))
	}
	if got, ok := rawString(top["language"]); !ok || got != lang {
		bad("corpus.invalid", "language must be %q, the folder it is in, not %s", lang, describeRaw(top["language"]))
	}
	var list []json.RawMessage
	if err := json.Unmarshal(top["pages"], &list); err != nil || list == nil {
		bad("corpus.invalid", "pages must be an array, not %s", describeRaw(top["pages"]))
		return 0, 0
	}
	top = nil
	shape := "{anchor, headings, text}"
	if version == 2 {
		shape = "{level, anchor, heading, text}"
	}
	seenURL := map[string]int{}
	for i, raw := range list {
		where := fmt.Sprintf("page %d", i+1)
		var page map[string]json.RawMessage
		if err := json.Unmarshal(raw, &page); err != nil || page == nil {
			bad("corpus.invalid", "%s must be an object {url, title, chunks}, not %s", where, describeRaw(raw))
			continue
		}
		pages++
		url, ok := rawString(page["url"])
		if !ok {
			bad("corpus.invalid", "%s: url must be a string, not %s", where, describeRaw(page["url"]))
		} else {
			where = "page " + quote(url)
			if !protocol.ValidHref(url) || !strings.HasPrefix(url, "/") {
				bad("corpus.url.unsafe", "%s: the url must be a safe root-relative href (/docs/x/)", where)
			}
			if j, dup := seenURL[url]; dup {
				bad("corpus.url.duplicate", "%s: the url is also page %d's; each page appears once", where, j+1)
			} else {
				seenURL[url] = i
			}
		}
		if _, ok := rawString(page["title"]); !ok {
			bad("corpus.invalid", "%s: title must be a string, not %s", where, describeRaw(page["title"]))
		}
		if version == 3 {
			chunks += checkPageV3(bad, warn, where, page, lang)
			continue
		}
		var cl []map[string]json.RawMessage
		if err := json.Unmarshal(page["chunks"], &cl); err != nil || cl == nil {
			bad("corpus.invalid", "%s: chunks must be an array of objects %s, not %s", where, shape, describeRaw(page["chunks"]))
			continue
		}
		anchors := map[string]int{}
		for j, ch := range cl {
			at := fmt.Sprintf("%s, chunk %d", where, j+1)
			if version == 2 {
				if checkChunkV2(bad, at, j, ch, anchors) {
					chunks++
				}
				continue
			}
			chunks++
			var headings []string
			if anchor, ok := rawString(ch["anchor"]); !ok {
				bad("corpus.invalid", "%s: anchor must be a string, not %s", at, describeRaw(ch["anchor"]))
			} else if k, dup := anchors[anchor]; dup {
				bad("corpus.anchor.duplicate", "%s: anchor %s is also chunk %d's; heading ids must be unique within a page", at, quote(anchor), k+1)
			} else {
				anchors[anchor] = j
			}
			if err := json.Unmarshal(ch["headings"], &headings); err != nil || headings == nil {
				bad("corpus.invalid", "%s: headings must be an array of strings", at)
			}
			if text, ok := rawString(ch["text"]); !ok {
				bad("corpus.invalid", "%s: text must be a string, not %s", at, describeRaw(ch["text"]))
			} else if protocol.Trim(text) == "" {
				bad("corpus.text.empty", "%s: the text is empty; the module leaves out sections without text", at)
			}
		}
	}
	return pages, chunks
}

// checkPageV3 checks the members of a v3 page beyond url and title, and
// returns how many chunks the reader keeps from it.
func checkPageV3(bad, warn func(code, format string, args ...any), where string, page map[string]json.RawMessage, lang string) int {
	for _, k := range []string{"kind", "section"} {
		if _, ok := rawString(page[k]); !ok {
			bad("corpus.invalid", "%s: %s must be a string, not %s", where, k, describeRaw(page[k]))
		}
	}
	if got, ok := rawString(page["lang"]); !ok || got != lang {
		bad("corpus.invalid", "%s: lang must be %q, the corpus language, not %s", where, lang, describeRaw(page["lang"]))
	}
	html, ok := rawString(page["html"])
	if !ok {
		bad("corpus.invalid", "%s: html must be a string (the page's rendered content), not %s", where, describeRaw(page["html"]))
		return 0
	}
	chunks, err := chunk.Split(html)
	if err != nil {
		bad("corpus.html.invalid", "%s: %v", where, err)
		return 0
	}
	kept := 0
	anchors := map[string]int{}
	for j, ch := range chunks {
		if protocol.Trim(chunk.PlainText(ch.Blocks)) == "" {
			continue
		}
		kept++
		key := ch.Key // a heading without an id has a key, not an anchor
		if key == "" {
			key = ch.Anchor
		}
		if k, dup := anchors[key]; dup {
			// The reader keeps both (keying the later one key-1, …), so
			// this only warns: a link to it lands on the earlier one.
			warn("corpus.anchor.duplicate", "%s, chunk %d: anchor %s is also chunk %d's, so links to it land on that one; give each heading and term its own id", where, j+1, quote(key), k)
		} else {
			anchors[key] = j + 1
		}
	}
	return kept
}

// checkChunkV2 checks the j-th chunk of a v2 page and reports whether the
// reader keeps it (its trimmed text is not empty). anchors holds the
// anchors of the page's kept chunks, by chunk index.
func checkChunkV2(bad func(code, format string, args ...any), at string, j int, ch map[string]json.RawMessage, anchors map[string]int) bool {
	level := -1
	if v, err := parseJSON(ch["level"]); err != nil {
		bad("corpus.invalid", "%s: level must be a whole number from 0 to 6, not %s", at, describeRaw(ch["level"]))
	} else if n, ok := v.(json.Number); !ok {
		bad("corpus.invalid", "%s: level must be a whole number from 0 to 6, not %s", at, describe(v))
	} else if l, err := strconv.Atoi(n.String()); err != nil || l < 0 || l > 6 {
		bad("corpus.invalid", "%s: level must be a whole number from 0 to 6 (0 before the first heading, else h1–h6), not %s", at, n)
	} else {
		level = l
	}
	if level == 0 && j > 0 {
		bad("corpus.invalid", "%s: level is 0, but only a page's first chunk (the text before its first heading) may have level 0", at)
	}
	anchor, anchorOK := rawString(ch["anchor"])
	if !anchorOK {
		bad("corpus.invalid", "%s: anchor must be a string, not %s", at, describeRaw(ch["anchor"]))
	}
	heading, headingOK := rawString(ch["heading"])
	if !headingOK {
		bad("corpus.invalid", "%s: heading must be a string, not %s", at, describeRaw(ch["heading"]))
	}
	if level == 0 && (anchor != "" || heading != "") {
		bad("corpus.invalid", "%s: level is 0 (the text before the first heading), so anchor and heading must be empty", at)
	}
	text, ok := rawString(ch["text"])
	if !ok {
		bad("corpus.invalid", "%s: text must be a string, not %s", at, describeRaw(ch["text"]))
		return false
	}
	if protocol.Trim(strings.TrimSpace(text)) == "" {
		return false // the reader leaves it out; it only opens its heading
	}
	if anchorOK {
		if k, dup := anchors[anchor]; dup {
			bad("corpus.anchor.duplicate", "%s: anchor %s is also chunk %d's; heading ids must be unique within a page", at, quote(anchor), k+1)
		} else {
			anchors[anchor] = j
		}
	}
	return true
}

// rawString decodes a raw JSON string; anything else, null included, is
// not one.
func rawString(raw json.RawMessage) (string, bool) {
	var s string
	if len(raw) == 0 || raw[0] != '"' || json.Unmarshal(raw, &s) != nil {
		return "", false
	}
	return s, true
}

// describeRaw describes a raw JSON value (nil when absent).
func describeRaw(raw json.RawMessage) string {
	if raw == nil {
		return "missing"
	}
	v, err := parseJSON(raw)
	if err != nil {
		return "invalid JSON"
	}
	return describe(v)
}
