package protocol

import "unicode/utf8"

import "github.com/askplane/askplane/internal/ecmajson"

// Kind says what sort of fact an entry declares. It is informational: the
// resolver never reads it.
type Kind string

const (
	KindCommand       Kind = "command"
	KindPackage       Kind = "package"
	KindNavigation    Kind = "navigation"
	KindContribution  Kind = "contribution"
	KindEcosystem     Kind = "ecosystem"
	KindRestrictedFAQ Kind = "restricted-faq"
	KindDocument      Kind = "document"
)

// Kinds lists every entry kind in protocol order.
var Kinds = []Kind{KindCommand, KindPackage, KindNavigation, KindContribution, KindEcosystem, KindRestrictedFAQ, KindDocument}

// Artifact is an agentskit.chat.knowledge v1 document: the immutable,
// hashed set of exact facts the widget answers from. Values of a decoded
// Artifact are trimmed as the protocol trims them. ExpiresAt is "" when the
// artifact does not expire.
type Artifact struct {
	ArtifactID  string
	SiteID      string
	ContentHash string
	GeneratedAt string
	ExpiresAt   string
	Entries     []Entry

	// Filled by validate.
	expiresMs int64
	owners    map[string][]int
}

// Entry is one declared fact.
type Entry struct {
	ID     string
	Kind   Kind
	Label  string
	Values []string // match.values; match.type is always "exact"
	Answer Answer

	keys []string // Values normalized, filled by validate
}

// Answer is the markdown and citations an exact match returns.
type Answer struct {
	Markdown  string
	Citations []Citation
}

// Citation points a reader at the source of an answer.
type Citation struct {
	ID    string
	Title string
	Href  string
}

// Keys returns the entry's normalized match values, parallel to Values.
// It is set on artifacts returned by this package's decoders.
//
// The slice is read-only: it is the entry's own index, not a copy (the
// resolver calls Keys on every lookup), and the artifact's match index was
// built from it, so changing an element would make Keys and Matches
// disagree.
func (e *Entry) Keys() []string { return e.keys }

// Matches returns the indices, in artifact order, of the entries that own
// the normalized key.
//
// The slice is read-only: it is the artifact's own index, not a copy, and
// is shared by every caller and goroutine that looks the key up, so
// changing or appending to it would corrupt later answers.
func (a *Artifact) Matches(key string) []int { return a.owners[key] }

// Expires reports the artifact's expiry in Unix milliseconds.
func (a *Artifact) Expires() (ms int64, ok bool) { return a.expiresMs, a.ExpiresAt != "" }

// decodeArtifactValue maps a parsed document onto an Artifact, checking
// types and presence and trimming the trimmed fields. Bounds and
// cross-entry rules are validate's job, so they apply equally to values
// built in Go.
func decodeArtifactValue(root *ecmajson.Value) (*Artifact, bool) {
	var d decoder
	a := &Artifact{
		ArtifactID:  d.str(d.field(root, "artifactId")),
		SiteID:      d.str(d.field(root, "siteId")),
		ContentHash: d.str(d.field(root, "contentHash")),
		GeneratedAt: d.str(d.field(root, "generatedAt")),
	}
	if v := d.optional(root, "expiresAt"); v != nil {
		a.ExpiresAt = d.str(v)
		d.check(a.ExpiresAt != "")
	}
	list := d.array(d.field(root, "entries"), 0, MaxEntries)
	if d.failed {
		return nil, false
	}
	a.Entries = make([]Entry, len(list))
	for i := range list {
		e := &a.Entries[i]
		ev := d.object(&list[i])
		e.ID = d.str(d.field(ev, "id"))
		e.Kind = Kind(d.str(d.field(ev, "kind")))
		e.Label = Trim(d.str(d.field(ev, "label")))
		m := d.object(d.field(ev, "match"))
		d.literal(d.field(m, "type"), "exact")
		vals := d.array(d.field(m, "values"), 1, MaxAliases)
		e.Values = make([]string, len(vals))
		for j := range vals {
			e.Values[j] = Trim(d.str(&vals[j]))
		}
		ans := d.object(d.field(ev, "answer"))
		e.Answer.Markdown = Trim(d.str(d.field(ans, "markdown")))
		e.Answer.Citations = decodeCitations(&d, d.field(ans, "citations"))
		if d.failed {
			return nil, false
		}
	}
	return a, true
}

