package engines

import (
	"embed"
	"errors"
	"strings"

	"github.com/askplane/askplane/internal/corpus"
	"github.com/askplane/askplane/internal/evidence"
)

// Engine is one retained evidence engine.
type Engine struct {
	// ID is the engine id packages carry.
	ID string
	// Sources are the files, from the module root, whose bytes decide what
	// the engine returns; its manifest commits to them.
	Sources []string
	// Index builds the engine over a decoded corpus.
	Index func(*corpus.Corpus) evidence.Engine
	// Decode turns a corpus file's bytes into records, after checking they
	// hash to version; nil means corpus.Load. Chunking that happens at
	// load time is part of the engine, so an engine may bring its own.
	Decode func(raw []byte, version string) (*corpus.Corpus, error)

	manifest Manifest
	digest   string
}

// Open decodes a corpus file's bytes and builds the engine over them.
func (e *Engine) Open(raw []byte, version string) (evidence.Engine, error) {
	decode := e.Decode
	if decode == nil {
		decode = corpus.Load
	}
	c, err := decode(raw, version)
	if err != nil {
		return nil, err
	}
	return e.Index(c), nil
}

// Manifest is the engine's committed manifest.
func (e *Engine) Manifest() Manifest { return e.manifest }

// Digest is the committed manifest's digest ("sha256:…").
func (e *Engine) Digest() string { return e.digest }

// bm25v6 is askplane.bm25/6, the default: askplane.bm25/5 with a larger
// synonym table, bm25/5's and the everyday words for files, folders and
// what commands do with them (index6.go, synonyms6.go), and the page a
// question asks to define put first (defined6.go).
var bm25v6 = Engine{
	ID: evidence.EngineID6,
	Sources: []string{
		"internal/chunk/annotate.go",
		"internal/chunk/chunk.go",
		"internal/chunk/split.go",
		"internal/corpus/decode.go",
		"internal/corpus/record.go",
		"internal/evidence/analyze2.go",
		"internal/evidence/budget.go",
		"internal/evidence/canonical.go",
		"internal/evidence/common.go",
		"internal/evidence/defined6.go",
		"internal/evidence/engine.go",
		"internal/evidence/excerpt.go",
		"internal/evidence/fuzzy2.go",
		"internal/evidence/identity.go",
		"internal/evidence/index.go",
		"internal/evidence/index2.go",
		"internal/evidence/index3.go",
		"internal/evidence/index4.go",
		"internal/evidence/index5.go",
		"internal/evidence/index6.go",
		"internal/evidence/jsontext.go",
		"internal/evidence/package.go",
		"internal/evidence/rank.go",
		"internal/evidence/search.go",
		"internal/evidence/search2.go",
		"internal/evidence/sentences.go",
		"internal/evidence/stem.go",
		"internal/evidence/stopwords.go",
		"internal/evidence/synonyms4.go",
		"internal/evidence/synonyms5.go",
		"internal/evidence/synonyms6.go",
		"internal/evidence/terms.go",
		"internal/evidence/wire.go",
	},
	Index: func(c *corpus.Corpus) evidence.Engine { return evidence.NewIndex6(c) },
}

// bm25v5 is askplane.bm25/5, the default: askplane.bm25/4 with a larger
// synonym table, bm25/4's and the general words readers type for parts
// of a site's interface (index5.go, synonyms5.go).
var bm25v5 = Engine{
	ID: evidence.EngineID5,
	Sources: []string{
		"internal/chunk/annotate.go",
		"internal/chunk/chunk.go",
		"internal/chunk/split.go",
		"internal/corpus/decode.go",
		"internal/corpus/record.go",
		"internal/evidence/analyze2.go",
		"internal/evidence/budget.go",
		"internal/evidence/canonical.go",
		"internal/evidence/common.go",
		"internal/evidence/engine.go",
		"internal/evidence/excerpt.go",
		"internal/evidence/fuzzy2.go",
		"internal/evidence/identity.go",
		"internal/evidence/index.go",
		"internal/evidence/index2.go",
		"internal/evidence/index3.go",
		"internal/evidence/index4.go",
		"internal/evidence/index5.go",
		"internal/evidence/jsontext.go",
		"internal/evidence/package.go",
		"internal/evidence/rank.go",
		"internal/evidence/search.go",
		"internal/evidence/search2.go",
		"internal/evidence/sentences.go",
		"internal/evidence/stem.go",
		"internal/evidence/stopwords.go",
		"internal/evidence/synonyms4.go",
		"internal/evidence/synonyms5.go",
		"internal/evidence/terms.go",
		"internal/evidence/wire.go",
	},
	Index: func(c *corpus.Corpus) evidence.Engine { return evidence.NewIndex5(c) },
}

