package protocol

import (
	"crypto/sha256"
	"encoding/hex"

	"github.com/askplane/askplane/internal/ecmajson"
)

// placeholderHash stands in for contentHash while a hash is computed, so
// an artifact without one can be validated first.
const placeholderHash = "sha256:0000000000000000000000000000000000000000000000000000000000000000"

// CanonicalBytes returns the bytes the content hash covers: JSON.stringify
// of the artifact rebuilt in the protocol's fixed key order (protocol,
// version, artifactId, siteId, generatedAt, expiresAt when present,
// entries), with contentHash left out and arrays in the order given. It is
// the AgentsKit v1 byte contract, not RFC 8785.
func (a *Artifact) CanonicalBytes() []byte {
	return a.appendJSON(make([]byte, 0, a.sizeHint()), false)
}

// MarshalJSON writes the whole artifact, contentHash included, in the
// protocol's key order.
func (a *Artifact) MarshalJSON() ([]byte, error) {
	return a.appendJSON(make([]byte, 0, a.sizeHint()+100), true), nil
}

func (a *Artifact) sizeHint() int {
	n := 256
	for i := range a.Entries {
		e := &a.Entries[i]
		n += 128 + len(e.ID) + len(e.Label) + len(e.Answer.Markdown)
		for _, v := range e.Values {
			n += len(v) + 3
		}
		for _, c := range e.Answer.Citations {
			n += 40 + len(c.ID) + len(c.Title) + len(c.Href)
		}
	}
	return n
}

func (a *Artifact) appendJSON(b []byte, withHash bool) []byte {
	w := ecmajson.NewWriter(b)
	writeHeader(&w, KnowledgeProtocol)
	w.StringMember("artifactId", a.ArtifactID)
	w.StringMember("siteId", a.SiteID)
	if withHash {
		w.StringMember("contentHash", a.ContentHash)
	}
	w.StringMember("generatedAt", a.GeneratedAt)
	if a.ExpiresAt != "" {
		w.StringMember("expiresAt", a.ExpiresAt)
	}
	w.Key("entries")
	w.BeginArray()
	for i := range a.Entries {
		e := &a.Entries[i]
		w.BeginObject()
		w.StringMember("id", e.ID)
		w.StringMember("kind", string(e.Kind))
		w.StringMember("label", e.Label)
		w.Key("match")
		w.BeginObject()
		w.StringMember("type", "exact")
		w.Key("values")
		w.Strings(e.Values)
		w.EndObject()
		w.Key("answer")
		w.BeginObject()
		w.StringMember("markdown", e.Answer.Markdown)
		w.Key("citations")
		appendCitations(&w, e.Answer.Citations)
		w.EndObject()
		w.EndObject()
	}
	w.EndArray()
	w.EndObject()
	return w.Bytes()
}

func appendCitations(w *ecmajson.Writer, list []Citation) {
	w.BeginArray()
	for _, c := range list {
		w.BeginObject()
		w.StringMember("id", c.ID)
		w.StringMember("title", c.Title)
		w.StringMember("href", c.Href)
		w.EndObject()
	}
	w.EndArray()
}

// Digest returns "sha256:" and the lowercase hex SHA-256 of CanonicalBytes.
func (a *Artifact) Digest() string { return digest(a.CanonicalBytes()) }

func digest(canonical []byte) string {
	sum := sha256.Sum256(canonical)
	return "sha256:" + hex.EncodeToString(sum[:])
}

// hashMemberLen is the length of `"contentHash":"sha256:…",`, the only
// difference between CanonicalBytes and MarshalJSON.
const hashMemberLen = len(`"contentHash":"",`) + len(placeholderHash)

// DecodeArtifact decodes an agentskit.chat.knowledge v1 document and checks
// every schema rule, without checking its hash. The byte limit is checked
// before parsing. Unknown members are stripped.
func DecodeArtifact(data []byte) (*Artifact, error) {
	if len(data) > MaxArtifactBytes {
		return nil, limitExceeded()
	}
	root, ok := ecmajson.Parse(data)
	if !ok {
		return nil, invalidJSON()
	}
	if diag := header(&root, KnowledgeProtocol); diag != nil {
		return nil, diag
	}
	a, ok := decodeArtifactValue(&root)
	if !ok || !a.validate() {
		return nil, invalid()
	}
	return a, nil
}

