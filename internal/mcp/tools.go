package mcp

import (
	"github.com/askplane/askplane/internal/evidence"
	"github.com/askplane/askplane/internal/protocol"
	"github.com/askplane/askplane/internal/replay"
)

// SearchInput is search_docs' input.
type SearchInput struct {
	Query string `json:"query" jsonschema:"what to look for, as a reader would type it (at most 512 characters)"`
	Limit int    `json:"limit,omitempty" jsonschema:"how many sections to return, 1 to 10 (default 5)"`
}

// SearchOutput is search_docs' structured output.
type SearchOutput struct {
	Results []Section `json:"results" jsonschema:"the matching sections, best first"`
}

// Section is one selected section of a page.
type Section struct {
	ID       string   `json:"id" jsonschema:"the record id, stable across rebuilds that do not move the section"`
	Title    string   `json:"title" jsonschema:"the page title and the section's heading path"`
	URL      string   `json:"url" jsonschema:"the section's link, relative to the site"`
	Headings []string `json:"headings" jsonschema:"the heading path within the page"`
	Excerpt  string   `json:"excerpt" jsonschema:"the section's text, as the evidence engine selected it"`
	Score    string   `json:"score" jsonschema:"the engine's score, six decimals"`
}

// AskInput is ask_docs' input.
type AskInput struct {
	Question string `json:"question" jsonschema:"the question, as a reader would ask it (at most 2000 characters)"`
}

// AskOutput is ask_docs' structured output: the evidence package of the
// question, as an answer to it would be built from.
type AskOutput struct {
	Status        string    `json:"status" jsonschema:"sufficient when there is evidence to answer from, else insufficient"`
	Question      string    `json:"question"`
	SourceVersion string    `json:"source_version" jsonschema:"the corpus version (content hash) the evidence came from"`
	Engine        string    `json:"engine" jsonschema:"the evidence engine that selected it"`
	ContextID     string    `json:"context_id" jsonschema:"the content id of the selected evidence"`
	Digest        string    `json:"digest" jsonschema:"the content id of the whole evidence package"`
	Records       []Section `json:"records" jsonschema:"the selected sections, best first"`
	Review        string    `json:"review" jsonschema:"the review link (relative to the sidecar) that rebuilds exactly this evidence"`
	// ReplayIdentity is what replaying Review reports (evidence_manifest,
	// /v1/evidence/replay): the recipe names its engine, so the replay is
	// an explicit-engine one by that engine, and its digest is this
	// package's. An agent can check a later replay against it.
	ReplayIdentity replay.Identity `json:"replay_identity" jsonschema:"the identity a replay of the review link reports: the engine, how it was chosen, and the package's digest"`
}

func search(site Site, in SearchInput) SearchOutput {
	limit := in.Limit
	if limit == 0 {
		limit = DefaultResults
	}
	p := site.Engine.Search(protocol.Trim(in.Query), evidence.Budget{MaxRecords: limit})
	return SearchOutput{Results: sections(p.Records)}
}

func ask(site Site, in AskInput) AskOutput {
	p := site.Engine.Search(protocol.Trim(in.Question), evidence.Budget{MaxRecords: site.MaxRecords})
	return AskOutput{
		Status:        string(p.Status),
		Question:      p.Question,
		SourceVersion: p.SourceVersion,
		Engine:        p.Engine,
		ContextID:     p.ContextID,
		Digest:        p.Digest,
		Records:       sections(p.Records),
		Review:        evidence.ReviewPath(site.CorpusID, p.Recipe().Fragment()),
		ReplayIdentity: replay.Identity{Engine: p.Engine, Mode: replay.ModeExplicit, Origin: &p.Engine,
			MatchingEngines: []string{p.Engine}, Digest: p.Digest},
	}
}

func sections(records []evidence.Selected) []Section {
	out := make([]Section, 0, len(records))
	for i := range records {
		r := &records[i]
		out = append(out, Section{ID: r.ID, Title: r.Title, URL: r.Href(), Headings: r.Headings, Excerpt: r.Excerpt, Score: r.Score})
	}
	return out
}
