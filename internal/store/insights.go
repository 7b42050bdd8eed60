package store

import (
	"context"
	"strings"
	"time"
	"unicode/utf8"
)

// Insights keeps what internal/insights records of the questions a site
// was asked, never a question's text, a client address or a subject:
//
//   - insight events: one row a question, with how it ended, its
//     language, its key (sorted stems; a stem the corpus does not hold is
//     a keyed hash, "#" and 16 hex digits), the reader's keyed hash
//     under the day's key, and at most MaxInsightPages page paths;
//   - term readers: which reader hashes used each hidden (hashed) term;
//   - revealed terms: a hidden term's stem, written only once at least
//     MinCrowd distinct readers used it within the window;
//   - keys: the secret keys the hashes are made with, by name.
//
// Rows are bounded by PruneInsights: older than the window, or past
// MaxInsightEvents events (MaxInsightEvents·4 term readers) a site,
// oldest first, they are deleted. Every value is bounded on the way in
// (CodeInvalidRecord), so an event row is at most about 3 KiB, a
// term-reader row about 250 bytes, and a site's insight tables at most
// about 200 MiB.
type Insights interface {
	// InsightKey returns the key stored under name, storing fresh there
	// first when there is none; every other key whose name starts with
	// drop (when drop is not empty) is deleted in the same transaction.
	InsightKey(ctx context.Context, name string, fresh []byte, drop string) ([]byte, error)
	// PutInsight stores one event and its hidden terms' sightings, and
	// reveals each hidden term that MinCrowd distinct readers used since
	// Since.
	PutInsight(ctx context.Context, p InsightPut) error
	// PutInsights stores several in one transaction: all or none.
	PutInsights(ctx context.Context, ps []InsightPut) error
	// InsightEvents returns site's events at or after since, newest first,
	// at most MaxInsightEvents.
	InsightEvents(ctx context.Context, site string, since time.Time) ([]InsightEvent, error)
	// InsightTerms returns site's revealed terms: hash → stem.
	InsightTerms(ctx context.Context, site string) (map[string]string, error)
	// PruneInsights deletes site's rows older than before and applies
	// the row bounds.
	PruneInsights(ctx context.Context, site string, before time.Time) error
}

// InsightEvent is one question's outcome.
type InsightEvent struct {
	Site    string
	At      time.Time // stored to the millisecond
	Outcome string
	Lang    string
	Key     string // space-separated sorted terms
	Reader  string // 32 hex digits
	Pages   []string
}

// HiddenTerm is a question term the corpus does not hold: its keyed hash
// (what events carry) and its stem, which is written only when revealed.
type HiddenTerm struct {
	Hash string
	Stem string
}

// InsightPut is one PutInsight.
type InsightPut struct {
	Event    InsightEvent
	Hidden   []HiddenTerm
	MinCrowd int
	Since    time.Time
}

// Bounds of the insight tables.
const (
	MaxInsightEvents     = 50_000 // a site
	MaxInsightPages      = 3
	MaxInsightPageBytes  = 512
	MaxInsightKeyBytes   = 1024
	MaxInsightHidden     = 32
	MaxInsightTermBytes  = 64
	MaxInsightLabelBytes = 128 // site, outcome, language, key names
	MaxInsightSecret     = 64  // a stored key's bytes
	insightReadersFactor = 4
)

func invalidInsight(op, reason string) error {
	return &Error{Code: CodeInvalidRecord, Op: op, Reason: reason}
}

func label(s string) bool {
	return s != "" && len(s) <= MaxInsightLabelBytes && utf8.ValidString(s) && !strings.ContainsAny(s, "\n\x00")
}

func checkInsightPut(p InsightPut) error {
	const op = "put insight"
	e := p.Event
	switch {
	case !label(e.Site) || !label(e.Outcome) || !label(e.Lang):
		return invalidInsight(op, "site, outcome and language must be 1 to 128 bytes of text")
	case len(e.Key) > MaxInsightKeyBytes || !utf8.ValidString(e.Key) || strings.ContainsAny(e.Key, "\n\x00"):
		return invalidInsight(op, "key must be at most 1024 bytes of text")
	case len(e.Reader) != 32 || strings.Trim(e.Reader, "0123456789abcdef") != "":
		return invalidInsight(op, "reader must be 32 hex digits")
	case len(e.Pages) > MaxInsightPages:
		return invalidInsight(op, "too many pages")
	case len(p.Hidden) > MaxInsightHidden:
		return invalidInsight(op, "too many hidden terms")
	case p.MinCrowd < 1:
		return invalidInsight(op, "minCrowd must be at least 1")
	}
	for _, pg := range e.Pages {
		if pg == "" || len(pg) > MaxInsightPageBytes || !utf8.ValidString(pg) || strings.ContainsAny(pg, "\n\x00") {
			return invalidInsight(op, "a page must be 1 to 512 bytes of text on one line")
		}
	}
	for _, h := range p.Hidden {
		if !label(h.Hash) || len(h.Hash) > MaxInsightTermBytes || h.Stem == "" || len(h.Stem) > MaxInsightTermBytes ||
			!utf8.ValidString(h.Stem) || strings.ContainsAny(h.Stem, "\n\x00") {
			return invalidInsight(op, "a hidden term must be at most 64 bytes")
		}
	}
	return nil
}

// MaxInsightBatch bounds one PutInsights.
const MaxInsightBatch = 512

func checkInsightPuts(ps []InsightPut) error {
	if len(ps) > MaxInsightBatch {
		return invalidInsight("put insight", "too many events in one batch")
	}
	for _, p := range ps {
		if err := checkInsightPut(p); err != nil {
			return err
		}
	}
	return nil
}

func checkInsightKey(name string, fresh []byte) error {
	if !label(name) || len(fresh) == 0 || len(fresh) > MaxInsightSecret {
		return invalidInsight("insight key", "a key name of 1 to 128 bytes and a key of 1 to 64 bytes")
	}
	return nil
}

func joinPages(p []string) string { return strings.Join(p, "\n") }

func splitPages(s string) []string {
	if s == "" {
		return nil
	}
	return strings.Split(s, "\n")
}
