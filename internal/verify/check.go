package verify

import (
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"io/fs"
	"path"

	"github.com/askplane/askplane/internal/protocol"
)

// Protocol names of the documents verify reads.
const (
	siteProtocol      = "agentskit.chat.site"
	knowledgeProtocol = "agentskit.chat.knowledge"
	manifestProtocol  = "askplane.manifest"
	corpusProtocol    = "askplane.corpus"
)

// checker verifies one language's outputs and collects its problems.
type checker struct {
	fsys         fs.FS
	lang         Language
	dir          string // askplane/<lang>
	manifestPath string
	base         string // the site's base path, "/" unless baseURL has one
	problems     []Problem
}

func (c *checker) add(p Problem) {
	c.problems = append(c.problems, p)
	if p.Warning {
		c.lang.Warnings++
	} else {
		c.lang.Errors++
	}
}

// manifest is askplane.manifest v1.
type manifest struct {
	siteID, language, site string
	artifact, corpus       ref
	hasCorpus              bool // a site without an Ask backend has no corpus
	sources                map[string]string
}

type ref struct{ href, contentHash string }

func (c *checker) run(manifestPath string) {
	c.manifestPath = manifestPath
	m := c.manifest()
	if m == nil {
		return
	}
	c.lang.SiteID = m.siteID
	c.base = basePath(m.site, c.lang.Lang)
	sitePath, siteOK := c.resolve("site", m.site)
	artifactPath, artifactOK := c.resolve("artifact.href", m.artifact.href)
	corpusPath, corpusOK := "", false
	if m.hasCorpus {
		corpusPath, corpusOK = c.resolve("corpus.href", m.corpus.href)
	}

	var site *protocol.SiteConfig
	if siteOK {
		site = c.site(sitePath, m)
	}
	// The trust anchor is the site config's; when it cannot be read, the
	// manifest's copy still lets the artifact be explained.
	var trust *protocol.Trust
	switch {
	case site != nil:
		t := site.Trust()
		trust = &t
	case validHash(m.artifact.contentHash) && protocol.ValidIdentifier(m.siteID):
		trust = &protocol.Trust{ContentHash: m.artifact.contentHash, SiteID: m.siteID}
	}
	if artifactOK {
		c.artifact(artifactPath, m, trust)
	}
	if !m.hasCorpus && site != nil && site.Fallback == protocol.FallbackBackend {
		c.add(Problem{Code: "corpus.missing", Source: c.manifestPath, Warning: true,
			Message: "fallback is backend but the build published no corpus, so the sidecar has no pages to answer from (params.askplane.corpus is false)"})
	}
	if corpusOK {
		c.corpus(corpusPath, m)
	}
}

// manifest reads and decodes the manifest. It returns nil when the
// language cannot be checked further.
func (c *checker) manifest() *manifest {
	data := c.output(c.manifestPath, "the language folder", MaxManifestBytes, "manifest.too-large", "")
	if data == nil {
		return nil
	}
	bad := func(format string, args ...any) {
		c.add(Problem{Code: "manifest.invalid", Source: c.manifestPath, Message: fmt.Sprintf(format, args...)})
	}
	v, err := parseJSON(data)
	if err != nil {
		bad("the manifest is not valid JSON: %v", err)
		return nil
	}
	o, ok := v.(map[string]any)
	if !ok {
		bad("the manifest must be a JSON object, not %s", describe(v))
		return nil
	}
	if why := header(o, manifestProtocol); why != "" {
		bad("%s", why)
		return nil
	}
	m := &manifest{sources: map[string]string{}}
	str := func(o map[string]any, key, where string) (string, bool) {
		s, ok := o[key].(string)
		if !ok {
			bad("%s%s must be a string, not %s", where, key, describe(o[key]))
		}
		return s, ok
	}
	usable := true
	if id, ok := str(o, "siteId", ""); ok {
		m.siteID = id
		if !protocol.ValidIdentifier(id) {
			bad("siteId %q is not a valid identifier (1–128 ASCII letters, digits, '.', '_', ':' or '-')", id)
		}
	}
	if lang, ok := str(o, "language", ""); ok {
		m.language = lang
		if lang != c.lang.Lang {
			bad("language %q differs from the folder it is in, %s", lang, c.dir)
		}
	}
	if s, ok := str(o, "site", ""); ok {
		m.site = s
	} else {
		usable = false
	}
	_, m.hasCorpus = o["corpus"]
	refs := []struct {
		key string
		ref *ref
	}{{"artifact", &m.artifact}}
	if m.hasCorpus {
		refs = append(refs, struct {
			key string
			ref *ref
		}{"corpus", &m.corpus})
	}
	for _, r := range refs {
		ro, ok := o[r.key].(map[string]any)
		if !ok {
			bad("%s must be an object {href, contentHash}, not %s", r.key, describe(o[r.key]))
			usable = false
			continue
		}
		if h, ok := str(ro, "href", r.key+"."); ok {
			r.ref.href = h
		} else {
			usable = false
		}
		if h, ok := str(ro, "contentHash", r.key+"."); ok {
			r.ref.contentHash = h
			if !validHash(h) {
				bad("%s.contentHash %q is not sha256: and 64 lowercase hex digits", r.key, h)
			}
		}
	}
	switch src := o["sources"].(type) {
	case map[string]any:
		for id, s := range src {
			if s, ok := s.(string); ok {
				m.sources[id] = s
			} else {
				bad("sources[%q] must be a string (the fact's source file), not %s", id, describe(s))
			}
		}
	default:
		bad("sources must be an object mapping each fact id to its source file, not %s", describe(src))
	}
	if list, ok := o["notes"].([]any); ok {
		for _, item := range list {
			n, _ := item.(map[string]any)
			code, _ := n["code"].(string)
			fact, _ := n["fact"].(string)
			msg, _ := n["message"].(string)
			if code == "" || len(c.lang.Notes) == MaxNotes {
				continue
			}
			c.lang.Notes = append(c.lang.Notes, Note{Code: code, Fact: fact, Message: msg})
		}
	}
	if !usable {
		return nil
	}
	return m
}

