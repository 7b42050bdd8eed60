package askrun

import (
	"encoding/json"
	"testing"

	"github.com/askplane/askplane/internal/provider"
)

// The tool snapshot digest moves with MaxRounds and with every offered
// tool's name, description and schema, so a run admitted under one tool
// set is not resumed under another.
func TestToolsDigestIsTheToolSnapshot(t *testing.T) {
	if (*Tools)(nil).digest() != "" {
		t.Fatal("no tools must have no tool digest")
	}
	three := (&Tools{MaxRounds: 3}).digest()
	if three == (&Tools{MaxRounds: 2}).digest() || three != (&Tools{MaxRounds: 3}).digest() {
		t.Fatal("the digest does not follow MaxRounds")
	}
	saved := loopTools
	defer func() { loopTools = saved }()
	for _, change := range []func(*provider.Tool){
		func(t *provider.Tool) { t.Name = "search_site" },
		func(t *provider.Tool) { t.Description += " More." },
		func(t *provider.Tool) { t.Parameters = json.RawMessage(`{"type":"object"}`) },
	} {
		loopTools = append([]provider.Tool(nil), saved...)
		change(&loopTools[0])
		if (&Tools{MaxRounds: 3}).digest() == three {
			t.Fatalf("a changed tool kept the digest: %+v", loopTools[0])
		}
	}
}
