package generate

import (
	"testing"

	"github.com/askplane/askplane/internal/durable"
)

// A model's Identity is what durable runs store and compare as
// durable.Snapshot: assignable to it, and digested the same way, so runs
// admitted before generators stopped importing internal/durable still resume.
func TestIdentityIsRunSnapshot(t *testing.T) {
	id := Identity{Agent: digest([]byte("askplane.ask/1")), Tool: "sha256:tools"}
	var snap durable.Snapshot = id
	if snap.Agent != durable.Digest([]byte("askplane.ask/1")) || snap.Tool != "sha256:tools" {
		t.Errorf("snapshot %+v", snap)
	}
	for _, b := range [][]byte{nil, []byte("x"), []byte("a\x00b")} {
		if digest(b) != durable.Digest(b) {
			t.Errorf("digest(%q) = %s, run.Digest = %s", b, digest(b), durable.Digest(b))
		}
	}
}
