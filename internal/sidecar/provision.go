package sidecar

import (
	"context"
	"fmt"
	"io/fs"
	"log/slog"
	"net/http"
	"os"
	"strings"
	"time"

	"github.com/askplane/askplane/internal/access"
	"github.com/askplane/askplane/internal/corpus"
	"github.com/askplane/askplane/internal/engines"
	"github.com/askplane/askplane/internal/generate"
	"github.com/askplane/askplane/internal/insights"
	"github.com/askplane/askplane/internal/limit"
	"github.com/askplane/askplane/internal/protocol"
)

// Env looks up the environment variables a config names. New reads every
// secret through it, once, before anything listens.
type Env func(name string) (value string, ok bool)

func (e Env) lookup(name string) (string, bool) {
	if e == nil {
		return os.LookupEnv(name)
	}
	return e(name)
}

// get is lookup in os.Getenv's shape, for the provider adapters.
func (e Env) get(name string) string {
	v, _ := e.lookup(name)
	return v
}

// secret reads the secret the environment variable name holds, for the
// config field that names it: set, non-empty and at least min bytes.
// Errors name the field and the variable, never the value.
func (e Env) secret(field, name string, min int) (string, error) {
	v, ok := e.lookup(name)
	switch {
	case !ok || v == "":
		return "", fmt.Errorf("%s: environment variable %s is not set", field, name)
	case len(v) < min:
		return "", fmt.Errorf("%s: environment variable %s holds fewer than %d bytes", field, name, min)
	}
	return v, nil
}

// site is one configured site once provisioned: its trusted record,
// its secrets, its generator and, after loading, its corpus.
type site struct {
	cfg      *SiteConfig
	trusted  protocol.TrustedSite  // the record, validated once by check, for the handlers
	record   *protocol.BackendSite // trusted's record, for reading
	secret   []byte                // nil when not anonymous
	tokens   []access.Token        // from the environment
	auth     access.Checked        // its access (hosts, origins, tokens, cookie), checked once
	gen      generate.Generator
	public   fs.FS // nil without a public folder
	corpus   *corpus.Corpus
	raw      []byte // the corpus file's bytes, until the store retains them
	handler  http.Handler
	engine   *engines.Engine         // the retained engine it answers with
	issued   *limit.Recent[struct{}] // context_ids its answers named lately; nil unless it takes feedback
	insights *insights.Queue         // its insights writer; nil unless insights are on
	answers  *insights.Answers       // the pages of its recent answers, for feedback; nil unless insights and feedback are on
	// insightsToken is the owner's bearer token of /insights/<siteId>/;
	// nil serves no page.
	insightsToken []byte
}

// provisionSecrets reads every secret the checked config k names and
// builds each site's generator: the cheap steps that fail on a missing
// variable, done before any store is opened or corpus fetched. It checks
// nothing check established.
func provisionSecrets(k *checked, env Env, logger *slog.Logger) (sessions string, sites []*site, err error) {
	c := &k.cfg
	switch {
	case c.SessionsEnv != "":
		v, err := env.secret("sessionsEnv", c.SessionsEnv, 1)
		if err != nil {
			return "", nil, configErr("%v", err)
		}
		if !validSessionsDSN(v) {
			return "", nil, configErr("sessionsEnv: must hold memory:, sqlite:PATH or a postgres:// URL")
		}
		sessions = v
	case c.Sessions != "":
		sessions = c.Sessions
	default:
		sessions = "memory:"
	}
	for i, cs := range k.sites {
		s, err := provisionSite(cs, env, logger)
		if err != nil {
			return "", nil, configErr("sites[%d].%v", i, err)
		}
		sites = append(sites, s)
	}
	return sessions, sites, nil
}

