package mcp

import (
	"context"
	"encoding/json"
	"net/url"

	"github.com/askplane/askplane/internal/protocol"
	"github.com/askplane/askplane/internal/replay"
	sdk "github.com/modelcontextprotocol/go-sdk/mcp"
)

// ManifestPage bounds the records evidence_manifest lists in one call.
const ManifestPage = 10

// ManifestInput is evidence_manifest's input.
type ManifestInput struct {
	Review string `json:"review" jsonschema:"the review link (from ask_docs or an answer's Link header), or just its fragment"`
	Offset int    `json:"offset,omitempty" jsonschema:"the first record to list, from next_offset of the previous call"`
}

// ManifestOutput is evidence_manifest's structured output: the catalogue
// of the rebuilt evidence, without its text.
type ManifestOutput struct {
	ReplayIdentity replay.Identity `json:"replay_identity" jsonschema:"which engine rebuilt it, how, and the complete package's digest"`
	Question       string          `json:"question"`
	SourceVersion  string          `json:"source_version"`
	ContextID      string          `json:"context_id" jsonschema:"the evidence's content id, equal to the link's"`
	Total          int             `json:"total" jsonschema:"how many records the evidence holds"`
	Records        []Entry         `json:"records" jsonschema:"this page of the records, in rank order"`
	NextOffset     *int            `json:"next_offset" jsonschema:"where the next page starts, or null"`
	Fragment       string          `json:"fragment" jsonschema:"the recipe pinned to the engine that rebuilt it, for read_evidence"`
}

// Entry is one record of a manifest.
type Entry struct {
	ID         string `json:"id"`
	Title      string `json:"title"`
	URL        string `json:"url"`
	Score      string `json:"score"`
	Characters int    `json:"characters" jsonschema:"the record text's length in UTF-16 units, what read_evidence pages by"`
}

// ReadInput is read_evidence's input.
type ReadInput struct {
	Review   string `json:"review" jsonschema:"the review link, or its fragment (evidence_manifest's fragment keeps the engine)"`
	RecordID string `json:"record_id" jsonschema:"the record to read, from evidence_manifest"`
	Offset   int    `json:"offset,omitempty" jsonschema:"where to start, in UTF-16 units (next_offset of the previous slice)"`
}

func addReplayTools(s *sdk.Server, r Replayer, annotations *sdk.ToolAnnotations) {
	sdk.AddTool(s, &sdk.Tool{
		Name:        "evidence_manifest",
		Title:       "List an answer's evidence",
		Description: "Rebuild exactly the evidence a review link names, from the corpus version and engine it records, and list its records (ten at a time) with their lengths. It fails with a stable code, and never returns other evidence, when that evidence cannot be rebuilt.",
		Annotations: annotations,
	}, func(ctx context.Context, _ *sdk.CallToolRequest, in ManifestInput) (*sdk.CallToolResult, ManifestOutput, error) {
		res, err := rebuild(ctx, r, in.Review)
		if err != nil {
			return nil, ManifestOutput{}, err
		}
		recs := res.Package.Records
		if in.Offset < 0 || in.Offset > len(recs) {
			return nil, ManifestOutput{}, errOffset
		}
		out := ManifestOutput{
			ReplayIdentity: res.Identity, Question: res.Package.Question, SourceVersion: res.Package.SourceVersion,
			ContextID: res.Package.ContextID, Total: len(recs), Records: []Entry{},
			Fragment: pinned(res),
		}
		end := min(in.Offset+ManifestPage, len(recs))
		for _, rec := range recs[in.Offset:end] {
			out.Records = append(out.Records, Entry{ID: rec.ID, Title: rec.Title, URL: rec.Href(), Score: rec.Score, Characters: protocol.UTF16Len(rec.Excerpt)})
		}
		if end < len(recs) {
			out.NextOffset = &end
		}
		return nil, out, nil
	})
	sdk.AddTool(s, &sdk.Tool{
		Name:        "read_evidence",
		Title:       "Read a record of an answer's evidence",
		Description: "Read one record's text from the evidence a review link names, in slices by UTF-16 offset that never split a character; every slice carries the SHA-256 of the whole text, so the pieces can be checked once joined.",
		Annotations: annotations,
	}, func(ctx context.Context, _ *sdk.CallToolRequest, in ReadInput) (*sdk.CallToolResult, replay.Read, error) {
		if in.RecordID == "" {
			return nil, replay.Read{}, errRecord
		}
		res, err := rebuild(ctx, r, in.Review)
		if err != nil {
			return nil, replay.Read{}, err
		}
		raw, err := replay.Slice(res, "record_text", in.RecordID, in.Offset, 0)
		if err != nil {
			return nil, replay.Read{}, err
		}
		var rd replay.Read
		if err := json.Unmarshal(raw, &rd); err != nil {
			return nil, replay.Read{}, err
		}
		return nil, rd, nil
	})
}

var (
	errOffset = replayErr("offset is past the last record")
	errRecord = replayErr("record_id is required")
)

func replayErr(msg string) error { return &replay.Error{Code: replay.CodeInvalidRequest, Message: msg} }

// rebuild replays the recipe a review link (or its bare fragment) holds.
// Its errors are replay's, with stable codes and no evidence.
func rebuild(ctx context.Context, r Replayer, review string) (*replay.Result, error) {
	frag := review
	if u, err := url.Parse(review); err == nil && u.Fragment != "" {
		frag = u.Fragment
	}
	recipe, err := replay.ParseFragment(frag)
	if err != nil {
		return nil, err
	}
	return r.Replay(ctx, recipe)
}

// pinned is the fragment of the recipe that rebuilt res, with its engine:
// every continuation keeps the source version, engine and context id.
func pinned(res *replay.Result) string {
	rec := res.Package.Recipe()
	rec.EngineID = res.Identity.Engine
	return rec.Fragment()
}
