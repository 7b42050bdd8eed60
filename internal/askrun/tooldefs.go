package askrun

import (
	"encoding/json"
	"strconv"

	"github.com/askplane/askplane/internal/durable"
	"github.com/askplane/askplane/internal/provider"
)

// The tools the loop offers. Their schemas are in the strict form
// (every property required, no others) OpenAI's strict function calling
// needs; bounds a strict schema cannot say are in the descriptions and
// checked when a call runs (toolcalls.go).
const (
	toolSearch = "search_docs"
	toolRead   = "read_record"
)

// Bounds of the tools' inputs and outputs.
const (
	maxToolQueryLen   = 512  // UTF-16 units of a search_docs query
	maxToolResults    = 5    // records one search returns
	maxToolExcerptLen = 600  // code points of a record's text in a search result
	maxShownTextLen   = 2000 // code points of a record's text as read_record returns it (and the checkpoint keeps it)
	maxShownRecords   = 64   // records a run's searches may show in all
)

var loopTools = []provider.Tool{
	{
		Name: toolSearch,
		Description: "Search this documentation site again, for another query (at most 512 characters). " +
			"Returns up to " + strconv.Itoa(maxToolResults) + " records, best first, each with an id, a title and an excerpt, and the search's context_id. " +
			"The answer may cite any record a search returned, by its id.",
		Parameters: json.RawMessage(`{"type":"object","properties":{"query":{"type":"string","description":"What to look for, as a reader would type it."}},"required":["query"],"additionalProperties":false}`),
	},
	{
		Name:        toolRead,
		Description: "Read a record that a search (or the initial evidence) returned, at full length, by its id.",
		Parameters:  json.RawMessage(`{"type":"object","properties":{"id":{"type":"string","description":"The record id, exactly as returned."}},"required":["id"],"additionalProperties":false}`),
	},
}

// toolsVersion names the loop's contract beyond the schemas: the tools'
// behaviour and the shape of their results. Change it with either.
const toolsVersion = "askplane.ask-tools.v1"

// digest is the run snapshot's tool identity: the loop's version, the
// offered tools (names, descriptions, schemas) and MaxRounds. A run
// admitted under another tool set, or another round bound, is not
// resumed by this one (errSnapshot).
func (t *Tools) digest() string {
	if t == nil {
		return ""
	}
	b, err := json.Marshal(struct {
		V         string          `json:"v"`
		MaxRounds int             `json:"maxRounds"`
		Tools     []provider.Tool `json:"tools"`
	}{toolsVersion, t.MaxRounds, loopTools})
	if err != nil {
		panic("ask: encoding the tool snapshot: " + err.Error()) // strings and raw JSON only
	}
	return durable.Digest(b)
}
