// Package mcp serves a site's evidence to AI agents over the Model Context
// Protocol, with the official Go SDK: streamable HTTP, stateless, JSON
// responses (so it works where a host buffers responses), read-only
// tools with structured output. An agent gets what the widget's reader
// gets: the records the evidence engine selected from the site's own
// pages, and the review link that rebuilds exactly that evidence.
//
// Authentication, the Host and Origin rules and the rate limits are the
// sidecar's, applied in front of Handler, as for /v1/ask.
package mcp

import (
	"bytes"
	"context"
	"errors"
	"io"
	"net/http"
	"time"

	"github.com/askplane/askplane/internal/evidence"
	"github.com/askplane/askplane/internal/protocol"
	"github.com/askplane/askplane/internal/replay"
	sdk "github.com/modelcontextprotocol/go-sdk/mcp"
)

// Site is one site the endpoint answers for.
type Site struct {
	// SiteID and CorpusID name the site, as its backend-site record does.
	SiteID   string
	CorpusID string
	// Engine searches the site's verified corpus.
	Engine evidence.Engine
	// MaxRecords is the site's maxSources: ask_docs selects at most this
	// many records, as an answer would.
	MaxRecords int
	// Replayer rebuilds the evidence a review link names, for
	// evidence_manifest and read_evidence; nil leaves those tools out.
	Replayer Replayer
	// Pages reads the site's Markdown twins, for read_page; nil leaves
	// it out.
	Pages Pages
	// Private is true for a site that answers only bearer tokens: its
	// lists are cached "private" (the requesting client only), a public
	// site's "public".
	Private bool
}

// ListTTL is the cache hint (ttlMs) of server/discover and the list
// results on protocol revisions that carry one (2026-07-28): the tools
// change only when the sidecar restarts with another configuration, so a
// client may keep the list for this long.
const ListTTL = 10 * time.Minute

// Replayer rebuilds a recipe's evidence (internal/replay's Replayer).
type Replayer interface {
	Replay(ctx context.Context, recipe evidence.Recipe) (*replay.Result, error)
}

// Bounds of the tools' inputs and outputs.
const (
	// MaxQueryLen bounds a search_docs query, in UTF-16 units.
	MaxQueryLen = 512
	// MaxQuestionLen bounds an ask_docs question: the longest a review
	// link can carry, so every answer's evidence can be replayed.
	MaxQuestionLen = evidence.MaxRecipeQuestionLen
	// MaxResults bounds search_docs results; DefaultResults is what it
	// returns when the agent does not say.
	MaxResults     = 10
	DefaultResults = 5
	// MaxBodyBytes bounds one MCP request body.
	MaxBodyBytes = 64 << 10
)

// Version is the server version the endpoint reports.
const Version = "1"

// Handler returns the /mcp handler for site. It keeps no session between
// requests, and takes one JSON-RPC message a request: a batch is refused
// (see refuseBatches), so the sidecar's per-request budgets are spent on
// every tool call.
func Handler(site Site) http.Handler {
	srv := newServer(site)
	return refuseBatches(sdk.NewStreamableHTTPHandler(func(*http.Request) *sdk.Server { return srv }, &sdk.StreamableHTTPOptions{
		Stateless:           true,
		JSONResponse:        true,
		MaxRequestBodyBytes: MaxBodyBytes,
		// The sidecar's guard checks Host (and Origin) on every route; the
		// SDK's own check would echo the rejected Host in its body.
		DisableLocalhostProtection: true,
	}))
}

// CodeBatch is the stable code (the JSON-RPC error's data.code) of a
// refused batch.
const CodeBatch = "mcp_batch"

// batchRefusal is the whole response to a batch: a JSON-RPC Invalid
// Request error with no id, naming no part of the request.
const batchRefusal = `{"jsonrpc":"2.0","id":null,"error":{"code":-32600,"message":"JSON-RPC batches are not accepted: send one message a request","data":{"code":"` + CodeBatch + `"}}}`

