package insights

import (
	"context"
	"crypto/hmac"
	"crypto/rand"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/askplane/askplane/internal/evidence"
	"github.com/askplane/askplane/internal/grounding"
	"github.com/askplane/askplane/internal/store"
)

// MaxKeyTerms bounds a question key: the first this many distinct terms
// of the question, in its order, then sorted.
const MaxKeyTerms = 12

// pruneEvery is how often a Recorder deletes expired rows.
const pruneEvery = 10 * time.Minute

// Key names in the store: the readers' key of a UTC day, rotated
// (older days' deleted when a new day's is made), and each site's
// hidden-term key, kept while the site records.
const (
	readerKeyPrefix = "reader/"
	termKeyPrefix   = "term/"
)

// Recorder records one site's question outcomes. Build it with
// NewRecorder; it is safe for concurrent use.
type Recorder struct {
	store  store.Insights
	site   string
	lang   string
	engine evidence.Engine
	cfg    Config
	now    func() time.Time

	mu        sync.Mutex
	day       string
	readerKey []byte
	termKey   []byte
	pruned    time.Time
}

// ErrRecorder is returned by NewRecorder for a missing dependency.
var ErrRecorder = errors.New("insights: a recorder needs a store, a site id, a language and an engine")

// NewRecorder returns site's recorder: lang is its corpus language, e
// the engine whose vocabulary decides which terms the corpus holds, now
// the clock (nil: time.Now).
func NewRecorder(s store.Insights, site, lang string, e evidence.Engine, c Config, now func() time.Time) (*Recorder, error) {
	if s == nil || site == "" || lang == "" || e == nil {
		return nil, ErrRecorder
	}
	if err := c.Check(); err != nil {
		return nil, err
	}
	if now == nil {
		now = time.Now
	}
	return &Recorder{store: s, site: site, lang: lang, engine: e, cfg: c.Or(), now: now}, nil
}

// keys returns the day's reader key and the site's term key, creating
// or rotating them in the store.
func (r *Recorder) keys(ctx context.Context, now time.Time) (reader, term []byte, err error) {
	day := now.UTC().Format(time.DateOnly)
	r.mu.Lock()
	if r.day == day {
		reader, term = r.readerKey, r.termKey
		r.mu.Unlock()
		return reader, term, nil
	}
	r.mu.Unlock()
	if reader, err = r.store.InsightKey(ctx, readerKeyPrefix+day, fresh(), readerKeyPrefix); err != nil {
		return nil, nil, err
	}
	if term, err = r.store.InsightKey(ctx, termKeyPrefix+r.site, fresh(), ""); err != nil {
		return nil, nil, err
	}
	r.mu.Lock()
	r.day, r.readerKey, r.termKey = day, reader, term
	r.mu.Unlock()
	return reader, term, nil
}

func fresh() []byte {
	k := make([]byte, 32)
	rand.Read(k)
	return k
}

func mac(key []byte, parts ...string) []byte {
	m := hmac.New(sha256.New, key)
	for _, p := range parts {
		m.Write([]byte(p))
		m.Write([]byte{0})
	}
	return m.Sum(nil)
}

// OutcomeExact is a question the widget answered in the page from the
// site's exact facts, as it reports it to /v1/feedback: no question
// text reaches the sidecar, so its key is empty and it has no pages.
const OutcomeExact grounding.OutcomeKind = "exact"

// A reader's verdict on a backend answer, recorded with the pages the
// answer cited (feedback, not a question: no key, and never counted
// among the questions).
const (
	OutcomeHelpful    grounding.OutcomeKind = "helpful"
	OutcomeNotHelpful grounding.OutcomeKind = "not_helpful"
)

// verdict reports whether outcome is a reader's verdict, not a question.
func verdict(outcome string) bool {
	return outcome == string(OutcomeHelpful) || outcome == string(OutcomeNotHelpful)
}

// HiddenPrefix starts a hidden term in a question key.
const HiddenPrefix = "#"

// Record stores one outcome, as of now: its key, never its text or
// subject.
func (r *Recorder) Record(ctx context.Context, o grounding.Outcome) error {
	return r.record(ctx, []sighted{{o: o, at: r.now()}})
}

// sighted is an outcome and when it happened.
type sighted struct {
	o  grounding.Outcome
	at time.Time
	// flushed, on a Queue's marker (no outcome), is closed once what
	// was queued before it is written.
	flushed chan struct{}
}

// record stores outs in one transaction, then prunes when pruneEvery
// has passed since the last time.
func (r *Recorder) record(ctx context.Context, outs []sighted) error {
	now := r.now()
	readerKey, termKey, err := r.keys(ctx, now)
	if err != nil {
		return err
	}
	since := now.Add(-r.window())
	puts := make([]store.InsightPut, 0, len(outs))
	for _, s := range outs {
		puts = append(puts, r.put(s.o, s.at, since, readerKey, termKey))
	}
	if err := r.store.PutInsights(ctx, puts); err != nil {
		return err
	}
	r.mu.Lock()
	due := now.Sub(r.pruned) >= pruneEvery
	if due {
		r.pruned = now
	}
	r.mu.Unlock()
	if due {
		return r.store.PruneInsights(ctx, r.site, since)
	}
	return nil
}

// put is o as the store keeps it: the question's key terms (a term the
// corpus lacks as its keyed hash), the reader's hash under the day's
// key, the pages.
func (r *Recorder) put(o grounding.Outcome, at, since time.Time, readerKey, termKey []byte) store.InsightPut {
	terms := evidence.KeyTerms(r.engine, o.Question)
	if len(terms) > MaxKeyTerms {
		terms = terms[:MaxKeyTerms]
	}
	key := make([]string, 0, len(terms))
	var hidden []store.HiddenTerm
	for _, t := range terms {
		if t.Known {
			key = append(key, t.Stem)
			continue
		}
		h := HiddenPrefix + hex.EncodeToString(mac(termKey, r.site, t.Stem)[:8])
		key = append(key, h)
		hidden = append(hidden, store.HiddenTerm{Hash: h, Stem: t.Stem})
	}
	slices.Sort(key)
	var pages []string
	for _, p := range o.Pages {
		if p != "" && len(p) <= store.MaxInsightPageBytes && !strings.ContainsAny(p, "\n\x00") && len(pages) < store.MaxInsightPages {
			pages = append(pages, p)
		}
	}
	return store.InsightPut{
		Event: store.InsightEvent{
			Site: r.site, At: at, Outcome: string(o.Kind), Lang: r.lang, Key: strings.Join(key, " "),
			Reader: hex.EncodeToString(mac(readerKey, r.site, o.Subject)[:16]), Pages: pages,
		},
		Hidden: hidden, MinCrowd: r.cfg.MinCrowd, Since: since,
	}
}

// Prune deletes the site's rows past the window now.
func (r *Recorder) Prune(ctx context.Context) error {
	return r.store.PruneInsights(ctx, r.site, r.now().Add(-r.window()))
}

func (r *Recorder) window() time.Duration {
	return time.Duration(r.cfg.RetentionDays) * 24 * time.Hour
}
