package protocol

import "github.com/askplane/askplane/internal/ecmajson"

// Limits of the v1 contracts. Lengths count UTF-16 code units; sizes count
// UTF-8 bytes.
const (
	MaxSiteConfigBytes = 16_384
	MaxArtifactBytes   = 524_288
	MaxAnswerBytes     = 262_144

	MaxIdentifierLen = 128
	MaxHrefLen       = 2048
	MaxEntries       = 1024
	MaxAliases       = 16
	MaxAliasLen      = 512
	MaxQueryLen      = 512
	MaxLabelLen      = 256
	MaxTitleLen      = 256
	MaxMarkdownLen   = 16_384
	MaxCitations     = 8
	MaxMessageLen    = 4096
	MaxSuggestions   = 8
	MinSuggestions   = 2
	MaxEntryIDs      = 8
	MaxProviderLen   = 128

	// MaxJSONDepth bounds nesting in every payload we parse. The schemas
	// nest at most six deep; the bound keeps stripped unknown members from
	// costing unbounded recursion. ECMAScript JSON.parse has no such bound,
	// so this is a deliberate, documented difference.
	MaxJSONDepth = ecmajson.MaxDepth
)