// refuseBatches answers a POST whose body is a JSON array (a JSON-RPC
// batch) with 400 and batchRefusal before next runs any of it. The SDK
// refuses batches only from protocol 2025-06-18 on and runs older ones
// call by call, while the rate limits in front of /mcp are charged once a
// request. The body is read within MaxBodyBytes (413 past it) and handed
// on whole.
func refuseBatches(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Method != http.MethodPost || r.Body == nil {
			next.ServeHTTP(w, r)
			return
		}
		body, err := io.ReadAll(http.MaxBytesReader(w, r.Body, MaxBodyBytes))
		if err != nil {
			var mbe *http.MaxBytesError
			if errors.As(err, &mbe) {
				http.Error(w, "the request body is larger than 64 KiB", http.StatusRequestEntityTooLarge)
				return
			}
			http.Error(w, "the request body could not be read", http.StatusBadRequest)
			return
		}
		if i := bytes.IndexFunc(body, func(c rune) bool { return c != ' ' && c != '\t' && c != '\n' && c != '\r' }); i >= 0 && body[i] == '[' {
			h := w.Header()
			h.Set("Content-Type", "application/json")
			h.Set("Cache-Control", "no-store")
			w.WriteHeader(http.StatusBadRequest)
			io.WriteString(w, batchRefusal)
			return
		}
		r.Body = io.NopCloser(bytes.NewReader(body))
		next.ServeHTTP(w, r)
	})
}

func newServer(site Site) *sdk.Server {
	scope := "public"
	if site.Private {
		scope = "private"
	}
	s := sdk.NewServer(&sdk.Implementation{Name: "askplane", Title: "askplane docs (" + site.SiteID + ")", Version: Version}, &sdk.ServerOptions{
		Instructions: "Answers come from this documentation site's own pages. search_docs finds pages; ask_docs returns the evidence an answer to a question would be built from, with a review link that rebuilds it exactly.",
		// Cache hints (2026-07-28): server/discover and the lists are the
		// same for every request until the sidecar restarts.
		SetCacheable: func(_ context.Context, _ sdk.Request, c *sdk.Cacheable) {
			c.TTLMs = int(ListTTL / time.Millisecond)
			c.CacheScope = scope
		},
	})
	// tools/list answers in the SDK's order, by name, whatever the order
	// of the calls below: ask_docs, evidence_manifest, read_evidence,
	// read_page, search_docs (the ones the site has).
	readOnly := &sdk.ToolAnnotations{ReadOnlyHint: true, IdempotentHint: true, OpenWorldHint: new(bool)}
	sdk.AddTool(s, &sdk.Tool{
		Name:        "search_docs",
		Title:       "Search the docs",
		Description: "Search this documentation site's pages. Returns the best-matching sections, best first, each with its title, link and an excerpt.",
		Annotations: readOnly,
	}, func(ctx context.Context, _ *sdk.CallToolRequest, in SearchInput) (*sdk.CallToolResult, SearchOutput, error) {
		if err := validateQuery(in); err != nil {
			return nil, SearchOutput{}, err
		}
		return nil, search(site, in), nil
	})
	sdk.AddTool(s, &sdk.Tool{
		Name:        "ask_docs",
		Title:       "Ask the docs",
		Description: "Get the evidence this documentation site has for a question: the selected sections with their text, the corpus version and engine they came from, the evidence's content id, and a review link that rebuilds exactly this evidence later. Cite the links you use.",
		Annotations: readOnly,
	}, func(ctx context.Context, _ *sdk.CallToolRequest, in AskInput) (*sdk.CallToolResult, AskOutput, error) {
		if err := validateQuestion(in); err != nil {
			return nil, AskOutput{}, err
		}
		return nil, ask(site, in), nil
	})
	if site.Replayer != nil {
		addReplayTools(s, site.Replayer, readOnly)
	}
	if site.Pages != nil {
		addPageTool(s, site.Pages, readOnly)
	}
	return s
}

// Input errors are tool errors the agent can read and correct; they never
// quote the input.
var (
	ErrEmpty    = errors.New("the query is empty")
	ErrTooLong  = errors.New("the query is too long")
	ErrBadLimit = errors.New("limit must be 1 to 10")
)

func validateQuery(in SearchInput) error {
	switch q := protocol.Trim(in.Query); {
	case q == "":
		return ErrEmpty
	case protocol.UTF16Len(in.Query) > MaxQueryLen:
		return ErrTooLong
	case in.Limit < 0 || in.Limit > MaxResults:
		return ErrBadLimit
	}
	return nil
}

func validateQuestion(in AskInput) error {
	switch q := protocol.Trim(in.Question); {
	case q == "":
		return ErrEmpty
	case protocol.UTF16Len(q) > MaxQuestionLen:
		return ErrTooLong
	}
	return nil
}
