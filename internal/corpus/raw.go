package corpus

import (
	"context"
	"io/fs"

	"github.com/askplane/askplane/internal/baseurl"
	"github.com/askplane/askplane/internal/protocol"
)

// LoadDirRaw is LoadDir that also returns the corpus file's exact bytes,
// the ones that hash to c.Version. A sidecar retains them so the evidence
// of an answer can be rebuilt from this version after the site has moved
// on (internal/store's sources, internal/replay); any holder can check
// them again with ContentHash.
func LoadDirRaw(fsys fs.FS, lang string) (c *Corpus, raw []byte, err error) {
	m, file, err := readManifest(fsys, lang)
	if err != nil {
		return nil, nil, err
	}
	data, err := readBounded(fsys, file, MaxCorpusBytes)
	if err != nil {
		return nil, nil, err
	}
	c, err = Load(data, m.Corpus.ContentHash)
	if err != nil {
		return nil, nil, err
	}
	if c.SiteID != m.SiteID || c.Language != lang {
		return nil, nil, fail(CodeInvalid, "the corpus's siteId or language differs from its manifest's")
	}
	return c, data, nil
}

// ManifestSiteID is the siteId the language's manifest in a built site
// declares, read and checked as LoadDir reads it, without reading or
// decoding the corpus (LoadDir still checks the corpus agrees).
func ManifestSiteID(fsys fs.FS, lang string) (string, error) {
	m, _, err := readManifest(fsys, lang)
	return m.SiteID, err
}

// readManifest reads and checks askplane/<lang>/manifest.json and returns
// it with the path of the corpus file it pins.
func readManifest(fsys fs.FS, lang string) (manifest, string, error) {
	if !protocol.ValidIdentifier(lang) {
		return manifest{}, "", fail(CodeManifest, "the language is not a SafeIdentifier")
	}
	dir := "askplane/" + lang
	data, err := readBounded(fsys, dir+"/manifest.json", MaxManifestBytes)
	if err != nil {
		return manifest{}, "", err
	}
	return decodeManifest(data, lang, dir)
}

// FetchRaw loads the corpus of one language from a published site, for a
// sidecar that runs apart from the static host: it GETs
// <base>/askplane/<lang>/manifest.json and the corpus file it names, with
// the same bounds and checks as LoadDir. The corpus is trusted only
// because its bytes hash to what the manifest pins.
//
// base must pass baseurl.Parse, the rule the model providers' base URLs
// follow too: https, or plain http to a literal loopback address only
// (tests, a local preview). Redirects are refused, not followed, and each
// file has its own timeout within ctx. It also returns the corpus file's
// exact bytes, as LoadDirRaw does.
func FetchRaw(ctx context.Context, base string, lang string) (*Corpus, []byte, error) {
	u, err := baseurl.Parse(base)
	if err != nil {
		return nil, nil, fail(CodeRead, "the corpus URL "+err.Error())
	}
	return LoadDirRaw(&httpFS{ctx: ctx, base: u, client: fetchClient}, lang)
}