// provisionSite reads the secrets of the site check established as cs.
func provisionSite(cs checkedSite, env Env, logger *slog.Logger) (*site, error) {
	sc := cs.cfg
	rec := cs.record.Record()
	s := &site{cfg: sc, trusted: cs.record, record: &rec, engine: cs.engine}
	for i, t := range sc.Tokens {
		v, err := env.secret(fmt.Sprintf("tokens[%d].env", i), t.Env, access.MinTokenBytes)
		if err != nil {
			return nil, err
		}
		s.tokens = append(s.tokens, access.Token{Subject: t.Subject, Secret: []byte(v)})
	}
	if sc.anonymous() {
		v, err := env.secret("cookieSecretEnv", sc.CookieSecretEnv, minSecretBytes)
		if err != nil {
			return nil, err
		}
		s.secret = []byte(v)
	}
	// The site's access, checked here once (its tokens, its cookie);
	// internal/ask trusts the Checked without a second check.
	auth, err := access.Check(s.access())
	if err != nil {
		msg := strings.TrimPrefix(err.Error(), "access: invalid access: ")
		if strings.HasPrefix(msg, "tokens") {
			return nil, fmt.Errorf("tokens: %s", msg)
		}
		return nil, fmt.Errorf("access: %s", msg)
	}
	s.auth = auth
	if in := sc.Insights; in != nil && in.OwnerTokenEnv != "" {
		v, err := env.secret("insights.ownerTokenEnv", in.OwnerTokenEnv, minSecretBytes)
		if err != nil {
			return nil, err
		}
		s.insightsToken = []byte(v)
	}
	if s.gen, err = sc.Generator.build(env, logger); err != nil {
		return nil, fmt.Errorf("generator: %s", strings.TrimPrefix(err.Error(), "provider: "))
	}
	if sc.Public != "" {
		s.public = os.DirFS(sc.Public)
	}
	return s, nil
}

// loadCorpus fetches the site's corpus from corpusUrl or reads it from the
// public folder, and checks it belongs to the site the record names.
func (s *site) loadCorpus(ctx context.Context) error {
	var err error
	if s.cfg.CorpusURL != "" {
		s.corpus, s.raw, err = corpus.FetchRaw(ctx, s.cfg.CorpusURL, s.cfg.Language)
	} else {
		s.corpus, s.raw, err = corpus.LoadDirRaw(s.public, s.cfg.Language)
	}
	if err != nil {
		return fmt.Errorf("loading the %s corpus: %w", s.cfg.Language, err)
	}
	if s.corpus.SiteID != s.record.SiteID {
		return fmt.Errorf("site.siteId %q differs from the corpus's siteId %q", s.record.SiteID, s.corpus.SiteID)
	}
	return nil
}

// capLimits caps the site's deadlines at limit (at least 100 ms, the
// record's own floor) and reports whether it changed any. The capped
// record stays trusted: lowering a valid deadline keeps it valid.
func (s *site) capLimits(limit time.Duration) bool {
	ms := int(min(limit/time.Millisecond, 120_000))
	var changed bool
	s.trusted, changed = s.trusted.CapDeadlines(ms)
	rec := s.trusted.Record()
	s.record = &rec
	return changed
}

// generations is the site's cap on answers being written at once.
func (s *site) generations() limit.GateConfig {
	if g := s.cfg.Generations; g != nil {
		wait := time.Duration(g.WaitMs) * time.Millisecond
		switch {
		case g.Queue == 0:
			wait = 0 // nobody waits, so there is no wait to bound
		case wait == 0:
			wait = DefaultGenerationWait
		}
		return limit.GateConfig{Slots: g.Max, Queue: g.Queue, MaxWait: wait}
	}
	n := DefaultExtractiveGenerations
	if s.gen != nil {
		n = DefaultModelGenerations
	}
	return limit.GateConfig{Slots: n, Queue: 4 * n, MaxWait: DefaultGenerationWait}
}

// access is the site's Authenticator.
func (s *site) access() *access.Policy {
	a := &access.Policy{Hosts: s.cfg.Hosts, Origins: s.cfg.Origins, SameOrigin: s.cfg.Static, Tokens: s.tokens}
	if s.secret != nil {
		sameSite := http.SameSiteLaxMode
		if s.cfg.CrossSiteCookie {
			sameSite = http.SameSiteNoneMode
		}
		a.Anonymous = &access.CookieAuth{SiteID: s.record.SiteID, Secret: s.secret, Secure: s.cfg.SecureCookie, SameSite: sameSite}
	}
	return a
}