func decodeCitations(d *decoder, v *ecmajson.Value) []Citation {
	list := d.array(v, 0, MaxCitations)
	out := make([]Citation, len(list))
	for i := range list {
		o := d.object(&list[i])
		out[i] = Citation{
			ID:    d.str(d.field(o, "id")),
			Title: Trim(d.str(d.field(o, "title"))),
			Href:  d.str(d.field(o, "href")),
		}
	}
	return out
}

// validate checks every bound and rule of the artifact schema on already
// trimmed values, normalizes the match values, and builds the key index
// that the unique-alias rule needs and the resolver reuses. It reports
// only whether the artifact is valid: diagnostics never say which value
// failed. askplane verify (internal/verify) explains failures to authors,
// naming the rule, the entry and its source file.
//
// Every string must be valid UTF-8. A decoded artifact always is, but one
// built in Go may not be, and no JavaScript client could hash or match it:
// its strings are UTF-16, and the canonical bytes would carry U+FFFD where
// the Go value has other bytes. Identifiers, hashes, datetimes and hrefs
// are held to this by their own grammars, free text by validText.
func (a *Artifact) validate() bool {
	if !ValidIdentifier(a.ArtifactID) || !ValidIdentifier(a.SiteID) || !ValidContentHash(a.ContentHash) {
		return false
	}
	gen, ok := ParseDateTime(a.GeneratedAt)
	if !ok {
		return false
	}
	if a.ExpiresAt != "" {
		exp, ok := ParseDateTime(a.ExpiresAt)
		if !ok || exp <= gen {
			return false
		}
		a.expiresMs = exp
	}
	if len(a.Entries) > MaxEntries {
		return false
	}
	var d decoder
	ids := make(map[string]struct{}, len(a.Entries))
	owners := make(map[string][]int, len(a.Entries)*2)
	for i := range a.Entries {
		e := &a.Entries[i]
		if !ValidIdentifier(e.ID) || !validKind(e.Kind) {
			return false
		}
		if _, dup := ids[e.ID]; dup {
			return false
		}
		ids[e.ID] = struct{}{}
		d.validText(e.Label, 1, MaxLabelLen)
		d.validText(e.Answer.Markdown, 1, MaxMarkdownLen)
		if len(e.Values) < 1 || len(e.Values) > MaxAliases || len(e.Answer.Citations) > MaxCitations {
			return false
		}
		for _, c := range e.Answer.Citations {
			d.check(ValidIdentifier(c.ID) && ValidHref(c.Href))
			d.validText(c.Title, 1, MaxTitleLen)
		}
		e.keys = make([]string, len(e.Values))
		for j, v := range e.Values {
			d.validText(v, 1, MaxAliasLen)
			k := NormalizeKey(v)
			d.length(k, 0, MaxAliasLen)
			for _, prev := range e.keys[:j] {
				d.check(prev != k)
			}
			e.keys[j] = k
			owners[k] = append(owners[k], i)
		}
		if d.failed {
			return false
		}
	}
	// Unique-alias rule: every entry keeps at least one key it alone owns,
	// so each entry stays reachable even when its other aliases are shared.
	for i := range a.Entries {
		if !hasOwnKey(owners, a.Entries[i].keys) {
			return false
		}
	}
	a.owners = owners
	return true
}

func hasOwnKey(owners map[string][]int, keys []string) bool {
	for _, k := range keys {
		if len(owners[k]) == 1 {
			return true
		}
	}
	return false
}

func validKind(k Kind) bool {
	for _, known := range Kinds {
		if k == known {
			return true
		}
	}
	return false
}

// validText checks a free-text field of an artifact built in Go: valid
// UTF-8 (see validate) and a UTF-16 length in [min, max].
func (d *decoder) validText(s string, min, max int) {
	d.check(utf8.ValidString(s))
	d.length(s, min, max)
}
