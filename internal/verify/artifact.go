package verify

import (
	"fmt"
	"slices"
	"strings"

	"github.com/askplane/askplane/internal/protocol"
)

// kinds are the entry kinds of agentskit.chat.knowledge v1.
var kinds = []string{"command", "package", "navigation", "contribution", "ecosystem", "restricted-faq", "document"}

// explainArtifact reads an artifact the protocol rejected loosely and
// reports every rule it breaks: the wire diagnostic (verr) only says that
// one did. Problems about an entry name the entry's id and the source file
// the manifest records for it. When nothing specific is found, the
// diagnostic itself is reported.
func (c *checker) explainArtifact(name string, data []byte, m *manifest, trust *protocol.Trust, verr error) {
	before := len(c.problems)
	defer func() {
		if len(c.problems) == before {
			msg := "the artifact's content does not match its contentHash"
			if verr != nil {
				d := protocol.AsDiagnostic(verr)
				msg = fmt.Sprintf("the protocol rejects the artifact (%s: %s)", d.Code, d.Message)
			}
			c.add(Problem{Code: "artifact.invalid", Source: name,
				Message: msg + ", but askplane verify could not tell which rule failed; rebuild the site, and report it if it persists"})
		}
	}()
	top := func(code, format string, args ...any) {
		c.add(Problem{Code: code, Source: name, Message: fmt.Sprintf(format, args...)})
	}
	v, err := parseJSON(data)
	if err != nil {
		top("artifact.invalid", "the artifact is not valid JSON: %v", err)
		return
	}
	o, ok := v.(map[string]any)
	if !ok {
		top("artifact.invalid", "the artifact must be a JSON object, not %s", describe(v))
		return
	}
	if why := header(o, knowledgeProtocol); why != "" {
		top("artifact.invalid", "%s", why)
		return
	}

	if id, ok := o["artifactId"].(string); !ok || !protocol.ValidIdentifier(id) {
		top("artifact.id.invalid", "artifactId %s is not a valid identifier (1–128 ASCII letters, digits, '.', '_', ':' or '-')", show(o["artifactId"]))
	}
	siteID, ok := o["siteId"].(string)
	switch {
	case !ok || !protocol.ValidIdentifier(siteID):
		top("artifact.invalid", "siteId %s is not a valid identifier", show(o["siteId"]))
	case trust != nil && siteID != trust.SiteID:
		top("artifact.site.mismatch", "the artifact is for site %q, but site.json is for %q: site.json and the artifact come from different builds; rebuild and deploy the whole folder", siteID, trust.SiteID)
	}
	declared, ok := o["contentHash"].(string)
	if !ok || !validHash(declared) {
		top("artifact.hash.invalid", "contentHash %s is not sha256: and 64 lowercase hex digits", show(o["contentHash"]))
		declared = ""
	}
	gen, genOK := int64(0), false
	if s, ok := o["generatedAt"].(string); ok {
		gen, genOK = protocol.ParseDateTime(s)
	}
	if !genOK {
		top("artifact.generated-at.invalid", "generatedAt %s is not an ISO 8601 date-time such as 2026-01-02T15:04:05.000Z (check params.askplane.generatedAt)", show(o["generatedAt"]))
	}
	if raw, present := o["expiresAt"]; present {
		s, _ := raw.(string)
		exp, ok := protocol.ParseDateTime(s)
		switch {
		case !ok:
			top("artifact.expires-at.invalid", "expiresAt %s is not an ISO 8601 date-time such as 2026-02-01T15:04:05.000Z (check params.askplane.lifetime)", show(raw))
		case genOK && exp <= gen:
			top("artifact.expires-at.too-early", "expiresAt %s is not after generatedAt %s, so the artifact is stale from the start: params.askplane.lifetime must be positive", s, o["generatedAt"])
		}
	}
	list, ok := o["entries"].([]any)
	if !ok {
		top("artifact.invalid", "entries must be an array of facts, not %s", describe(o["entries"]))
	} else if len(list) > protocol.MaxEntries {
		top("facts.too-many", "the artifact holds %d facts; at most %d are allowed (one artifact per language)", len(list), protocol.MaxEntries)
	}
	perEntry := c.explainEntries(name, list, m)

	if trust != nil && declared != "" && declared != trust.ContentHash {
		top("artifact.hash.mismatch", "the artifact declares contentHash %s, but site.json pins %s: site.json and the artifact come from different builds; rebuild and deploy the whole folder", declared, trust.ContentHash)
	}
	clean := len(c.problems) == before
	for _, ps := range perEntry {
		clean = clean && len(ps) == 0
	}
	if clean && declared != "" {
		// The hash can only be recomputed for an artifact that follows
		// every other rule.
		if h, err := protocol.ComputeContentHash(data); err == nil && h != declared {
			top("artifact.hash.mismatch", "the artifact declares contentHash %s, but its content hashes to %s: the file was changed after the build; rebuild the site", declared, h)
		}
	}
	for _, ps := range perEntry {
		for _, p := range ps {
			c.add(p)
		}
	}
}

