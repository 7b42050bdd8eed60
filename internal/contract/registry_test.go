package contract

import (
	"strings"
	"testing"

	"github.com/gowebpki/jcs"
)

// schemaDoc is a small valid document with id and its reference.
func schemaDoc(id, body string) (SchemaRef, []byte) {
	doc := []byte(`{"$schema":"` + Dialect + `","$id":"` + id + `"` + body + `}`)
	canonical, err := canonicalForTest(doc)
	if err != nil {
		panic(err)
	}
	return SchemaRef{ID: id, Version: 1, Digest: digestOf(canonical)}, doc
}

func canonicalForTest(doc []byte) ([]byte, error) { return jcs.Transform(doc) }

// A definition installs both schemas or neither: when the output id is
// taken by another document, the input schema is not left behind.
func TestRegisterInstallsBothOrNeither(t *testing.T) {
	d, err := DefineAskAnswer(testModel)
	if err != nil {
		t.Fatal(err)
	}
	b, _ := NewRegistryBuilder(RegistryLimits{})
	other, otherDoc := schemaDoc(d.OutputRef().ID, `,"type":"object"`)
	if err := b.Add(other, otherDoc); err != nil {
		t.Fatal(err)
	}
	wantCode(t, d.Register(b), CodeSchemaConflict)
	reg, err := b.Build()
	if err != nil {
		t.Fatal(err)
	}
	if reg.Len() != 1 || reg.Contains(d.InputRef()) {
		t.Fatalf("half a pair installed: len %d", reg.Len())
	}

	// The count bound is checked for the pair as a whole.
	b, _ = NewRegistryBuilder(RegistryLimits{MaxSchemas: 1})
	wantCode(t, d.Register(b), CodeRegistryLimit)
	_, err = b.Build()
	wantCode(t, err, CodeRegistryLimit) // still empty
}

// Registering the same definition twice is a no-op; a changed contract
// under the same id is refused.
func TestRegisterSameSchemaIsIdempotent(t *testing.T) {
	d, _ := DefineAskAnswer(testModel)
	b, _ := NewRegistryBuilder(RegistryLimits{})
	for range 2 {
		if err := d.Register(b); err != nil {
			t.Fatal(err)
		}
	}
	reg, err := b.Build()
	if err != nil {
		t.Fatal(err)
	}
	if reg.Len() != 2 || !reg.Contains(d.InputRef()) || !reg.Contains(d.OutputRef()) {
		t.Fatalf("len %d", reg.Len())
	}
	if got, _ := reg.Canonical(d.OutputRef()); string(got) != string(d.OutputSchema()) {
		t.Error("canonical bytes differ")
	}
	if reg.TotalBytes() != len(d.InputSchema())+len(d.OutputSchema()) {
		t.Errorf("total %d", reg.TotalBytes())
	}
	changed, _ := Define[changedAskInput, AskOutput](AskAnswerMetadata, testModel, "x", Limits{})
	wantCode(t, changed.Register(b), CodeSchemaConflict)
}

// changedAskInput is AskInput with one bound changed: same ids, another
// digest.
type changedAskInput struct {
	Question string      `json:"question" jsonschema:"minLength=1,maxLength=4001"`
	Records  []AskRecord `json:"records"`
}