// bm25v4 is askplane.bm25/4: askplane.bm25/3's analysis,
// corpus and packages, with a question's words also found in their
// synonyms (synonyms4.go) and a bonus for the sections whose own heading
// names what is asked (index4.go).
var bm25v4 = Engine{
	ID: evidence.EngineID4,
	Sources: []string{
		"internal/chunk/annotate.go",
		"internal/chunk/chunk.go",
		"internal/chunk/split.go",
		"internal/corpus/decode.go",
		"internal/corpus/record.go",
		"internal/evidence/analyze2.go",
		"internal/evidence/budget.go",
		"internal/evidence/canonical.go",
		"internal/evidence/common.go",
		"internal/evidence/engine.go",
		"internal/evidence/excerpt.go",
		"internal/evidence/fuzzy2.go",
		"internal/evidence/identity.go",
		"internal/evidence/index.go",
		"internal/evidence/index2.go",
		"internal/evidence/index3.go",
		"internal/evidence/index4.go",
		"internal/evidence/jsontext.go",
		"internal/evidence/package.go",
		"internal/evidence/rank.go",
		"internal/evidence/search.go",
		"internal/evidence/search2.go",
		"internal/evidence/sentences.go",
		"internal/evidence/stem.go",
		"internal/evidence/stopwords.go",
		"internal/evidence/synonyms4.go",
		"internal/evidence/terms.go",
		"internal/evidence/wire.go",
	},
	Index: func(c *corpus.Corpus) evidence.Engine { return evidence.NewIndex4(c) },
}

// bm25v3 is askplane.bm25/3: askplane.bm25/2's analysis,
// ranking and packages (index3.go gives them its id) over corpora read
// by askplane.chunk/2 (internal/chunk as it is, with annotate.go; and
// corpus.Current, which titles untitled pages by their first heading).
var bm25v3 = Engine{
	ID: evidence.EngineID3,
	Sources: []string{
		"internal/chunk/annotate.go",
		"internal/chunk/chunk.go",
		"internal/chunk/split.go",
		"internal/corpus/decode.go",
		"internal/corpus/record.go",
		"internal/evidence/analyze2.go",
		"internal/evidence/budget.go",
		"internal/evidence/canonical.go",
		"internal/evidence/common.go",
		"internal/evidence/engine.go",
		"internal/evidence/excerpt.go",
		"internal/evidence/fuzzy2.go",
		"internal/evidence/identity.go",
		"internal/evidence/index.go",
		"internal/evidence/index2.go",
		"internal/evidence/index3.go",
		"internal/evidence/jsontext.go",
		"internal/evidence/package.go",
		"internal/evidence/rank.go",
		"internal/evidence/search.go",
		"internal/evidence/search2.go",
		"internal/evidence/sentences.go",
		"internal/evidence/stem.go",
		"internal/evidence/stopwords.go",
		"internal/evidence/terms.go",
		"internal/evidence/wire.go",
	},
	Index: func(c *corpus.Corpus) evidence.Engine { return evidence.NewIndex3(c) },
}

// bm25v2 is askplane.bm25/2: askplane.bm25/1's packages,
// corpus decoding and chunking, with its own analysis (Snowball stemming
// per language, code-aware tokens, stopwords weighted low rather than
// dropped), title, path and heading boosts, a proximity bonus and typo
// tolerance for rare words (analyze2.go, index2.go, search2.go,
// fuzzy2.go, stem.go).
var bm25v2 = Engine{
	ID: evidence.EngineID2,
	Sources: []string{
		"internal/chunk/chunk.go",
		"internal/chunk/chunk1/chunk1.go",
		"internal/chunk/chunk1/split.go",
		"internal/corpus/decode.go",
		"internal/corpus/record.go",
		"internal/evidence/analyze2.go",
		"internal/evidence/budget.go",
		"internal/evidence/canonical.go",
		"internal/evidence/common.go",
		"internal/evidence/engine.go",
		"internal/evidence/excerpt.go",
		"internal/evidence/fuzzy2.go",
		"internal/evidence/identity.go",
		"internal/evidence/index.go",
		"internal/evidence/index2.go",
		"internal/evidence/jsontext.go",
		"internal/evidence/package.go",
		"internal/evidence/rank.go",
		"internal/evidence/search.go",
		"internal/evidence/search2.go",
		"internal/evidence/sentences.go",
		"internal/evidence/stem.go",
		"internal/evidence/stopwords.go",
		"internal/evidence/terms.go",
		"internal/evidence/wire.go",
	},
	Index:  func(c *corpus.Corpus) evidence.Engine { return evidence.NewIndex2(c) },
	Decode: loadChunk1,
}