// site reads and decodes the site config and compares it with the
// manifest. It returns nil when the site config does not decode.
func (c *checker) site(name string, m *manifest) *protocol.SiteConfig {
	data := c.output(name, "the manifest's site", protocol.MaxSiteConfigBytes, "site.too-large", "")
	if data == nil {
		return nil
	}
	s, err := protocol.DecodeSiteConfig(data)
	if err != nil {
		c.explainSite(name, data, err)
		return nil
	}
	c.lang.Fallback = string(s.Fallback)
	mismatch := func(format string, args ...any) {
		c.add(Problem{Code: "site.mismatch", Source: name,
			Message: fmt.Sprintf(format, args...) + ": site.json and the manifest come from different builds; rebuild and deploy the whole folder"})
	}
	if s.SiteID != m.siteID {
		mismatch("siteId %q differs from the manifest's %q", s.SiteID, m.siteID)
	}
	if s.Artifact.Href != m.artifact.href {
		mismatch("artifact.href %q differs from the manifest's %q", s.Artifact.Href, m.artifact.href)
	}
	if s.Artifact.ContentHash != m.artifact.contentHash {
		mismatch("artifact.contentHash %s differs from the manifest's %s", s.Artifact.ContentHash, m.artifact.contentHash)
	}
	if s.Fallback == "backend" {
		c.add(Problem{Code: "site.fallback.unchecked", Source: name, Warning: true,
			Message: "fallback is backend: questions without an exact local answer go to the Ask endpoint, which askplane verify cannot check; make sure the sidecar is deployed and serves it"})
	}
	return s
}

// explainSite names what DecodeSiteConfig rejected.
func (c *checker) explainSite(name string, data []byte, err error) {
	n := len(c.problems)
	bad := func(format string, args ...any) {
		c.add(Problem{Code: "site.invalid", Source: name, Message: fmt.Sprintf(format, args...)})
	}
	v, jerr := parseJSON(data)
	o, isObject := v.(map[string]any)
	switch {
	case jerr != nil:
		bad("site.json is not valid JSON: %v", jerr)
	case !isObject:
		bad("site.json must be a JSON object, not %s", describe(v))
	default:
		if why := header(o, siteProtocol); why != "" {
			bad("%s", why)
			break
		}
		if id, ok := o["siteId"].(string); !ok || !protocol.ValidIdentifier(id) {
			bad("siteId must be a valid identifier (1–128 ASCII letters, digits, '.', '_', ':' or '-'), not %s", describe(o["siteId"]))
		}
		if a, ok := o["artifact"].(map[string]any); !ok {
			bad("artifact must be an object {href, contentHash}, not %s", describe(o["artifact"]))
		} else {
			if h, ok := a["href"].(string); !ok || !protocol.ValidHref(h) {
				bad("artifact.href must be a safe href (root-relative or http(s)), not %s", describe(a["href"]))
			}
			if h, ok := a["contentHash"].(string); !ok || !validHash(h) {
				bad("artifact.contentHash must be sha256: and 64 lowercase hex digits, not %s", describe(a["contentHash"]))
			}
		}
		if f, ok := o["fallback"].(map[string]any); !ok {
			bad("fallback must be an object {mode}, not %s", describe(o["fallback"]))
		} else if mode, _ := f["mode"].(string); mode != "backend" && mode != "disabled" {
			bad("fallback.mode must be backend or disabled, not %s", describe(f["mode"]))
		}
	}
	if len(c.problems) == n {
		d := protocol.AsDiagnostic(err)
		bad("the protocol rejects site.json (%s: %s); askplane verify could not tell which rule failed", d.Code, d.Message)
	}
}

