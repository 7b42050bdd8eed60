package corpus

import (
	"encoding/json"
	"path"
	"strings"

	"github.com/askplane/askplane/internal/protocol"
)

// manifest is the part of askplane.manifest v1 the backend needs: which
// corpus file the build published and the hash it pinned. The artifact and
// sources are the widget's and verify's business.
type manifest struct {
	Protocol string `json:"protocol"`
	Version  int    `json:"version"`
	SiteID   string `json:"siteId"`
	Language string `json:"language"`
	Corpus   *struct {
		Href        string `json:"href"`
		ContentHash string `json:"contentHash"`
	} `json:"corpus"`
}

// decodeManifest checks the header and returns the corpus file's path
// inside the language folder dir. The href must name a file directly in
// that folder: a manifest is build output, but following "../" in it would
// let one language (or a tampered folder) point at any file.
func decodeManifest(data []byte, lang, dir string) (m manifest, file string, err error) {
	if err := json.Unmarshal(data, &m); err != nil {
		return m, "", fail(CodeManifest, "the manifest is not valid JSON")
	}
	switch {
	case m.Protocol != ManifestProtocol:
		return m, "", fail(CodeManifest, "protocol must be "+ManifestProtocol)
	case m.Version != ManifestVersion:
		return m, "", fail(CodeUnsupported, "the manifest version is not 1")
	case m.Language != lang:
		return m, "", fail(CodeManifest, "the manifest's language is not the folder's")
	case !protocol.ValidIdentifier(m.SiteID):
		return m, "", fail(CodeManifest, "siteId is not a SafeIdentifier")
	case m.Corpus == nil:
		return m, "", fail(CodeMissing, "the site was built without a corpus (set corpus = true or fallback = \"backend\")")
	case !protocol.ValidContentHash(m.Corpus.ContentHash):
		return m, "", fail(CodeManifest, "corpus.contentHash is not sha256: and 64 lowercase hex digits")
	}
	href := strings.TrimPrefix(m.Corpus.Href, "/")
	name := path.Base(href)
	if href != dir+"/"+name || !strings.HasPrefix(name, "corpus.") || !strings.HasSuffix(name, ".json") {
		return m, "", fail(CodeManifest, "corpus.href must name a corpus.<hash>.json file in the manifest's own folder")
	}
	return m, href, nil
}
