package protocol

import "github.com/askplane/askplane/internal/ecmajson"

// FallbackMode says whether a site lets the widget escalate to the Ask
// backend. With FallbackDisabled the backend is never called.
type FallbackMode string

const (
	FallbackBackend  FallbackMode = "backend"
	FallbackDisabled FallbackMode = "disabled"
)

// SiteConfig is an agentskit.chat.site v1 document: the trust anchor that
// pins the artifact's content hash and site id. It has no expiry of its own;
// staleness lives only in the artifact's expiresAt.
type SiteConfig struct {
	SiteID   string
	Artifact ArtifactRef
	Fallback FallbackMode
}

// ArtifactRef locates the knowledge artifact and pins its content hash.
type ArtifactRef struct {
	Href        string
	ContentHash string
}

// Trust is what a verifier takes from a trusted site config.
type Trust struct {
	ContentHash string
	SiteID      string
}

// Trust returns the anchors the artifact must match.
func (s *SiteConfig) Trust() Trust {
	return Trust{ContentHash: s.Artifact.ContentHash, SiteID: s.SiteID}
}

// DecodeSiteConfig decodes an agentskit.chat.site v1 document. The byte
// limit is checked before parsing. Unknown members are stripped.
func DecodeSiteConfig(data []byte) (*SiteConfig, error) {
	if len(data) > MaxSiteConfigBytes {
		return nil, limitExceeded()
	}
	root, ok := ecmajson.Parse(data)
	if !ok {
		return nil, invalidJSON()
	}
	if diag := header(&root, SiteProtocol); diag != nil {
		return nil, diag
	}
	var d decoder
	s := &SiteConfig{SiteID: d.identifier(d.field(&root, "siteId"))}
	art := d.object(d.field(&root, "artifact"))
	s.Artifact.Href = d.href(d.field(art, "href"))
	s.Artifact.ContentHash = d.contentHash(d.field(art, "contentHash"))
	fb := d.object(d.field(&root, "fallback"))
	s.Fallback = FallbackMode(d.oneOf(d.field(fb, "mode"), string(FallbackBackend), string(FallbackDisabled)))
	if d.failed {
		return nil, invalid()
	}
	return s, nil
}

// MarshalJSON writes the site config in the protocol's key order.
func (s *SiteConfig) MarshalJSON() ([]byte, error) {
	var w ecmajson.Writer
	writeHeader(&w, SiteProtocol)
	w.StringMember("siteId", s.SiteID)
	w.Key("artifact")
	w.BeginObject()
	w.StringMember("href", s.Artifact.Href)
	w.StringMember("contentHash", s.Artifact.ContentHash)
	w.EndObject()
	w.Key("fallback")
	w.BeginObject()
	w.StringMember("mode", string(s.Fallback))
	w.EndObject()
	w.EndObject()
	return w.Bytes(), nil
}