// VerifyArtifact decodes data and verifies it against the trusted anchors of
// a site config, in the protocol's order: the anchors must themselves be
// valid; the document must decode; its declared hash must equal the
// trusted hash (HASH_MISMATCH); its siteId must equal the trusted one
// (INVALID_PAYLOAD); and the recomputed digest must equal the declared hash
// (HASH_MISMATCH).
func VerifyArtifact(data []byte, trust Trust) (*Artifact, error) {
	if !trust.valid() {
		return nil, invalid()
	}
	a, err := DecodeArtifact(data)
	if err != nil {
		return nil, err
	}
	if err := a.checkTrust(trust, a.CanonicalBytes()); err != nil {
		return nil, err
	}
	return a, nil
}

// Reverify checks an artifact value again, as the resolver does when it is
// built: a value changed after it was decoded must not answer. It returns a
// verified copy with values trimmed and the index built; a is left alone.
func Reverify(a *Artifact, trust Trust) (*Artifact, error) {
	if a == nil || !trust.valid() {
		return nil, invalid()
	}
	c := a.trimmedCopy()
	if !c.validate() {
		return nil, invalid()
	}
	// A value has no bytes to check before parsing, so its serialized
	// size is checked after validation, as JSON.stringify would measure it.
	canonical := c.CanonicalBytes()
	if len(canonical)+hashMemberLen > MaxArtifactBytes {
		return nil, limitExceeded()
	}
	if err := c.checkTrust(trust, canonical); err != nil {
		return nil, err
	}
	return c, nil
}

func (t Trust) valid() bool { return ValidContentHash(t.ContentHash) && ValidIdentifier(t.SiteID) }

func (a *Artifact) checkTrust(t Trust, canonical []byte) error {
	if a.ContentHash != t.ContentHash {
		return hashMismatch()
	}
	if a.SiteID != t.SiteID {
		return invalid()
	}
	if digest(canonical) != a.ContentHash {
		return hashMismatch()
	}
	return nil
}

// ComputeContentHash returns the content hash of an artifact document that
// may not carry one yet: the document is validated with a placeholder hash
// first, so no hash is ever computed for an artifact that breaks the schema
// or the unique-alias rule.
func ComputeContentHash(data []byte) (string, error) {
	if len(data) > MaxArtifactBytes {
		return "", limitExceeded()
	}
	root, ok := ecmajson.Parse(data)
	if !ok {
		return "", invalidJSON()
	}
	if diag := header(&root, KnowledgeProtocol); diag != nil {
		return "", diag
	}
	setMember(&root, "contentHash", ecmajson.Value{Kind: ecmajson.String, Str: placeholderHash})
	a, ok := decodeArtifactValue(&root)
	if !ok || !a.validate() {
		return "", invalid()
	}
	return a.Digest(), nil
}

// Seal validates a (which may have no hash yet), sets its ContentHash to its
// digest, and returns it ready to publish. Producers in Go use it; the Hugo
// module computes the same bytes in templates.
func Seal(a *Artifact) (*Artifact, error) {
	if a == nil {
		return nil, invalid()
	}
	c := a.trimmedCopy()
	c.ContentHash = placeholderHash
	if !c.validate() {
		return nil, invalid()
	}
	canonical := c.CanonicalBytes()
	if len(canonical)+hashMemberLen > MaxArtifactBytes {
		return nil, limitExceeded()
	}
	c.ContentHash = digest(canonical)
	return c, nil
}

func setMember(o *ecmajson.Value, key string, v ecmajson.Value) {
	if m, ok := o.Member(key); ok {
		*m = v
		return
	}
	o.Items = append(o.Items, ecmajson.Value{Kind: ecmajson.String, Str: key}, v)
}

// trimmedCopy deep-copies a with the trimmed fields trimmed, the way a
// schema parse would rewrite them.
func (a *Artifact) trimmedCopy() *Artifact {
	c := &Artifact{
		ArtifactID:  a.ArtifactID,
		SiteID:      a.SiteID,
		ContentHash: a.ContentHash,
		GeneratedAt: a.GeneratedAt,
		ExpiresAt:   a.ExpiresAt,
		Entries:     make([]Entry, len(a.Entries)),
	}
	for i, e := range a.Entries {
		ne := Entry{ID: e.ID, Kind: e.Kind, Label: Trim(e.Label), Values: make([]string, len(e.Values))}
		for j, v := range e.Values {
			ne.Values[j] = Trim(v)
		}
		ne.Answer.Markdown = Trim(e.Answer.Markdown)
		ne.Answer.Citations = make([]Citation, len(e.Answer.Citations))
		for j, cit := range e.Answer.Citations {
			ne.Answer.Citations[j] = Citation{ID: cit.ID, Title: Trim(cit.Title), Href: cit.Href}
		}
		c.Entries[i] = ne
	}
	return c
}
