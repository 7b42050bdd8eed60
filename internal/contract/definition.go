package contract

import (
	"bytes"
	"reflect"
	"regexp"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/askplane/askplane/internal/provider"
)

// Metadata names a contract. Name and Version make the schema ids:
// "urn:askplane:<name>:input:<version>" and
// "urn:askplane:<name>:output:<version>". Bump Version with any change
// to the Go types that a reviewer accepts, so old and new contracts never
// share an id.
type Metadata struct {
	Name        string // ^[a-z][a-z0-9-]{0,47}$, also the provider's output schema name
	Version     int    // 1 or more
	Description string // for people; not model-visible, at most 1024 bytes
}

// ModelDescriptor is the model a contract is bound to run on.
type ModelDescriptor struct {
	Model           string // provider model id, 1–256 printable ASCII bytes
	MaxOutputTokens int    // the call's output token cap, 1–HardMaxOutputTokens
}

// HardMaxOutputTokens bounds ModelDescriptor.MaxOutputTokens: the
// provider layer's own limit, so a definition never binds to a call every
// adapter would refuse.
const HardMaxOutputTokens = provider.MaxOutputTokensLimit

// Instructions are the trusted system text sent with every call. They
// come from code or operator configuration, never from a user.
type Instructions string

// MaxInstructionsBytes bounds Instructions.
const MaxInstructionsBytes = 32 << 10

var namePattern = regexp.MustCompile(`^[a-z][a-z0-9-]{0,47}$`)

// Definition is a frozen contract: metadata, model, instructions, limits
// and the two canonical schemas with their pinned references. It is
// immutable and safe to share.
type Definition[In, Out any] struct {
	meta         Metadata
	model        ModelDescriptor
	instructions Instructions
	limits       Limits
	input        entry
	output       entry
	visible      []byte // model-visible output schema, see modelSchema
}

// Define freezes a contract. It derives the input schema from In (what
// encoding/json writes for it) and the output schema from Out (what
// encoding/json reads into it, which Decode enforces by refusing unknown
// members), injects the ids, canonicalises both documents with RFC 8785
// and pins their digests. Both In and Out must be structs, and Out must
// be portable to strict structured-output modes: closed structs whose
// members are all required (no omitempty) and no maps. From the output
// schema it derives the model-visible schema (see modelSchema). A type
// with its own MarshalJSON or UnmarshalJSON must describe itself with
// invopop's JSONSchema method; otherwise its values fail validation,
// closed.
func Define[In, Out any](meta Metadata, model ModelDescriptor, instructions Instructions, limits Limits) (*Definition[In, Out], error) {
	switch {
	case !namePattern.MatchString(meta.Name):
		return nil, newError(CodeDefinitionInvalid, "the metadata name does not match ^[a-z][a-z0-9-]{0,47}$")
	case meta.Version < 1:
		return nil, newError(CodeDefinitionInvalid, "the metadata version is not positive")
	case len(meta.Description) > 1024 || !utf8.ValidString(meta.Description):
		return nil, newError(CodeDefinitionInvalid, "the metadata description is over 1024 bytes or not UTF-8")
	case model.Model == "" || len(model.Model) > 256 || strings.IndexFunc(model.Model, func(r rune) bool { return r < 0x21 || r > 0x7e }) >= 0:
		return nil, newError(CodeDefinitionInvalid, "the model id is not 1-256 printable ASCII bytes")
	case model.MaxOutputTokens < 1 || model.MaxOutputTokens > HardMaxOutputTokens:
		return nil, &Error{Code: CodeDefinitionInvalid, Message: "the model's MaxOutputTokens is out of range", Limit: HardMaxOutputTokens}
	case len(instructions) == 0 || len(instructions) > MaxInstructionsBytes || !utf8.ValidString(string(instructions)):
		return nil, &Error{Code: CodeDefinitionInvalid, Message: "the instructions are empty, too long or not UTF-8", Limit: MaxInstructionsBytes}
	}
	limits, lerr := limits.normalize()
	if lerr != nil {
		return nil, lerr
	}
	d := &Definition[In, Out]{meta: meta, model: model, instructions: instructions, limits: limits}
	v := strconv.Itoa(meta.Version)
	inID := "urn:askplane:" + meta.Name + ":input:" + v
	outID := "urn:askplane:" + meta.Name + ":output:" + v
	if inID == outID { // unreachable with this naming; kept as the invariant Bind relies on
		return nil, &Error{Code: CodeSchemaConflict, Message: "the input and output schema ids are equal", Schema: inID}
	}
	for _, s := range []struct {
		t  reflect.Type
		id string
		e  *entry
	}{
		{reflect.TypeFor[In](), inID, &d.input},
		{reflect.TypeFor[Out](), outID, &d.output},
	} {
		canonical, err := generateSchema(s.t, s.id)
		if err != nil {
			return nil, err
		}
		*s.e = entry{ref: SchemaRef{ID: s.id, Version: meta.Version, Digest: digestOf(canonical)}, canonical: canonical}
	}
	visible, err := modelSchema(d.output.canonical, outID)
	if err != nil {
		return nil, err
	}
	d.visible = visible
	return d, nil
}

// Metadata returns the contract's metadata.
func (d *Definition[In, Out]) Metadata() Metadata { return d.meta }

// Model returns the model descriptor.
func (d *Definition[In, Out]) Model() ModelDescriptor { return d.model }

// Limits returns the normalised limits (defaults filled in).
func (d *Definition[In, Out]) Limits() Limits { return d.limits }

// InputRef is the pinned reference of the input schema.
func (d *Definition[In, Out]) InputRef() SchemaRef { return d.input.ref }

// OutputRef is the pinned reference of the output schema.
func (d *Definition[In, Out]) OutputRef() SchemaRef { return d.output.ref }

// InputSchema returns a copy of the canonical input schema.
func (d *Definition[In, Out]) InputSchema() []byte { return bytes.Clone(d.input.canonical) }

// OutputSchema returns a copy of the canonical output schema, the one
// Decode validates against.
func (d *Definition[In, Out]) OutputSchema() []byte { return bytes.Clone(d.output.canonical) }

// ModelSchema returns a copy of the model-visible output schema: what
// PrepareRequest sends as provider.OutputSchema. It is canonical except
// that properties follow the Go declaration order (see modelSchema).
func (d *Definition[In, Out]) ModelSchema() []byte { return bytes.Clone(d.visible) }

// Register installs both schemas in b, or neither: a caller never sees a
// builder holding half of a contract. Registering a definition twice is
// harmless (see RegistryBuilder on identical references).
func (d *Definition[In, Out]) Register(b *RegistryBuilder) error {
	return b.addAll([]SchemaRef{d.input.ref, d.output.ref}, [][]byte{d.input.canonical, d.output.canonical})
}