// entryInfo is what the unique-phrasing rule needs to know of an entry.
type entryInfo struct {
	label string // `fact "id" (source)` or `entry N`
	keys  []string
	raw   map[string]string // key -> the first phrasing that gave it
}

// explainEntries checks every entry and returns its problems, in entry
// order and field order.
func (c *checker) explainEntries(name string, list []any, m *manifest) [][]Problem {
	out := make([][]Problem, len(list))
	infos := make([]entryInfo, len(list))
	firstID := map[string]int{}
	owners := map[string][]int{}
	for i, raw := range list {
		src, fact := name, ""
		var ps []Problem
		bad := func(code, format string, args ...any) {
			msg := fmt.Sprintf(format, args...)
			if fact == "" {
				msg = fmt.Sprintf("entry %d of the artifact: %s", i+1, msg)
			}
			ps = append(ps, Problem{Code: code, Source: src, Fact: fact, Message: msg})
		}
		info := &infos[i]
		info.label = fmt.Sprintf("entry %d", i+1)
		info.raw = map[string]string{}
		e, ok := raw.(map[string]any)
		if !ok {
			bad("fact.invalid", "each fact must be an object with id, kind, label, match and answer, not %s", describe(raw))
			out[i] = ps
			continue
		}

		// id, and with it the source file.
		id, isString := e["id"].(string)
		if isString && id != "" {
			fact = id
			if s, ok := m.sources[id]; ok {
				src = s
			}
			info.label = fmt.Sprintf("fact %q (%s)", id, src)
		}
		switch {
		case !isString || id == "":
			if e["id"] == nil {
				bad("fact.id.missing", "the fact has no id")
			} else {
				bad("fact.id.missing", "id must be a non-empty string, not %s", describe(e["id"]))
			}
		case !protocol.ValidIdentifier(id):
			bad("fact.id.invalid", "id must be 1–128 ASCII letters, digits, '.', '_', ':' or '-', starting with a letter or digit")
		}
		if isString && id != "" {
			if j, dup := firstID[id]; dup {
				bad("fact.id.duplicate", "the id is used by more than one fact (entries %d and %d of the artifact); ids must be unique per language", j+1, i+1)
			} else {
				firstID[id] = i
			}
		}

		if k, _ := e["kind"].(string); !slices.Contains(kinds, k) {
			bad("fact.kind.invalid", "kind %s is not one of %s", show(e["kind"]), strings.Join(kinds, ", "))
		}

		if s, ok := e["label"].(string); !ok {
			bad("fact.label.missing", "label is required, not %s", describe(e["label"]))
		} else if s = protocol.Trim(s); s == "" {
			bad("fact.label.missing", "label is empty")
		} else if n := protocol.UTF16Len(s); n > protocol.MaxLabelLen {
			bad("fact.label.too-long", "label is %d characters; the limit is %d", n, protocol.MaxLabelLen)
		}

		// match: the exact phrasings.
		match, ok := e["match"].(map[string]any)
		if !ok {
			bad("fact.match.missing", "match must list 1 to %d exact phrasings, not %s", protocol.MaxAliases, describe(e["match"]))
		} else {
			if t, _ := match["type"].(string); t != "exact" {
				bad("fact.invalid", "match.type must be \"exact\", not %s", describe(match["type"]))
			}
			values, ok := match["values"].([]any)
			switch {
			case !ok || len(values) == 0:
				bad("fact.match.missing", "match must list 1 to %d exact phrasings", protocol.MaxAliases)
			case len(values) > protocol.MaxAliases:
				bad("fact.match.too-many", "match lists %d phrasings; at most %d are allowed", len(values), protocol.MaxAliases)
			}
			for _, rv := range values {
				s, ok := rv.(string)
				if !ok {
					bad("fact.invalid", "each match phrasing must be a string, not %s", describe(rv))
					continue
				}
				s = protocol.Trim(s)
				if s == "" {
					bad("fact.match.empty", "a match phrasing is empty")
					continue
				}
				if n := protocol.UTF16Len(s); n > protocol.MaxAliasLen {
					bad("fact.match.too-long", "phrasing %s is %d characters; the limit is %d", quote(s), n, protocol.MaxAliasLen)
					continue
				}
				key := protocol.NormalizeKey(s)
				if n := protocol.UTF16Len(key); n > protocol.MaxAliasLen {
					bad("fact.match.too-long", "phrasing %s is %d characters after normalization (NFKC expands some characters); the limit is %d", quote(s), n, protocol.MaxAliasLen)
					continue
				}
				if first, dup := info.raw[key]; dup {
					if first == s {
						bad("fact.match.duplicate", "phrasing %s is listed twice; remove one", quote(s))
					} else {
						bad("fact.match.duplicate", "phrasings %s and %s both normalize to %s, so they are the same phrasing; keep one", quote(first), quote(s), quote(key))
					}
					continue
				}
				info.raw[key] = s
				info.keys = append(info.keys, key)
				owners[key] = append(owners[key], i)
			}
		}

		// answer and its citations.
		answer, ok := e["answer"].(map[string]any)
		if !ok {
			bad("fact.answer.missing", "answer is required, not %s", describe(e["answer"]))
		} else {
			if s, ok := answer["markdown"].(string); !ok {
				bad("fact.answer.missing", "answer markdown is required, not %s", describe(answer["markdown"]))
			} else if s = protocol.Trim(s); s == "" {
				bad("fact.answer.missing", "answer is empty")
			} else if n := protocol.UTF16Len(s); n > protocol.MaxMarkdownLen {
				bad("fact.answer.too-long", "answer is %d characters; the limit is %d", n, protocol.MaxMarkdownLen)
			}
			cites, ok := answer["citations"].([]any)
			if !ok {
				bad("fact.cite.invalid", "answer.citations must be an array, not %s", describe(answer["citations"]))
			} else if len(cites) > protocol.MaxCitations {
				bad("fact.cite.too-many", "the fact has %d citations; at most %d are allowed", len(cites), protocol.MaxCitations)
			}
			for j, rc := range cites {
				ci, ok := rc.(map[string]any)
				if !ok {
					bad("fact.cite.invalid", "citation %d must be an object {id, title, href}, not %s", j+1, describe(rc))
					continue
				}
				if s, ok := ci["id"].(string); !ok || !protocol.ValidIdentifier(s) {
					bad("fact.cite.invalid", "citation %d: id %s must be 1–128 ASCII letters, digits, '.', '_', ':' or '-'", j+1, show(ci["id"]))
				}
				if s, ok := ci["title"].(string); !ok || protocol.Trim(s) == "" {
					bad("fact.cite.invalid", "citation %d needs a title", j+1)
				} else if n := protocol.UTF16Len(protocol.Trim(s)); n > protocol.MaxTitleLen {
					bad("fact.cite.title.too-long", "citation %d: the title is %d characters; the limit is %d", j+1, n, protocol.MaxTitleLen)
				}
				if s, ok := ci["href"].(string); !ok || !protocol.ValidHref(s) {
					bad("fact.href.unsafe", "citation %d: href %s must be a root-relative path (/docs/x) or an http(s) URL without credentials", j+1, show(ci["href"]))
				}
			}
		}
		out[i] = ps
	}

	// Unique-phrasing rule: each fact keeps at least one phrasing no other
	// fact has, or no question can reach it directly.
	for i := range infos {
		info := &infos[i]
		if len(info.keys) == 0 {
			continue
		}
		var shared []string
		unique := false
		for _, k := range info.keys {
			if len(owners[k]) == 1 {
				unique = true
				break
			}
			var others []string
			for _, j := range owners[k] {
				if j != i {
					others = append(others, infos[j].label)
				}
			}
			p := quote(info.raw[k])
			if k != info.raw[k] {
				p += " (normalized " + quote(k) + ")"
			}
			shared = append(shared, p+" is also a phrasing of "+strings.Join(others, " and "))
		}
		if unique {
			continue
		}
		src, fact := name, ""
		if len(out[i]) > 0 {
			src, fact = out[i][0].Source, out[i][0].Fact
		} else if e, ok := list[i].(map[string]any); ok {
			fact, _ = e["id"].(string)
			if s, ok := m.sources[fact]; ok {
				src = s
			}
		}
		msg := "every phrasing is shared with another fact, so no question reaches this one directly: " +
			strings.Join(shared, "; ") + "; add a phrasing only this fact has"
		if fact == "" {
			msg = fmt.Sprintf("entry %d of the artifact: %s", i+1, msg)
		}
		out[i] = append(out[i], Problem{Code: "fact.match.not-unique", Source: src, Fact: fact, Message: msg})
	}
	return out
}
