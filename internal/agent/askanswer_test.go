package agent

import (
	"bytes"
	"encoding/json"
	"flag"
	"os"
	"path/filepath"
	"testing"
)

var update = flag.Bool("update", false, "rewrite testdata/*.json golden schemas")

// The Ask answer contract's schemas, pinned. A change to AskInput,
// AskRecord or AskOutput (a tag, a field, a bound) changes these digests
// and the committed documents under testdata/, so the change shows up as
// a reviewed diff. Regenerate with: go test ./internal/agent -run
// TestAskAnswerSchemasArePinned -update, then update the digests below
// and bump AskAnswerMetadata.Version when the contract changed meaning.
const (
	askInputDigest  = "sha256:b45aad06ecd7a80ed18b14b4defab77c04b2c2280a5c5f022630078ca089cbcb"
	askOutputDigest = "sha256:8e91467df40f16177a238c10cc3c8748b448d8d5dd8c85604af3b6c8bcec4165"
	askModelDigest  = "sha256:4d047fb9f9343fedf7fa7bd0cd6e8979fd6e5b9745a44e2df5598780a9547b51" // model-visible output schema
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
		{"ask-answer.input.json", "urn:askplane:ask-answer:input:1", askInputDigest, d.InputRef(), d.InputSchema()},
		{"ask-answer.output.json", "urn:askplane:ask-answer:output:1", askOutputDigest, d.OutputRef(), d.OutputSchema()},
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
		if c.id != "" && (c.ref.ID != c.id || c.ref.Version != 1) {
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
