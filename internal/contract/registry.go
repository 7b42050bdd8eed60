package contract

import (
	"bytes"
	"errors"
	"net/url"
	"regexp"

	"github.com/gowebpki/jcs"
	"github.com/santhosh-tekuri/jsonschema/v6"
)

// RegistryLimits bound a registry. A zero field takes its default.
type RegistryLimits struct {
	MaxSchemas     int // schemas installed
	MaxSchemaBytes int // one canonical document
	MaxTotalBytes  int // all canonical documents together
}

// Registry limit defaults and hard maxima.
const (
	DefaultMaxSchemas    = 256
	DefaultMaxTotalBytes = 8 << 20
	HardMaxSchemas       = 4096
	HardMaxTotalBytes    = 64 << 20
)

func (l RegistryLimits) normalize() (RegistryLimits, error) {
	if l.MaxSchemas == 0 {
		l.MaxSchemas = DefaultMaxSchemas
	}
	if l.MaxSchemaBytes == 0 {
		l.MaxSchemaBytes = MaxSchemaBytes
	}
	if l.MaxTotalBytes == 0 {
		l.MaxTotalBytes = DefaultMaxTotalBytes
	}
	switch {
	case l.MaxSchemas < 0 || l.MaxSchemas > HardMaxSchemas:
		return l, &Error{Code: CodeRegistryLimit, Message: "MaxSchemas is out of range", Limit: HardMaxSchemas}
	case l.MaxSchemaBytes < 0 || l.MaxSchemaBytes > MaxSchemaBytes:
		return l, &Error{Code: CodeRegistryLimit, Message: "MaxSchemaBytes is out of range", Limit: MaxSchemaBytes}
	case l.MaxTotalBytes < 0 || l.MaxTotalBytes > HardMaxTotalBytes:
		return l, &Error{Code: CodeRegistryLimit, Message: "MaxTotalBytes is out of range", Limit: HardMaxTotalBytes}
	case l.MaxTotalBytes < l.MaxSchemaBytes:
		return l, &Error{Code: CodeRegistryLimit, Message: "MaxTotalBytes is below MaxSchemaBytes", Limit: l.MaxSchemaBytes}
	}
	return l, nil
}

// entry is one installed schema.
type entry struct {
	ref       SchemaRef
	canonical []byte
}

// RegistryBuilder collects schemas at startup. It is not safe for
// concurrent use; Build turns what it holds into an immutable Registry.
//
// One id names one schema: $ref resolves by URI, so two documents under
// one $id would make validation depend on which one won. Registering the
// exact same reference again (id, version and digest all equal, so the
// same bytes) is accepted and changes nothing, so two agents may share a
// schema and startup code may register a definition twice; the same id
// with another version or digest is refused with CodeSchemaConflict.
type RegistryBuilder struct {
	limits  RegistryLimits
	entries map[string]entry
	order   []string // ids in registration order, so Build is deterministic
	total   int
}

// NewRegistryBuilder returns an empty builder with limits l.
func NewRegistryBuilder(l RegistryLimits) (*RegistryBuilder, error) {
	l, err := l.normalize()
	if err != nil {
		return nil, err
	}
	return &RegistryBuilder{limits: l, entries: map[string]entry{}}, nil
}

// Add installs one schema document under ref after checking, in order:
// the reference's shape, a conflicting id, the document's size, that it
// is JSON whose root is an object with $schema equal to Dialect and $id
// equal to ref.ID, and that the SHA-256 of its RFC 8785 form is
// ref.Digest; then the count and total bounds. The canonical form is
// stored, so doc may be formatted any way. Meta-schema validation and
// compilation happen in Build.
func (b *RegistryBuilder) Add(ref SchemaRef, doc []byte) error {
	return b.addAll([]SchemaRef{ref}, [][]byte{doc})
}

// addAll installs every schema or none: all are checked, together with
// the bounds they would reach, before any is committed.
func (b *RegistryBuilder) addAll(refs []SchemaRef, docs [][]byte) error {
	var fresh []entry
	seen := map[string]bool{}
	added := 0
	for i, ref := range refs {
		e, existing, err := b.prepare(ref, docs[i])
		if err != nil {
			return err
		}
		if existing {
			continue
		}
		if seen[ref.ID] {
			return &Error{Code: CodeSchemaConflict, Message: "two schemas in one registration share an id", Schema: ref.ID}
		}
		seen[ref.ID] = true
		fresh = append(fresh, e)
		added += len(e.canonical)
	}
	if len(b.entries)+len(fresh) > b.limits.MaxSchemas {
		return &Error{Code: CodeRegistryLimit, Message: "the registry is over its schema count", Limit: b.limits.MaxSchemas}
	}
	if b.total+added > b.limits.MaxTotalBytes {
		return &Error{Code: CodeRegistryLimit, Message: "the registry is over its total byte bound", Limit: b.limits.MaxTotalBytes}
	}
	for _, e := range fresh {
		b.entries[e.ref.ID] = e
		b.order = append(b.order, e.ref.ID)
		b.total += len(e.canonical)
	}
	return nil
}

var digestPattern = regexp.MustCompile(`^sha256:[0-9a-f]{64}$`)

// maxIDLen bounds a schema id.
const maxIDLen = 256

// checkID reports whether id can be a schema's $id here: an absolute URI
// without a fragment, so resolution never touches a base or a file.
func checkID(id string) bool {
	if id == "" || len(id) > maxIDLen {
		return false
	}
	u, err := url.Parse(id)
	return err == nil && u.IsAbs() && u.Fragment == "" && u.String() == id
}