// artifact verifies the knowledge artifact against the trust anchor and,
// when that fails, explains why.
func (c *checker) artifact(name string, m *manifest, trust *protocol.Trust) {
	data := c.output(name, "the manifest's artifact.href", protocol.MaxArtifactBytes, "artifact.too-large",
		": declare fewer or shorter facts")
	if data == nil {
		return
	}
	// The manifest names the file; site.json is compared with it above.
	c.checkName(name, "knowledge", m.artifact.contentHash, "artifact.name.mismatch")

	var a *protocol.Artifact
	var err error
	if trust != nil {
		a, err = protocol.VerifyArtifact(data, *trust)
	} else {
		a, err = protocol.DecodeArtifact(data)
		if err == nil {
			// Nothing pins the hash, so at least check it is the content's.
			if h, herr := protocol.ComputeContentHash(data); herr != nil || h != a.ContentHash {
				c.explainArtifact(name, data, m, nil, protocol.AsDiagnostic(herr))
				return
			}
		}
	}
	if err != nil {
		c.explainArtifact(name, data, m, trust, err)
		return
	}
	c.lang.Facts = len(a.Entries)
	c.lang.ContentHash = a.ContentHash
	ids := make(map[string]bool, len(a.Entries))
	for _, e := range a.Entries {
		ids[e.ID] = true
		if _, ok := m.sources[e.ID]; !ok {
			c.add(Problem{Code: "manifest.sources.mismatch", Source: c.manifestPath, Fact: e.ID,
				Message: "the artifact has this fact but the manifest records no source file for it: they come from different builds; rebuild the site"})
		}
	}
	for _, id := range sortedKeys(m.sources) {
		if !ids[id] {
			c.add(Problem{Code: "manifest.sources.mismatch", Source: c.manifestPath, Fact: id,
				Message: fmt.Sprintf("the manifest records a source (%s) for this fact, but the artifact has no such fact: they come from different builds; rebuild the site", m.sources[id])})
		}
	}
}

// checkName checks that a content-addressed file is named after the first
// 12 hex digits of its hash.
func (c *checker) checkName(name, prefix, hash, code string) {
	if !validHash(hash) {
		return
	}
	want := prefix + "." + hash[len("sha256:"):len("sha256:")+12] + ".json"
	if got := path.Base(name); got != want {
		c.add(Problem{Code: code, Source: name,
			Message: fmt.Sprintf("the file is named %s, but its content hash %s makes it %s: the file was renamed or the manifest is stale; rebuild the site", got, hash, want)})
	}
}

// corpus checks the corpus bytes against the manifest's hash and its
// document against askplane.corpus v1, v2 or v3. Its siteId must be the manifest's
// (which site.json's is checked against).
func (c *checker) corpus(name string, m *manifest) {
	data := c.output(name, "the manifest's corpus.href", MaxCorpusBytes, "corpus.too-large", "")
	if data == nil {
		return
	}
	sum := sha256.Sum256(data)
	got := "sha256:" + hex.EncodeToString(sum[:])
	if validHash(m.corpus.contentHash) && got != m.corpus.contentHash {
		c.add(Problem{Code: "corpus.hash.mismatch", Source: name,
			Message: fmt.Sprintf("the manifest records %s, but the file's bytes hash to %s: the file changed after the build; rebuild the site", m.corpus.contentHash, got)})
	}
	c.checkName(name, "corpus", m.corpus.contentHash, "corpus.name.mismatch")
	pages, chunks := c.checkCorpus(name, data, m.siteID, c.lang.Lang)
	c.lang.Pages, c.lang.Chunks, c.lang.CorpusHash = pages, chunks, got
}
