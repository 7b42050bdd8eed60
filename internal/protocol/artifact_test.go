package protocol_test

import (
	"testing"

	"github.com/askplane/askplane/internal/protocol"
)

func sealableArtifact() *protocol.Artifact {
	return &protocol.Artifact{
		ArtifactID: "a", SiteID: "s", GeneratedAt: "2026-07-13T00:00:00.000Z",
		Entries: []protocol.Entry{{
			ID: "e", Kind: protocol.KindCommand, Label: "Install",
			Values: []string{"install", "setup"},
			Answer: protocol.Answer{
				Markdown:  "Run `askplane install`.",
				Citations: []protocol.Citation{{ID: "c", Title: "Install guide", Href: "/docs/install/"}},
			},
		}},
	}
}

// TestSealRejectsInvalidUTF8 checks that an artifact built in Go with a
// string no JavaScript client could hold is refused rather than hashed.
func TestSealRejectsInvalidUTF8(t *testing.T) {
	if _, err := protocol.Seal(sealableArtifact()); err != nil {
		t.Fatalf("valid artifact: %v", err)
	}
	const bad = "bad \xff byte"
	for name, spoil := range map[string]func(a *protocol.Artifact){
		"artifactId":  func(a *protocol.Artifact) { a.ArtifactID = bad },
		"siteId":      func(a *protocol.Artifact) { a.SiteID = bad },
		"generatedAt": func(a *protocol.Artifact) { a.GeneratedAt = "2026-07-13T00:00:00.000Z\xff" },
		"expiresAt":   func(a *protocol.Artifact) { a.ExpiresAt = "2027-07-13T00:00:00.000Z\xff" },
		"id":          func(a *protocol.Artifact) { a.Entries[0].ID = bad },
		"kind":        func(a *protocol.Artifact) { a.Entries[0].Kind = bad },
		"label":       func(a *protocol.Artifact) { a.Entries[0].Label = bad },
		"value":       func(a *protocol.Artifact) { a.Entries[0].Values[1] = bad },
		"value-tail":  func(a *protocol.Artifact) { a.Entries[0].Values[1] = "setup\xc3" },
		"markdown":    func(a *protocol.Artifact) { a.Entries[0].Answer.Markdown = bad },
		"citation-id": func(a *protocol.Artifact) { a.Entries[0].Answer.Citations[0].ID = bad },
		"title":       func(a *protocol.Artifact) { a.Entries[0].Answer.Citations[0].Title = bad },
		"href":        func(a *protocol.Artifact) { a.Entries[0].Answer.Citations[0].Href = "/docs/\xff/" },
	} {
		a := sealableArtifact()
		spoil(a)
		if _, err := protocol.Seal(a); protocol.CodeOf(err) != protocol.CodeInvalidPayload {
			t.Errorf("%s: Seal = %v, want INVALID_PAYLOAD", name, err)
		}
	}
}
