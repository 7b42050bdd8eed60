package agent

import (
	"bytes"
	"encoding/json"
	"slices"

	"github.com/gowebpki/jcs"
)

// The model-visible schema is what a provider's constrained decoder gets:
// the output schema reduced to the subset that the structured-output
// modes of OpenAI, Anthropic and OpenAI-compatible servers all accept.
// Their decoders compile the schema into a grammar and refuse keywords
// they cannot compile; Anthropic, for one, answers 400 to maxLength,
// maxItems, minimum and minItems above 1. Dropping a bound there loses
// nothing: Decode validates every answer against the full output schema,
// which stays authoritative, and the bounds' intent belongs in
// descriptions, which every provider passes to the model.

// unportable are keywords removed from the model-visible schema, with
// $schema and $id, which identify the document to askplane, not to a
// provider.
var unportable = []string{
	"$schema", "$id",
	"minLength", "maxLength",
	"maxItems", "uniqueItems",
	"minimum", "maximum", "exclusiveMinimum", "exclusiveMaximum", "multipleOf",
	"minProperties", "maxProperties",
}

// schemaMaps and schemaLists name the keywords whose values hold
// subschemas, so the walk rewrites schemas and never a property that
// happens to be called "maxLength".
var (
	schemaMaps  = []string{"properties", "$defs", "patternProperties", "dependentSchemas"}
	schemaLists = []string{"anyOf", "allOf", "oneOf", "prefixItems"}
	schemaOnes  = []string{"items", "additionalProperties", "not", "contains", "if", "then", "else", "propertyNames"}
)

// modelSchema derives the canonical model-visible schema from a canonical
// output schema, and checks the output is portable: every object closed
// and every member required, as strict structured-output modes demand.
func modelSchema(canonical []byte, id string) ([]byte, *Error) {
	dec := json.NewDecoder(bytes.NewReader(canonical))
	dec.UseNumber()
	var root any
	if err := dec.Decode(&root); err != nil {
		return nil, &Error{Code: CodeSchemaGeneration, Message: "the output schema does not parse", Schema: id}
	}
	if msg := portable(root, 0); msg != "" {
		return nil, &Error{Code: CodeSchemaGeneration, Message: msg, Schema: id}
	}
	raw, err := json.Marshal(root)
	if err == nil {
		raw, err = jcs.Transform(raw)
	}
	if err != nil {
		return nil, &Error{Code: CodeSchemaGeneration, Message: "the model-visible schema does not canonicalise", Schema: id}
	}
	return raw, nil
}

// portable strips unportable keywords from schema s in place and reports
// why it cannot be model-visible, or "". depth bounds the walk (generated
// schemas are shallow; $ref keeps recursion out of the tree).
func portable(s any, depth int) string {
	if depth > HardMaxDepth {
		return "the output schema nests too deeply"
	}
	obj, ok := s.(map[string]any)
	if !ok {
		return "" // true/false schemas
	}
	for _, k := range unportable {
		delete(obj, k)
	}
	if n, ok := obj["minItems"].(json.Number); ok && n.String() != "0" && n.String() != "1" {
		delete(obj, "minItems")
	}
	props, hasProps := obj["properties"].(map[string]any)
	if obj["type"] == "object" && !hasProps {
		return "an object in the output schema has no fixed members (a map); strict structured output needs named members"
	}
	if hasProps {
		if obj["additionalProperties"] != false {
			return "an object in the output schema is open; outputs must be closed structs"
		}
		req, _ := obj["required"].([]any)
		for name := range props {
			if !slices.Contains(req, any(name)) {
				return "a member of the output is optional (omitempty); strict structured output needs every member required"
			}
		}
	}
	for _, k := range schemaMaps {
		m, _ := obj[k].(map[string]any)
		for _, sub := range m {
			if msg := portable(sub, depth+1); msg != "" {
				return msg
			}
		}
	}
	for _, k := range schemaLists {
		l, _ := obj[k].([]any)
		for _, sub := range l {
			if msg := portable(sub, depth+1); msg != "" {
				return msg
			}
		}
	}
	for _, k := range schemaOnes {
		if sub, ok := obj[k]; ok {
			if msg := portable(sub, depth+1); msg != "" {
				return msg
			}
		}
	}
	return ""
}
