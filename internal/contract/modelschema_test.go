package contract

import (
	"strings"
	"testing"
)

type boundedOut struct {
	Items []item `json:"items" jsonschema:"minItems=2,maxItems=5"`
	N     int    `json:"n" jsonschema:"minimum=1,maximum=9"`
	One   []int  `json:"one" jsonschema:"minItems=1"`
}

// item has a member named like a keyword, which must survive the walk.
type item struct {
	MaxLength string `json:"maxLength" jsonschema:"maxLength=3"`
}

// The model-visible schema drops the bounds constrained decoders refuse
// (but keeps minItems 0 or 1, and members named like keywords), drops
// $schema and $id, and is canonical up to member order (here the
// declaration order is also the sorted one); the full schema keeps
// everything.
func TestModelSchemaIsThePortableSubset(t *testing.T) {
	d, err := Define[closedIn, boundedOut](Metadata{Name: "bounded", Version: 1}, testModel, "x", Limits{})
	if err != nil {
		t.Fatal(err)
	}
	visible := string(d.ModelSchema())
	for _, gone := range []string{`"$schema"`, `"$id"`, `"maxItems"`, `"minItems":2`, `"minimum"`, `"maximum"`, `"maxLength":3`} {
		if strings.Contains(visible, gone) {
			t.Errorf("model-visible schema keeps %s: %s", gone, visible)
		}
	}
	for _, kept := range []string{`"minItems":1`, `"properties":{"maxLength":{"type":"string"}}`, `"$ref":"#/$defs/item"`, `"additionalProperties":false`} {
		if !strings.Contains(visible, kept) {
			t.Errorf("model-visible schema lacks %s: %s", kept, visible)
		}
	}
	if canonical, _ := canonicalForTest([]byte(visible)); string(canonical) != visible {
		t.Error("model-visible schema is not canonical (its declaration order is the sorted one)")
	}
	full := string(d.OutputSchema())
	for _, kept := range []string{`"maxItems":5`, `"minItems":2`, `"maximum":9`, `"maxLength":3`} {
		if !strings.Contains(full, kept) {
			t.Errorf("output schema lacks %s", kept)
		}
	}
	// The full schema still holds answers to its bounds.
	a := bind(t, d)
	_, err = a.Decode(providerText(`{"items":[{"maxLength":"abc"}],"n":1,"one":[1]}`))
	if e := wantCode(t, err, CodeOutputInvalid); e.Path != "/properties/items/minItems" {
		t.Errorf("path %q", e.Path)
	}
}

// ordered declares its members out of name order, nested too.
type ordered struct {
	Zeta  string      `json:"zeta"`
	Alpha orderedNest `json:"alpha"`
	Mid   []int       `json:"mid"`
}

type orderedNest struct {
	Y string `json:"y"`
	B string `json:"b"`
}

// Every "properties" object of the model-visible schema lists its members
// in declaration order, which is how strict structured-output modes
// generate them; the bytes differ from the canonical schema in member
// order only, and the full output schema stays canonical.
func TestModelSchemaKeepsDeclarationOrder(t *testing.T) {
	d, err := Define[closedIn, ordered](Metadata{Name: "ordered", Version: 1}, testModel, "x", Limits{})
	if err != nil {
		t.Fatal(err)
	}
	visible := string(d.ModelSchema())
	for _, want := range []string{
		`"properties":{"zeta":{"type":"string"},"alpha":{"$ref":"#/$defs/orderedNest"},"mid":{`,
		`"properties":{"y":{"type":"string"},"b":{"type":"string"}}`,
		`"required":["zeta","alpha","mid"]`,
	} {
		if !strings.Contains(visible, want) {
			t.Errorf("model-visible schema lacks %s: %s", want, visible)
		}
	}
	canonical, err := canonicalForTest([]byte(visible))
	if err != nil || string(canonical) == visible || !strings.Contains(string(canonical), `"properties":{"alpha"`) {
		t.Errorf("reordering is not the only difference from the canonical form: %s", canonical)
	}
	if out := d.OutputSchema(); string(mustCanonical(t, out)) != string(out) {
		t.Error("the output schema is not canonical")
	}
	// Identical definitions give identical bytes.
	again, _ := Define[closedIn, ordered](Metadata{Name: "ordered", Version: 1}, testModel, "x", Limits{})
	if string(again.ModelSchema()) != visible {
		t.Error("the model-visible schema is not deterministic")
	}
}

func mustCanonical(t *testing.T, b []byte) []byte {
	t.Helper()
	c, err := canonicalForTest(b)
	if err != nil {
		t.Fatal(err)
	}
	return c
}

type optionalOut struct {
	A string `json:"a"`
	B string `json:"b,omitempty"`
}

type mapOut struct {
	M map[string]string `json:"m"`
}

// Outputs strict structured-output modes cannot express are refused at
// Define, not by a provider at the first request.
func TestDefineRefusesUnportableOutputs(t *testing.T) {
	_, err := Define[closedIn, optionalOut](Metadata{Name: "opt", Version: 1}, testModel, "x", Limits{})
	wantCode(t, err, CodeSchemaGeneration)
	_, err = Define[closedIn, mapOut](Metadata{Name: "map", Version: 1}, testModel, "x", Limits{})
	wantCode(t, err, CodeSchemaGeneration)
	// Inputs are not model-constrained: optional members are fine there.
	if _, err := Define[optionalOut, closedOut](Metadata{Name: "in", Version: 1}, testModel, "x", Limits{}); err != nil {
		t.Error(err)
	}
}
