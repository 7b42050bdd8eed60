package evidence

import "github.com/askplane/askplane/internal/corpus"

// EngineID3 names askplane.bm25/3: askplane.bm25/2's analysis, ranking
// and packages over an askplane.corpus v3 read by chunk.Version
// "askplane.chunk/2" (corpus.Current): every heading splits a page
// whichever element carries its id, an untitled page takes its first
// heading as its title, inline code stays as Markdown code spans (a
// backtick separates terms in the analyzer), and the comments of TOML
// and YAML blocks are text tied to the settings they annotate. On v1
// and v2 corpora its packages are bm25/2's but for the engine id.
// TestEngineChunker pins the pair.
const EngineID3 = "askplane.bm25/3"

// NewIndex3 builds askplane.bm25/3's index of c, a corpus decoded with
// the askplane.chunk/2 rules.
func NewIndex3(c *corpus.Corpus) *Index2 { return newIndex2(EngineID3, c, rules2) }
