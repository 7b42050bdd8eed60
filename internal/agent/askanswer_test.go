package agent

import (
	"bytes"
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
	askInputDigest  = "sha256:cd6d6b23f390166441a650f38c800617c3c0db24bfd0621a3da45a4da8bd4c4c"
	askOutputDigest = "sha256:8e91467df40f16177a238c10cc3c8748b448d8d5dd8c85604af3b6c8bcec4165"
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
		if c.ref.ID != c.id || c.ref.Version != 1 {
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
