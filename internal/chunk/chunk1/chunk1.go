// Package chunk1 is the chunker of askplane.chunk/1, frozen: the rules
// the evidence engines askplane.bm25/1 and askplane.bm25/2 read an
// askplane.corpus v3 with, kept so their packages still replay byte for
// byte (see internal/engines). split.go is the askplane.chunk/1 split.go
// as it was, but for its package clause; this file gives it the names it
// used from its own package: the block and chunk types (shared with
// internal/chunk, which only ever adds fields to them) and the bounds and
// error codes of version 1, by value.
//
// Nothing here may change: a change to what Split returns is a new
// chunker version in internal/chunk and a new engine.
package chunk1

import "github.com/askplane/askplane/internal/chunk"

// Version names these rules.
const Version = "askplane.chunk/1"

type (
	Kind  = chunk.Kind
	Block = chunk.Block
	Chunk = chunk.Chunk
	Error = chunk.Error
)

const (
	Paragraph  = chunk.Paragraph
	Heading    = chunk.Heading
	Code       = chunk.Code
	List       = chunk.List
	Table      = chunk.Table
	Term       = chunk.Term
	Definition = chunk.Definition
	Note       = chunk.Note
)

// TermLevel, bounds and error codes of askplane.chunk/1.
const (
	TermLevel = 7

	MaxPageBytes      = 4 << 20
	MaxDepth          = 256
	MaxChunks         = 4096
	MaxBlocksPerChunk = 2048

	CodeTooLarge     = "chunk.page.too-large"
	CodeTooDeep      = "chunk.too-deep"
	CodeTooManyParts = "chunk.too-many"
	CodeInvalid      = "chunk.html.invalid"
)
