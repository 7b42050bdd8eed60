package contract

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"reflect"

	"github.com/gowebpki/jcs"
	"github.com/invopop/jsonschema"
)

// Dialect is the only JSON Schema dialect this package generates and
// accepts.
const Dialect = "https://json-schema.org/draft/2020-12/schema"

// MaxSchemaBytes bounds one canonical schema document. Generated schemas
// for askplane's contracts are a few kilobytes; the bound keeps a runaway
// type (or a hostile registration) from pinning megabytes per request in
// provider calls.
const MaxSchemaBytes = 256 << 10

// SchemaRef pins one schema: its id (the document's $id, an absolute URI
// so that $ref resolution never depends on a base or a file system), the
// contract version it belongs to, and "sha256:" + the lowercase hex
// SHA-256 of the document's RFC 8785 canonical bytes. The digest covers
// the whole document: $schema, $id, $defs, every keyword.
type SchemaRef struct {
	ID      string
	Version int
	Digest  string
}

// digestOf is the SchemaRef digest of canonical bytes.
func digestOf(canonical []byte) string {
	sum := sha256.Sum256(canonical)
	return "sha256:" + hex.EncodeToString(sum[:])
}

// reflector derives schemas the way encoding/json reads and writes the
// type: property names from `json` tags, a property required unless its
// tag says omitempty or omitzero, `json:"-"` fields left out, and every
// struct closed (additionalProperties false, the invopop default, set
// explicitly so no upgrade can flip it). The root is the struct itself
// rather than a $ref to $defs, which providers' structured-output modes
// expect; nested structs stay in $defs. No automatic $id: Define injects
// the pinned one. Go doc comments are not read, so descriptions come only
// from `jsonschema:"description=…"` tags, which keeps the schema (and its
// digest) independent of source formatting.
func reflector() *jsonschema.Reflector {
	return &jsonschema.Reflector{
		Anonymous:                  true,
		AllowAdditionalProperties:  false,
		RequiredFromJSONSchemaTags: false,
		ExpandedStruct:             true,
	}
}

// generateSchema returns the canonical 2020-12 document for t with $id set
// to id. The root must be a JSON object: inputs and outputs are named
// members, never bare values, so they can grow by adding members.
func generateSchema(t reflect.Type, id string) ([]byte, *Error) {
	for t.Kind() == reflect.Pointer {
		t = t.Elem()
	}
	if t.Kind() != reflect.Struct {
		return nil, &Error{Code: CodeSchemaGeneration, Message: "the type is not a struct, so its JSON is not an object", Schema: id}
	}
	s := reflector().ReflectFromType(t)
	s.Version = Dialect
	s.ID = jsonschema.ID(id)
	raw, err := json.Marshal(s)
	if err != nil {
		return nil, &Error{Code: CodeSchemaGeneration, Message: "the generated schema does not serialise", Schema: id}
	}
	canonical, err := jcs.Transform(raw)
	if err != nil {
		return nil, &Error{Code: CodeSchemaGeneration, Message: "the generated schema does not canonicalise", Schema: id}
	}
	if len(canonical) > MaxSchemaBytes {
		return nil, &Error{Code: CodeSchemaTooLarge, Message: "the generated schema is over its byte bound", Schema: id, Limit: MaxSchemaBytes}
	}
	return canonical, nil
}
