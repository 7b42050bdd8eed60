package agent

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
// $schema and $id, and is canonical; the full schema keeps everything.
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
		t.Error("model-visible schema is not canonical")
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
