package contract

import (
	"bytes"
	"encoding/json"
	"errors"
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
//
// The model-visible schema is canonical (RFC 8785) but for one thing:
// the members of every "properties" object follow the order of the
// sibling "required" array, which is the Go declaration order of the
// struct's fields. RFC 8785 sorts members by name, and strict
// structured-output modes generate an object's members in the order its
// properties are written, so a canonical schema would make the model
// write "answer" before "cites". The order is fixed by the Go types, so
// the bytes are still deterministic and pinned by their digest; they
// differ from the canonical form only in member order, which Define
// checks.

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
	var ordered bytes.Buffer
	if err := declarationOrder(raw, &ordered, 0); err != nil {
		return nil, &Error{Code: CodeSchemaGeneration, Message: "the model-visible schema cannot be put in declaration order", Schema: id}
	}
	// The reordering may move members, nothing else.
	if again, err := jcs.Transform(ordered.Bytes()); err != nil || !bytes.Equal(again, raw) {
		return nil, &Error{Code: CodeSchemaGeneration, Message: "the ordered model-visible schema is not the canonical one reordered", Schema: id}
	}
	return ordered.Bytes(), nil
}

// declarationOrder writes the canonical JSON value b to w with the
// members of each "properties" object in the order of its sibling
// "required" array (members not named there, which portable refuses
// anyway, keep their canonical place after them). Everything else is
// copied byte for byte: member names are re-encoded from their decoded
// strings, which for the ASCII names generated schemas use is exactly
// the canonical encoding (and Define checks the result).
func declarationOrder(b []byte, w *bytes.Buffer, depth int) error {
	if depth > HardMaxDepth {
		return errors.New("too deep")
	}
	b = bytes.TrimSpace(b)
	if len(b) == 0 {
		return errors.New("empty value")
	}
	switch b[0] {
	case '{':
		keys, vals, err := members(b)
		if err != nil {
			return err
		}
		var required []string
		for i, k := range keys {
			if k == "required" {
				_ = json.Unmarshal(vals[i], &required) // not a string array: no order to follow
			}
		}
		w.WriteByte('{')
		for i, k := range keys {
			if i > 0 {
				w.WriteByte(',')
			}
			name, _ := json.Marshal(k)
			w.Write(name)
			w.WriteByte(':')
			if k == "properties" && len(required) > 0 && len(vals[i]) > 0 && vals[i][0] == '{' {
				if err := orderedProperties(vals[i], required, w, depth+1); err != nil {
					return err
				}
				continue
			}
			if err := declarationOrder(vals[i], w, depth+1); err != nil {
				return err
			}
		}
		w.WriteByte('}')
	case '[':
		var items []json.RawMessage
		if err := json.Unmarshal(b, &items); err != nil {
			return err
		}
		w.WriteByte('[')
		for i, v := range items {
			if i > 0 {
				w.WriteByte(',')
			}
			if err := declarationOrder(v, w, depth+1); err != nil {
				return err
			}
		}
		w.WriteByte(']')
	default:
		w.Write(b)
	}
	return nil
}

// orderedProperties writes a "properties" object: the members named in
// required first, in that order, then the rest in their canonical order.
func orderedProperties(b []byte, required []string, w *bytes.Buffer, depth int) error {
	keys, vals, err := members(b)
	if err != nil {
		return err
	}
	order := make([]int, 0, len(keys))
	for _, r := range required {
		if i := slices.Index(keys, r); i >= 0 && !slices.Contains(order, i) {
			order = append(order, i)
		}
	}
	for i := range keys {
		if !slices.Contains(order, i) {
			order = append(order, i)
		}
	}
	w.WriteByte('{')
	for n, i := range order {
		if n > 0 {
			w.WriteByte(',')
		}
		name, _ := json.Marshal(keys[i])
		w.Write(name)
		w.WriteByte(':')
		if err := declarationOrder(vals[i], w, depth+1); err != nil {
			return err
		}
	}
	w.WriteByte('}')
	return nil
}

// members returns an object's member names and raw values in document
// order.
func members(b []byte) ([]string, []json.RawMessage, error) {
	dec := json.NewDecoder(bytes.NewReader(b))
	if _, err := dec.Token(); err != nil {
		return nil, nil, err
	}
	var keys []string
	var vals []json.RawMessage
	for dec.More() {
		tok, err := dec.Token()
		if err != nil {
			return nil, nil, err
		}
		k, ok := tok.(string)
		if !ok {
			return nil, nil, errors.New("member name is not a string")
		}
		var v json.RawMessage
		if err := dec.Decode(&v); err != nil {
			return nil, nil, err
		}
		keys, vals = append(keys, k), append(vals, v)
	}
	return keys, vals, nil
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
