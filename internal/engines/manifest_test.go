package engines

import (
	"bytes"
	"flag"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/askplane/askplane/internal/corpus"
	"github.com/askplane/askplane/internal/evidence"
)

var update = flag.Bool("update", false, "rewrite the committed manifests from the sources on disk")

// moduleRoot is the module's root folder, where manifest paths start.
const moduleRoot = "../.."

// TestManifestsMatchSources recomputes every retained engine's manifest
// from its files as they are on disk (the files this binary was compiled
// from) and compares it, byte for byte, with the committed one. Changing
// an engine's code without a new engine fails here; see the package doc
// for when -update is honest.
func TestManifestsMatchSources(t *testing.T) {
	for _, e := range All() {
		m, err := Compute(os.DirFS(moduleRoot), e.ID, e.Sources)
		if err != nil {
			t.Fatal(err)
		}
		path := ManifestFile(e.ID)
		if *update {
			if err := os.WriteFile(filepath.FromSlash(path), m.Encode(), 0o644); err != nil {
				t.Fatal(err)
			}
			continue
		}
		committed, err := manifests.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		if !bytes.Equal(committed, m.Encode()) {
			var changed []string
			old, _ := decodeManifest(committed)
			for i, f := range m.Files {
				if i >= len(old.Files) || old.Files[i] != f {
					changed = append(changed, f.Path)
				}
			}
			t.Errorf("%s: its sources differ from %s (changed: %s; unicode %s, committed %s).\n"+
				"A change to what the engine returns needs a new engine (see the package doc); "+
				"one proven byte-neutral may run go test ./internal/engines -update.",
				e.ID, path, strings.Join(changed, ", "), m.Unicode, old.Unicode)
		}
		if e.Digest() != m.Digest() && !*update {
			t.Errorf("%s: digest %s, recomputed %s", e.ID, e.Digest(), m.Digest())
		}
	}
}

// The digest is the SHA-256 of the manifest's RFC 8785 form, so it does
// not depend on the committed file's indentation, and any field change
// changes it.
func TestDigestIsOverTheCanonicalManifest(t *testing.T) {
	e := Current()
	m := e.Manifest()
	if !strings.HasPrefix(e.Digest(), "sha256:") || len(e.Digest()) != 71 {
		t.Fatalf("digest %q", e.Digest())
	}
	compact := m
	compact.Files = append([]File(nil), m.Files...)
	compact.Files[0].Bytes++
	if compact.Digest() == e.Digest() {
		t.Fatal("changing a file's length left the digest unchanged")
	}
	other := m
	other.Engine = "askplane.other/1"
	if other.Digest() == e.Digest() {
		t.Fatal("changing the engine id left the digest unchanged")
	}
}

// The registry refuses duplicates, too many engines and manifests that
// name other files, so a binary cannot start with a catalogue it does not
// prove.
func TestRegistryRefusesInconsistentEngines(t *testing.T) {
	dup := []*Engine{Current(), Current()}
	if load(dup) == nil {
		t.Error("two engines with one id loaded")
	}
	if load(nil) == nil {
		t.Error("an empty registry loaded")
	}
	index := func(*corpus.Corpus) evidence.Engine { return nil }
	seven := []*Engine{{ID: "a", Index: index}, {ID: "b", Index: index}, {ID: "c", Index: index}, {ID: "d", Index: index}, {ID: "e", Index: index}, {ID: "f", Index: index}, {ID: "g", Index: index}}
	if err := load(seven); err == nil || !strings.Contains(err.Error(), "retain 1 to 6") {
		t.Errorf("seven engines: %v", err)
	}
	moved := *Current()
	moved.Sources = append([]string{"internal/evidence/doc.go"}, moved.Sources[1:]...)
	if load([]*Engine{&moved}) == nil {
		t.Error("an engine whose sources differ from its manifest's loaded")
	}
	unknown := *Current()
	unknown.ID = "askplane.unknown/1"
	if load([]*Engine{&unknown}) == nil {
		t.Error("an engine without a committed manifest loaded")
	}
	if err := Check(); err != nil {
		t.Errorf("the committed registry does not load: %v", err)
	}
	if got := Catalogue(); len(got) != len(All()) || got[0].Engine != Current().ID || got[0].ManifestDigest != Current().Digest() {
		t.Errorf("catalogue %+v", got)
	}
	if e, ok := Lookup(Current().ID); !ok || e != Current() {
		t.Error("Lookup does not find the current engine")
	}
	if _, ok := Lookup("askplane.none/9"); ok {
		t.Error("Lookup found an engine that is not retained")
	}
}