// bm25v1 is the engine askplane has shipped since the first evidence
// package. Its files are the ones that turn a corpus file and a question
// into package bytes: the corpus decoder and record ids (v2 chunks are
// turned into records at load time, and v3 pages are chunked then by
// internal/chunk, so the chunker is the engine's),
// indexing, the tokenizer and stopwords, BM25 constants (engine.go) and
// ranking, excerpts and sentence cuts, budgets and fitting, the wire and
// canonical writers and the identities. Not listed: buffers.go (pooling
// only), label.go and recipe.go (citation labels and links, outside the
// package), and shared protocol code (NFKC key normalization, ECMAScript
// string spelling), which has conformance vectors of its own under
// testdata/ and is bound by them rather than by this manifest.
var bm25v1 = Engine{
	ID: evidence.EngineID,
	Sources: []string{
		"internal/chunk/chunk.go",
		"internal/chunk/chunk1/chunk1.go",
		"internal/chunk/chunk1/split.go",
		"internal/corpus/decode.go",
		"internal/corpus/record.go",
		"internal/evidence/budget.go",
		"internal/evidence/canonical.go",
		"internal/evidence/common.go",
		"internal/evidence/engine.go",
		"internal/evidence/excerpt.go",
		"internal/evidence/identity.go",
		"internal/evidence/index.go",
		"internal/evidence/jsontext.go",
		"internal/evidence/package.go",
		"internal/evidence/rank.go",
		"internal/evidence/search.go",
		"internal/evidence/sentences.go",
		"internal/evidence/stopwords.go",
		"internal/evidence/terms.go",
		"internal/evidence/wire.go",
	},
	Index:  func(c *corpus.Corpus) evidence.Engine { return evidence.NewIndex(c) },
	Decode: loadChunk1,
}

// loadChunk1 reads a corpus as askplane.bm25/1 and /2 always have: a v3
// page is chunked by askplane.chunk/1, frozen in internal/chunk/chunk1
// (internal/chunk/chunk.go still gives it its block and chunk types).
func loadChunk1(raw []byte, version string) (*corpus.Corpus, error) {
	return corpus.LoadWith(raw, version, corpus.Chunk1)
}

// retained lists every engine this binary can replay, current first: the
// order in which historical replay tries them. A new engine goes first
// (it becomes Current); the ones it replaces stay, after it.
var retained = []*Engine{&bm25v6, &bm25v5, &bm25v4, &bm25v3, &bm25v2, &bm25v1}

// MaxRetained bounds the catalogue; replay tries at most two engines of
// it for one link.
const MaxRetained = 6

//go:embed manifests/*.json
var manifests embed.FS

// ManifestFile is the committed manifest's path inside this package for
// engine id: "/" becomes "-", so "askplane.bm25/1" is
// manifests/askplane.bm25-1.json.
func ManifestFile(id string) string { return "manifests/" + strings.ReplaceAll(id, "/", "-") + ".json" }

// loadErr is what loading the committed manifests found wrong, if
// anything; Check reports it.
var loadErr = load(retained)

// Check reports whether every retained engine has a committed manifest
// that describes it. The sidecar refuses to start otherwise.
func Check() error { return loadErr }

// load reads and checks each engine's committed manifest.
func load(list []*Engine) error {
	if len(list) == 0 || len(list) > MaxRetained {
		return errors.New("engines: retain 1 to 6 engines")
	}
	seen := map[string]bool{}
	for _, e := range list {
		if seen[e.ID] || e.ID == "" || len(e.ID) > 128 || e.Index == nil {
			return errors.New("engines: engine ids are unique, 1 to 128 bytes, with an Index")
		}
		seen[e.ID] = true
		data, err := manifests.ReadFile(ManifestFile(e.ID))
		if err != nil {
			return errors.New("engines: " + e.ID + " has no committed manifest (go test ./internal/engines -update)")
		}
		m, err := decodeManifest(data)
		if err != nil || m.Engine != e.ID || len(m.Files) != len(e.Sources) {
			return errors.New("engines: " + e.ID + "'s committed manifest does not describe it (go test ./internal/engines -update)")
		}
		for i, f := range m.Files {
			if f.Path != e.Sources[i] {
				return errors.New("engines: " + e.ID + "'s committed manifest lists other files (go test ./internal/engines -update)")
			}
		}
		e.manifest, e.digest = m, m.Digest()
	}
	return nil
}

// All returns the retained engines, current first.
func All() []*Engine { return append([]*Engine(nil), retained...) }

// Current is the engine new questions are answered with.
func Current() *Engine { return retained[0] }

// Lookup returns the retained engine id names.
func Lookup(id string) (*Engine, bool) {
	for _, e := range retained {
		if e.ID == id {
			return e, true
		}
	}
	return nil, false
}

// CatalogueEntry is one engine as the sidecar publishes it.
type CatalogueEntry struct {
	Engine         string `json:"engine"`
	ManifestDigest string `json:"manifest_digest"`
	Files          int    `json:"files"`
}

// Catalogue lists the retained engines with their manifest digests.
func Catalogue() []CatalogueEntry {
	out := make([]CatalogueEntry, 0, len(retained))
	for _, e := range retained {
		out = append(out, CatalogueEntry{Engine: e.ID, ManifestDigest: e.digest, Files: len(e.manifest.Files)})
	}
	return out
}
