package contract

import (
	"encoding/json"
	"slices"
	"testing"
)

type closedIn struct {
	Name     string   `json:"name"`
	Optional string   `json:"optional,omitempty"`
	Tags     []string `json:"tags"`
	Nested   inner    `json:"nested"`
	Hidden   string   `json:"-"`
}

type inner struct {
	N int `json:"n"`
}

type closedOut struct {
	OK bool `json:"ok"`
}

// Schemas follow encoding/json: names from tags, omitempty optional,
// "-" absent, every object closed, the root expanded, $id injected.
func TestDefineGeneratesClosedDraft202012Schemas(t *testing.T) {
	d, err := Define[closedIn, closedOut](Metadata{Name: "closed", Version: 3}, testModel, "be brief", Limits{})
	if err != nil {
		t.Fatal(err)
	}
	var s struct {
		Schema     string                     `json:"$schema"`
		ID         string                     `json:"$id"`
		Type       string                     `json:"type"`
		Additional *bool                      `json:"additionalProperties"`
		Required   []string                   `json:"required"`
		Properties map[string]json.RawMessage `json:"properties"`
		Defs       map[string]struct {
			Additional *bool `json:"additionalProperties"`
		} `json:"$defs"`
	}
	if err := json.Unmarshal(d.InputSchema(), &s); err != nil {
		t.Fatal(err)
	}
	if s.Schema != Dialect || s.ID != "urn:askplane:closed:input:3" || s.Type != "object" {
		t.Errorf("root: %+v", s)
	}
	if s.Additional == nil || *s.Additional {
		t.Error("root is not closed")
	}
	if def, ok := s.Defs["inner"]; !ok || def.Additional == nil || *def.Additional {
		t.Errorf("nested struct not a closed $def: %+v", s.Defs)
	}
	slices.Sort(s.Required)
	if !slices.Equal(s.Required, []string{"name", "nested", "tags"}) {
		t.Errorf("required %v", s.Required)
	}
	if _, ok := s.Properties["Hidden"]; ok || len(s.Properties) != 4 {
		t.Errorf("properties %v", s.Properties)
	}
	if d.InputRef().ID == d.OutputRef().ID || d.OutputRef().ID != "urn:askplane:closed:output:3" {
		t.Errorf("refs %+v %+v", d.InputRef(), d.OutputRef())
	}
	if d.InputRef().Version != 3 || d.InputRef().Digest != digestOf(d.InputSchema()) {
		t.Errorf("input ref %+v", d.InputRef())
	}
	// Defining twice gives the same bytes: the digest is a function of
	// the types alone.
	d2, _ := Define[closedIn, closedOut](Metadata{Name: "closed", Version: 3}, ModelDescriptor{Model: "other", MaxOutputTokens: 5}, "other", Limits{})
	if d2.InputRef() != d.InputRef() || d2.OutputRef() != d.OutputRef() {
		t.Error("digests depend on more than the types")
	}
}

func TestDefineRejectsBadContracts(t *testing.T) {
	meta := Metadata{Name: "ok", Version: 1}
	for name, f := range map[string]func() error{
		"name": func() error {
			_, err := Define[closedIn, closedOut](Metadata{Name: "Bad.Name", Version: 1}, testModel, "x", Limits{})
			return err
		},
		"version": func() error {
			_, err := Define[closedIn, closedOut](Metadata{Name: "ok"}, testModel, "x", Limits{})
			return err
		},
		"model": func() error {
			_, err := Define[closedIn, closedOut](meta, ModelDescriptor{MaxOutputTokens: 1}, "x", Limits{})
			return err
		},
		"model not ascii": func() error {
			_, err := Define[closedIn, closedOut](meta, ModelDescriptor{Model: "modèle", MaxOutputTokens: 1}, "x", Limits{})
			return err
		},
		"tokens": func() error {
			_, err := Define[closedIn, closedOut](meta, ModelDescriptor{Model: "m", MaxOutputTokens: HardMaxOutputTokens + 1}, "x", Limits{})
			return err
		},
		"instructions": func() error {
			_, err := Define[closedIn, closedOut](meta, testModel, "", Limits{})
			return err
		},
		"limits": func() error {
			_, err := Define[closedIn, closedOut](meta, testModel, "x", Limits{Output: JSONLimits{MaxDepth: HardMaxDepth + 1}})
			return err
		},
	} {
		t.Run(name, func(t *testing.T) { wantCode(t, f(), CodeDefinitionInvalid) })
	}
	_, err := Define[string, closedOut](meta, testModel, "x", Limits{})
	wantCode(t, err, CodeSchemaGeneration)
	_, err = Define[closedIn, []string](meta, testModel, "x", Limits{})
	wantCode(t, err, CodeSchemaGeneration)
}
