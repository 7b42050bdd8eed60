package generate

import (
	"testing"

	"github.com/askplane/askplane/internal/run"
)

// A model's Identity is what durable runs store and compare as
// run.Snapshot: assignable to it, and digested the same way, so runs
// admitted before generators stopped importing internal/run still resume.
func TestIdentityIsRunSnapshot(t *testing.T) {
	id := Identity{Agent: digest([]byte("askplane.ask/1")), Tool: "sha256:tools"}
	var snap run.Snapshot = id
	if snap.Agent != run.Digest([]byte("askplane.ask/1")) || snap.Tool != "sha256:tools" {
		t.Errorf("snapshot %+v", snap)
	}
	for _, b := range [][]byte{nil, []byte("x"), []byte("a\x00b")} {
		if digest(b) != run.Digest(b) {
			t.Errorf("digest(%q) = %s, run.Digest = %s", b, digest(b), run.Digest(b))
		}
	}
}
