package evidence

// EngineID names this ranking algorithm and all its constants (tokenizer,
// stopwords, BM25 parameters, field boosts, threshold, excerpt rules).
// A package records it so a later release can tell whether it can
// reproduce a stored context: any change to what Search returns for the
// same input must come with a new id, and the old engine kept for replay.
// On an askplane.corpus v3 the records come from a chunker, whose rules
// are part of the engine: this id (and EngineID2) stands for
// "askplane.chunk/1", frozen in internal/chunk/chunk1, and EngineID3 for
// chunk.Version "askplane.chunk/2" (TestEngineChunker pins the pairs), so
// a new chunker version needs a new engine id.
const EngineID = "askplane.bm25/1"

// Engine is what the Ask handler (and, later, replay) needs from a
// retrieval engine: its id and a deterministic search over one corpus
// version.
type Engine interface {
	ID() string
	SourceVersion() string
	Search(question string, budget Budget) Package
}

// BM25 parameters and field boosts. Boosts are in halves so weighted term
// frequencies and lengths are exact in floating point.
const (
	k1 = 1.2
	b  = 0.75

	titleWeight2   = 4 // ×2
	headingWeight2 = 3 // ×1.5
	textWeight2    = 2 // ×1

	// scoreScale turns scores into integers (micro-units) before they are
	// compared or printed, so ties and output never depend on the last
	// bits of a float.
	scoreScale = 1_000_000
	// minScore (0.2 in score units) is the least a record must score to
	// be evidence at all; below it a match is a stray common word.
	minScore = 200_000
	// relativeCut drops records scoring under 1/relativeCut of the best,
	// which keeps weak partial matches out of a strong answer.
	relativeCut = 5

	maxQueryTerms = 32

	// MaxExcerptBytes bounds each selected record's text.
	MaxExcerptBytes = 1200
)
