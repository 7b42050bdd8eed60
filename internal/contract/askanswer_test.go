package contract

import (
	"bytes"
	"encoding/json"
	"flag"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

var update = flag.Bool("update", false, "rewrite testdata/*.json golden schemas")

// The Ask answer contract's schemas, pinned. A change to AskInput,
// AskRecord or AskOutput (a tag, a field, a bound) changes these digests
// and the committed documents under testdata/, so the change shows up as
// a reviewed diff. Regenerate with: go test ./internal/contract -run
// TestAskAnswerSchemasArePinned -update, then update the digests below
// and bump AskAnswerMetadata.Version when the contract changed meaning.
const (
	askInputDigest  = "sha256:ab9e7676977445ee6612a54afe60610523a66799bed5ec4585b01a14a6053d75"
	askOutputDigest = "sha256:7c144c253d3bba4e01b91a21bd9378d9b11c06d72e3d2afd23bfeb07e8f71704"
	askModelDigest  = "sha256:5f4537a966607513c66736b4470c333e4153b704eaee454eddf527e5c168493e" // model-visible output schema, cites before answer
)

func TestAskAnswerSchemasArePinned(t *testing.T) {
	d, err := DefineAskAnswer(ModelDescriptor{Model: "test-model", MaxOutputTokens: 1024})
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		file, id, digest string
		ref              SchemaRef
		doc              []byte
	}{
		{"ask-answer.input.json", "urn:askplane:ask-answer:input:2", askInputDigest, d.InputRef(), d.InputSchema()},
		{"ask-answer.output.json", "urn:askplane:ask-answer:output:2", askOutputDigest, d.OutputRef(), d.OutputSchema()},
		{"ask-answer.output.model.json", "", askModelDigest, SchemaRef{Digest: digestOf(d.ModelSchema())}, d.ModelSchema()},
	} {
		path := filepath.Join("testdata", c.file)
		if *update {
			if err := os.WriteFile(path, append(bytes.Clone(c.doc), '\n'), 0o644); err != nil {
				t.Fatal(err)
			}
		}
		want, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		if got := append(bytes.Clone(c.doc), '\n'); !bytes.Equal(got, want) {
			t.Errorf("%s is stale; the generated schema is now:\n%s", path, got)
		}
		if c.id != "" && (c.ref.ID != c.id || c.ref.Version != 2) {
			t.Errorf("%s: ref %+v", c.file, c.ref)
		}
		if c.ref.Digest != c.digest {
			t.Errorf("%s: digest %s, pinned %s", c.file, c.ref.Digest, c.digest)
		}
		if digestOf(bytes.TrimSuffix(want, []byte("\n"))) != c.ref.Digest {
			t.Errorf("%s: the committed document does not hash to the reference digest", c.file)
		}
	}
}

// The model is shown "cites" before "answer", so a strict structured-output
// mode writes the citations first (internal/generate streams on that).
func TestAskModelSchemaPutsCitesFirst(t *testing.T) {
	d, err := DefineAskAnswer(testModel)
	if err != nil {
		t.Fatal(err)
	}
	for name, doc := range map[string][]byte{"model-visible": d.ModelSchema(), "output": d.OutputSchema()} {
		var s struct{ Required []string }
		if err := json.Unmarshal(doc, &s); err != nil {
			t.Fatal(err)
		}
		if len(s.Required) != 2 || s.Required[0] != "cites" || s.Required[1] != "answer" {
			t.Errorf("%s schema: required %v", name, s.Required)
		}
	}
	visible := string(d.ModelSchema())
	if c, a := strings.Index(visible, `"cites":{`), strings.Index(visible, `"answer":{`); c < 0 || a < 0 || c > a {
		t.Errorf("model-visible schema does not list cites before answer: %s", visible)
	}
}

// The AskMax* constants that callers truncate to are the bounds in the
// struct tags.
func TestAskBoundsMatchTheSchemas(t *testing.T) {
	d, err := DefineAskAnswer(testModel)
	if err != nil {
		t.Fatal(err)
	}
	type str struct {
		MaxLength int `json:"maxLength"`
		MaxItems  int `json:"maxItems"`
		Items     struct {
			MaxLength int `json:"maxLength"`
		} `json:"items"`
	}
	var in struct {
		Properties struct{ Question, Records str }
		Defs       struct {
			AskRecord struct{ Properties struct{ ID, Title, Text str } }
		} `json:"$defs"`
	}
	var out struct{ Properties struct{ Answer, Cites str } }
	if err := json.Unmarshal(d.InputSchema(), &in); err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal(d.OutputSchema(), &out); err != nil {
		t.Fatal(err)
	}
	rec := in.Defs.AskRecord.Properties
	for _, c := range []struct {
		name      string
		got, want int
	}{
		{"question", in.Properties.Question.MaxLength, AskMaxQuestionLen},
		{"records", in.Properties.Records.MaxItems, AskMaxRecords},
		{"id", rec.ID.MaxLength, AskMaxRecordIDLen},
		{"title", rec.Title.MaxLength, AskMaxTitleLen},
		{"text", rec.Text.MaxLength, AskMaxTextLen},
		{"answer", out.Properties.Answer.MaxLength, AskMaxAnswerLen},
		{"cites", out.Properties.Cites.MaxItems, AskMaxRecords},
		{"cite", out.Properties.Cites.Items.MaxLength, AskMaxRecordIDLen},
	} {
		if c.got != c.want {
			t.Errorf("%s: schema bound %d, constant %d", c.name, c.got, c.want)
		}
	}
}