// prepare checks one schema against ref and the builder's state without
// changing it; existing reports an identical schema already installed.
func (b *RegistryBuilder) prepare(ref SchemaRef, doc []byte) (e entry, existing bool, err error) {
	bad := func(code Code, msg string) (entry, bool, error) {
		return entry{}, false, &Error{Code: code, Message: msg, Schema: ref.ID}
	}
	switch {
	case !checkID(ref.ID):
		return bad(CodeSchemaInvalid, "the schema id is not an absolute URI without a fragment")
	case ref.Version < 1:
		return bad(CodeSchemaInvalid, "the schema version is not positive")
	case !digestPattern.MatchString(ref.Digest):
		return bad(CodeSchemaInvalid, "the schema digest is not sha256:<64 lowercase hex>")
	}
	if have, ok := b.entries[ref.ID]; ok {
		if have.ref == ref {
			return have, true, nil
		}
		return bad(CodeSchemaConflict, "the registry holds this schema id with another version or digest")
	}
	if len(doc) > b.limits.MaxSchemaBytes {
		return entry{}, false, &Error{Code: CodeSchemaTooLarge, Message: "the schema document is over its byte bound", Schema: ref.ID, Limit: b.limits.MaxSchemaBytes}
	}
	canonical, cerr := jcs.Transform(doc)
	if cerr != nil {
		return bad(CodeSchemaInvalid, "the schema document is not canonicalisable JSON")
	}
	if len(canonical) > b.limits.MaxSchemaBytes {
		return entry{}, false, &Error{Code: CodeSchemaTooLarge, Message: "the schema document is over its byte bound", Schema: ref.ID, Limit: b.limits.MaxSchemaBytes}
	}
	v, perr := jsonschema.UnmarshalJSON(bytes.NewReader(canonical))
	root, ok := v.(map[string]any)
	switch {
	case perr != nil || !ok:
		return bad(CodeSchemaInvalid, "the schema document's root is not an object")
	case root["$schema"] != Dialect:
		return bad(CodeSchemaInvalid, "the schema's $schema is not JSON Schema 2020-12")
	case root["$id"] != ref.ID:
		return bad(CodeSchemaInvalid, "the schema's $id is not its reference id")
	case digestOf(canonical) != ref.Digest:
		return bad(CodeSchemaInvalid, "the schema's digest is not its reference digest")
	}
	return entry{ref: ref, canonical: canonical}, false, nil
}

// refuseLoader is the compiler's only loader: every schema must already
// be in the registry, and nothing is fetched from a network or a disk.
type refuseLoader struct{}

func (refuseLoader) Load(string) (any, error) {
	return nil, errors.New("agent: schemas are never loaded from outside the registry")
}

// Build validates every schema against the 2020-12 meta-schema and
// compiles it, resolving $ref only within the registry, and returns the
// immutable result. Format assertions are on, so "format" is a
// constraint, not an annotation. An empty builder is refused.
func (b *RegistryBuilder) Build() (*Registry, error) {
	if len(b.entries) == 0 {
		return nil, &Error{Code: CodeRegistryLimit, Message: "the registry has no schemas"}
	}
	c := jsonschema.NewCompiler()
	c.DefaultDraft(jsonschema.Draft2020)
	c.AssertFormat()
	c.UseLoader(refuseLoader{})
	for _, id := range b.order {
		doc, err := jsonschema.UnmarshalJSON(bytes.NewReader(b.entries[id].canonical))
		if err == nil {
			err = c.AddResource(id, doc)
		}
		if err != nil {
			return nil, &Error{Code: CodeSchemaInvalid, Message: "the schema could not be added to the compiler", Schema: id}
		}
	}
	r := &Registry{entries: make(map[string]compiled, len(b.entries)), total: b.total}
	for _, id := range b.order {
		s, err := c.Compile(id)
		if err != nil {
			return nil, &Error{Code: CodeSchemaInvalid, Message: "the schema does not compile as JSON Schema 2020-12 within the registry", Schema: id}
		}
		r.entries[id] = compiled{entry: b.entries[id], schema: s}
	}
	return r, nil
}

// compiled is an installed schema with its validator.
type compiled struct {
	entry
	schema *jsonschema.Schema
}

// Registry is an immutable set of compiled schemas. It is safe for
// concurrent use; nothing changes it after Build.
type Registry struct {
	entries map[string]compiled
	total   int
}

// Contains reports whether ref is installed exactly (id, version and
// digest).
func (r *Registry) Contains(ref SchemaRef) bool {
	e, ok := r.entries[ref.ID]
	return ok && e.ref == ref
}

// Len is the number of schemas.
func (r *Registry) Len() int { return len(r.entries) }

// TotalBytes is the size of all canonical documents.
func (r *Registry) TotalBytes() int { return r.total }

// Canonical returns a copy of the canonical document installed exactly
// under ref.
func (r *Registry) Canonical(ref SchemaRef) ([]byte, bool) {
	e, ok := r.lookup(ref)
	if !ok {
		return nil, false
	}
	return bytes.Clone(e.canonical), true
}

func (r *Registry) lookup(ref SchemaRef) (compiled, bool) {
	e, ok := r.entries[ref.ID]
	if !ok || e.ref != ref {
		return compiled{}, false
	}
	return e, true
}