func TestAddChecksTheDocumentAgainstItsReference(t *testing.T) {
	good, goodDoc := schemaDoc("urn:askplane:t:1", `,"type":"object"`)
	for _, c := range []struct {
		name string
		ref  SchemaRef
		doc  string
		code Code
	}{
		{"relative id", SchemaRef{ID: "askplane.t/1", Version: 1, Digest: good.Digest}, string(goodDoc), CodeSchemaInvalid},
		{"fragment id", SchemaRef{ID: "urn:askplane:t:1#x", Version: 1, Digest: good.Digest}, string(goodDoc), CodeSchemaInvalid},
		{"version", SchemaRef{ID: good.ID, Digest: good.Digest}, string(goodDoc), CodeSchemaInvalid},
		{"digest shape", SchemaRef{ID: good.ID, Version: 1, Digest: "sha256:ABC"}, string(goodDoc), CodeSchemaInvalid},
		{"digest", SchemaRef{ID: good.ID, Version: 1, Digest: "sha256:" + strings.Repeat("a", 64)}, string(goodDoc), CodeSchemaInvalid},
		{"not json", good, `{"$schema":`, CodeSchemaInvalid},
		{"root array", good, `[]`, CodeSchemaInvalid},
		{"dialect", good, strings.Replace(string(goodDoc), "2020-12", "2019-09", 1), CodeSchemaInvalid},
		{"id", good, strings.Replace(string(goodDoc), "urn:askplane:t:1", "urn:askplane:t:2", 1), CodeSchemaInvalid},
		{"size", good, `{"x":"` + strings.Repeat("a", 300) + `"}`, CodeSchemaTooLarge},
	} {
		t.Run(c.name, func(t *testing.T) {
			b, _ := NewRegistryBuilder(RegistryLimits{MaxSchemaBytes: 256, MaxTotalBytes: 256})
			wantCode(t, b.Add(c.ref, []byte(c.doc)), c.code)
		})
	}
	// Formatting does not matter: the canonical form is what is hashed.
	b, _ := NewRegistryBuilder(RegistryLimits{})
	pretty := strings.ReplaceAll(string(goodDoc), ",", ",\n  ")
	if err := b.Add(good, []byte(pretty)); err != nil {
		t.Fatal(err)
	}
}

// Build compiles with the meta-schema and resolves $ref only inside the
// registry: an invalid keyword or a reference to the network fails.
func TestBuildCompilesOfflineAndRejectsInvalidSchemas(t *testing.T) {
	for name, body := range map[string]string{
		"meta-schema": `,"type":5`,
		"network ref": `,"$ref":"https://example.com/schema.json"`,
		"file ref":    `,"$ref":"file:///etc/passwd"`,
		"missing def": `,"$ref":"#/$defs/nope"`,
	} {
		t.Run(name, func(t *testing.T) {
			ref, doc := schemaDoc("urn:askplane:t:1", body)
			b, _ := NewRegistryBuilder(RegistryLimits{})
			if err := b.Add(ref, doc); err != nil {
				t.Fatal(err)
			}
			_, err := b.Build()
			wantCode(t, err, CodeSchemaInvalid)
		})
	}
	// A $ref to another schema in the registry resolves.
	refA, docA := schemaDoc("urn:askplane:a:1", `,"type":"string"`)
	refB, docB := schemaDoc("urn:askplane:b:1", `,"$ref":"urn:askplane:a:1"`)
	b, _ := NewRegistryBuilder(RegistryLimits{})
	if err := b.Add(refA, docA); err != nil {
		t.Fatal(err)
	}
	if err := b.Add(refB, docB); err != nil {
		t.Fatal(err)
	}
	if _, err := b.Build(); err != nil {
		t.Fatal(err)
	}
}

func TestRegistryLimits(t *testing.T) {
	for _, l := range []RegistryLimits{
		{MaxSchemas: -1},
		{MaxSchemas: HardMaxSchemas + 1},
		{MaxSchemaBytes: MaxSchemaBytes + 1},
		{MaxTotalBytes: HardMaxTotalBytes + 1},
		{MaxSchemaBytes: 100, MaxTotalBytes: 99},
	} {
		_, err := NewRegistryBuilder(l)
		wantCode(t, err, CodeRegistryLimit)
	}
	refA, docA := schemaDoc("urn:askplane:a:1", `,"type":"string"`)
	refB, docB := schemaDoc("urn:askplane:b:1", `,"type":"string"`)
	b, _ := NewRegistryBuilder(RegistryLimits{MaxSchemaBytes: 100, MaxTotalBytes: len(docA) + len(docB) - 1})
	if err := b.Add(refA, docA); err != nil {
		t.Fatal(err)
	}
	wantCode(t, b.Add(refB, docB), CodeRegistryLimit)
}
