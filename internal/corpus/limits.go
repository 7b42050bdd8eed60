package corpus

// Byte bounds for reads. The manifest lists one source file per fact, so
// it stays small; 64 MiB holds a corpus far beyond the 10,000-page
// benchmark site (about 5 MiB) while keeping a hostile file from
// exhausting memory.
const (
	MaxManifestBytes = 4 << 20
	MaxCorpusBytes   = 64 << 20
)

// Protocol names and the versions this package reads.
const (
	CorpusProtocol   = "askplane.corpus"
	ManifestProtocol = "askplane.manifest"

	// CorpusVersion is the askplane.corpus version the module writes;
	// OldestCorpusVersion, and every version between, is still read.
	CorpusVersion       = 3
	OldestCorpusVersion = 1

	ManifestVersion = 1
)
