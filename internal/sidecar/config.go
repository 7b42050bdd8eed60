package sidecar

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"time"
	"unicode"

	"github.com/askplane/askplane/internal/access"
	"github.com/askplane/askplane/internal/baseurl"
	"github.com/askplane/askplane/internal/durable"
	"github.com/askplane/askplane/internal/engines"
	"github.com/askplane/askplane/internal/insights"
	"github.com/askplane/askplane/internal/protocol"
	"github.com/askplane/askplane/internal/session"
	"github.com/askplane/askplane/internal/store"
)

// Config is the file askplane serve reads (sidecar/config/askplane.example.json
// is a complete example). It is JSON, decoded strictly: an unknown member
// anywhere is an error, and so is a file over maxConfigBytes. A Config
// holds only what the file says: names of environment variables, never
// their values, which New reads when it provisions the server.
//
//	{
//	  "addr": "127.0.0.1:8080",        // listen address; --addr overrides it; default 127.0.0.1:8080
//	  "metrics": true,                 // serve GET /metrics (Prometheus text, every site's series)
//	  "sessions": "sqlite:sessions.db",// where conversations persist (see below); default
//	                                   //   sqlite:askplane-data/sessions.db next to the config file
//	  "sessionsEnv": "",               // or: NAME of an environment variable holding that value
//	                                   //   (use it for a postgres:// URL with a password)
//	  "sessionLimits": {…},            // bytes per session, per subject and in all (see SessionLimits)
//	  "hosts": ["ask.example.com"],    // Host values every route answers under, with the sites' own
//	  "edge": {…},                     // limits of the HTTP edge (see Edge); omitted: the defaults
//	  "sources": {…},                  // retained corpus versions and replay permits (see SourcesConfig)
//	  "runLease": "10s",               // how long an instance's claim on a durable run lasts unrenewed:
//	                                   //   a crashed instance's runs resume elsewhere this long after
//	                                   //   (100ms to 10m; default 30s, or a third of the shortest
//	                                   //   requestTimeoutMs / generationTimeoutMs of a model site if
//	                                   //   less; refused unless it and a sweep (a quarter of it, at
//	                                   //   most 5s) fit in that deadline; see RunsConfig)
//	  "sites": [{                      // one or more sites (at most maxConfigSites)
//	    "site": {…},                   // the trusted agentskit.chat.backend-site v1 record
//	                                   //   (siteId, assistant, corpus {id, mode}, limits, persistence),
//	                                   //   decoded with protocol.DecodeBackendSite; its siteId must be the corpus's
//	    "public": "public",            // the built Hugo site folder (relative to the config file)
//	    "corpusUrl": "",               // or: the published site's https URL to fetch the corpus from
//	                                   //   (<url>/askplane/<language>/manifest.json), instead of "public"
//	    "language": "en",              // which askplane/<language>/ corpus to answer from
//	    "hosts": ["ask.example.com"],  // Host values the sidecar is reached under (DNS-rebinding
//	                                   //   guard); omitted or empty allows any
//	    "origins": ["https://docs.example.com"],
//	                                   // Origin values allowed to ask, with CORS for them
//	                                   //   (browsers elsewhere get 403)
//	    "anonymous": true,             // let browsers ask with a signed anonymous cookie; false makes
//	                                   //   a private site where every request needs a bearer token
//	    "tokens": [{"subject": "ci-bot", "env": "ASKPLANE_TOKEN_CI"}],
//	                                   // bearer tokens: each asks as "token:<subject>"; env NAMES the
//	                                   //   environment variable holding the token (32+ bytes)
//	    "cookieSecretEnv": "ASKPLANE_COOKIE_SECRET",
//	                                   // NAME of the environment variable holding the cookie
//	                                   //   signing secret (at least 32 bytes); never the secret itself;
//	                                   //   required when anonymous
//	    "secureCookie": true,          // mark the subject cookie Secure (set it behind https)
//	    "crossSiteCookie": false,      // SameSite=None for a widget on another site than the sidecar
//	                                   //   (needs secureCookie)
//	    "rateLimit": {"requests": 60, "windowSeconds": 60},
//	                                   // per subject and site; omitted means 60 per 60 s
//	    "generations": {…},            // concurrent answers being written (see Generations)
//	    "static": false,               // also serve "public" at / (at most one site)
//	    "feedback": false,             // take readers' helpful / not helpful verdicts on backend answers
//	                                   //   at POST /v1/feedback (counted in askplane_feedback_total)
//	    "insights": {"retentionDays": 30, "minCrowd": 5, "ownerTokenEnv": "ASKPLANE_INSIGHTS_TOKEN"},
//	                                   // record how questions end, never their text (off when
//	                                   //   omitted; needs sessions on SQLite or PostgreSQL); see
//	                                   //   internal/insights and docs/operating.md; ownerTokenEnv
//	                                   //   (optional) serves the owner's page at /insights/<siteId>/
//	    "generator": {…},              // how answers are written; omitted: extractive
//	                                   //   (see GeneratorConfig)
//	    "runs": {…},                   // a model site's durable answers: budgets and the tool loop
//	                                   //   (see RunsConfig); false keeps its answers live
//	    "engine": "askplane.bm25/6"    // the retrieval engine; omitted: engines.Current()
//	                                   //   (askplane.bm25/1 stays available for old recipes)
//	  }]
//	}
//
// sessions is "memory:" (forgotten on restart), "sqlite:PATH" (a file,
// relative to the config file; the embedded default for one instance) or
// a postgres:// URL (several instances sharing one database).
//
// With one site, POST /v1/ask answers for it. With several, /v1/ask routes
// by the ?corpus= hint to the site whose site.corpus.id it names; a request
// without a hint, or naming no configured corpus, gets 403 ASK_FORBIDDEN.
type Config struct {
	Addr        string `json:"addr"`
	Metrics     bool   `json:"metrics"`
	Sessions    string `json:"sessions"`
	SessionsEnv string `json:"sessionsEnv"`
	// SessionLimits bound the bytes sessions take (see SessionLimits).
	SessionLimits SessionLimits `json:"sessionLimits"`
	Hosts         []string      `json:"hosts"`
	Edge          Edge          `json:"edge"`
	// Sources bound the retained corpus versions (see SourcesConfig).
	Sources *SourcesConfig `json:"sources"`
	// RunLease is the lease of the durable runs this instance executes.
	RunLease Duration     `json:"runLease"`
	Sites    []SiteConfig `json:"sites"`
}

// SiteConfig is one site of a Config; see Config for each field.
type SiteConfig struct {
	Site            json.RawMessage `json:"site"`
	Public          string          `json:"public"`
	CorpusURL       string          `json:"corpusUrl"`
	Language        string          `json:"language"`
	Hosts           []string        `json:"hosts"`
	Origins         []string        `json:"origins"`
	Anonymous       *bool           `json:"anonymous"`
	Tokens          []TokenConfig   `json:"tokens"`
	CookieSecretEnv string          `json:"cookieSecretEnv"`
	SecureCookie    bool            `json:"secureCookie"`
	CrossSiteCookie bool            `json:"crossSiteCookie"`
	RateLimit       *RateLimit      `json:"rateLimit"`
	Generations     *Generations    `json:"generations"`
	Static          bool            `json:"static"`
	// CSP is the Content-Security-Policy sent with the static site's
	// HTML; empty sends the widget's own, static.DefaultCSP, which keeps
	// out what a theme may load from other hosts or run inline.
	CSP string `json:"csp"`
	// Feedback lets the site's readers post helpful / not helpful
	// verdicts to /v1/feedback (off by default).
	Feedback bool `json:"feedback"`
	// Insights records each question's outcome for the coverage-gap
	// report (askplane insights); nil keeps it off.
	Insights  *insights.Config `json:"insights"`
	Generator *GeneratorConfig `json:"generator"`
	Engine    string           `json:"engine"`
	Runs      *RunsConfig      `json:"runs"` // runs.go
}

// TokenConfig names one bearer token: who it asks as, and the environment
// variable that holds it (the config never holds a secret).
type TokenConfig struct {
	Subject string `json:"subject"`
	Env     string `json:"env"`
}

// anonymous reports whether browsers may ask without a token (the default).
func (s *SiteConfig) anonymous() bool { return s.Anonymous == nil || *s.Anonymous }

// RateLimit allows Requests per WindowSeconds.
type RateLimit struct {
	Requests      int `json:"requests"`
	WindowSeconds int `json:"windowSeconds"`
}

// Bounds of a config file.
const (
	maxConfigBytes = 1 << 20
	maxConfigSites = 64
	maxOrigins     = 64
	maxHosts       = 64
	maxCSPBytes    = 4096 // one header line, well under the header limits of proxies
	minSecretBytes = 32
	// DefaultAddr is where the sidecar listens when neither the config
	// nor the command line says.
	DefaultAddr = "127.0.0.1:8080"
	// defaultSessionsFile is where askplane serve keeps sessions when the
	// config file names no store, relative to the config file.
	defaultSessionsFile = "askplane-data/sessions.db"
	defaultRequests     = 60
	defaultWindow       = 60
)

// ErrConfig is wrapped by every config error, from Decode, Load and New.
var ErrConfig = errors.New("config")

func configErr(format string, args ...any) error {
	return fmt.Errorf("%w: %s", ErrConfig, fmt.Sprintf(format, args...))
}

// Load reads and decodes a config file. Relative public folders and
// SQLite files are taken from the config file's folder, and a file that
// names no session store gets the embedded default, SQLite beside it.
func Load(path string) (*Config, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, configErr("cannot open %s", path)
	}
	defer f.Close()
	data, err := io.ReadAll(io.LimitReader(f, maxConfigBytes+1))
	if err != nil {
		return nil, configErr("cannot read %s", path)
	}
	c, err := Decode(data)
	if err != nil {
		return nil, err
	}
	dir := filepath.Dir(path)
	for i := range c.Sites {
		if p := c.Sites[i].Public; p != "" && !filepath.IsAbs(p) {
			c.Sites[i].Public = filepath.Join(dir, p)
		}
	}
	if c.Sessions == "" && c.SessionsEnv == "" {
		c.Sessions = "sqlite:" + defaultSessionsFile
	}
	if file, ok := strings.CutPrefix(c.Sessions, "sqlite:"); ok && file != "" && !filepath.IsAbs(file) {
		c.Sessions = "sqlite:" + filepath.Join(dir, file)
	}
	return c, nil
}

// Decode decodes config bytes strictly (size, syntax, unknown members,
// types). It validates nothing else: New does, once (Config.check), before
// it reads an environment variable or opens a file, so a Config may be
// edited between the two (the command line's --addr, a test's folder).
func Decode(data []byte) (*Config, error) {
	if len(data) > maxConfigBytes {
		return nil, configErr("larger than %d bytes", maxConfigBytes)
	}
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.DisallowUnknownFields()
	var c Config
	if err := dec.Decode(&c); err != nil {
		return nil, configErr("not a valid config: %s", jsonReason(err))
	}
	if _, err := dec.Token(); err != io.EOF {
		return nil, configErr("trailing data after the config object")
	}
	return &c, nil
}

// memberError is a member's own decoding failure (its UnmarshalJSON),
// named; reason never quotes the input's values.
type memberError struct{ member, reason string }

func (e *memberError) Error() string { return e.member + ": " + e.reason }

// jsonReason says why decoding failed without quoting the input's values
// (a misplaced secret must not reach a log).
func jsonReason(err error) string {
	var syn *json.SyntaxError
	var typ *json.UnmarshalTypeError
	var mem *memberError
	switch {
	case errors.As(err, &mem):
		return mem.member + ": " + mem.reason
	case errors.As(err, &syn):
		return fmt.Sprintf("JSON syntax error at byte %d", syn.Offset)
	case errors.As(err, &typ):
		return fmt.Sprintf("%s must be %s", typ.Field, typ.Type)
	case strings.HasPrefix(err.Error(), "json: unknown field "):
		return "unknown field " + strings.TrimPrefix(err.Error(), "json: unknown field ")
	case errors.Is(err, io.EOF), errors.Is(err, io.ErrUnexpectedEOF):
		return "unexpected end of JSON"
	}
	return "invalid JSON"
}

// checked is a Config that check accepted, with what it established as
// typed values: only check makes one, and the later steps (provisioning,
// routes, the handlers' configs, OpenInsights) take it and never check
// again. It holds its own copy of the config and of its sites list, so
// editing the Config afterwards changes nothing it holds.
type checked struct {
	cfg   Config
	sites []checkedSite // in cfg.Sites' order
}

// checkedSite is what check established about one site.
type checkedSite struct {
	cfg    *SiteConfig          // the site as the config gives it (in checked.cfg.Sites)
	record protocol.TrustedSite // its backend-site record, decoded and validated once
	engine *engines.Engine      // the retained engine it answers with
}

// check validates what the config says (everything that needs no
// environment, file or network) and returns it as a checked config. It
// changes nothing. It is the one validation of a config: New and
// OpenInsights run it first, and nothing after decodes or validates a
// site's record again.
func (c *Config) check() (*checked, error) {
	if c.Addr != "" {
		if _, _, err := net.SplitHostPort(c.Addr); err != nil {
			return nil, configErr("addr must be host:port")
		}
	}
	if err := checkSessions(c.Sessions, c.SessionsEnv); err != nil {
		return nil, err
	}
	if err := c.SessionLimits.check(); err != nil {
		return nil, configErr("sessionLimits: %v", err)
	}
	if err := checkHosts(c.Hosts); err != nil {
		return nil, configErr("%v", err)
	}
	if err := c.Edge.check(); err != nil {
		return nil, configErr("edge.%v", err)
	}
	if err := c.Sources.check(); err != nil {
		return nil, configErr("sources.%v", err)
	}
	if l := time.Duration(c.RunLease); l != 0 && (l < 100*time.Millisecond || l > durable.MaxLease) {
		return nil, configErr("runLease: must be 100ms to 10m")
	}
	switch {
	case len(c.Sites) == 0:
		return nil, configErr("sites: at least one site is required")
	case len(c.Sites) > maxConfigSites:
		return nil, configErr("sites: at most %d sites", maxConfigSites)
	}
	k := &checked{cfg: *c}
	k.cfg.Sites = slices.Clone(c.Sites)
	k.cfg.Hosts = slices.Clone(c.Hosts)
	corpora := make(map[string]int)
	static := -1
	for i := range k.cfg.Sites {
		s := &k.cfg.Sites[i]
		cs, err := s.check()
		if err != nil {
			return nil, configErr("sites[%d].%v", i, err)
		}
		k.sites = append(k.sites, cs)
		site := cs.record.Record()
		if j, dup := corpora[site.Corpus.ID]; dup {
			return nil, configErr("sites[%d].site.corpus.id: %q is also sites[%d]'s; corpus ids route requests and must be unique", i, site.Corpus.ID, j)
		}
		corpora[site.Corpus.ID] = i
		if l := time.Duration(c.RunLease); l != 0 && s.durableSite() && !leaseFits(l, runDeadline(site.Limits)) {
			return nil, configErr("runLease: %v cannot run out and be swept (every %v) before sites[%d]'s runs end (%v, the smaller of limits.requestTimeoutMs and limits.generationTimeoutMs): a crashed instance's runs would never be resumed; shorten runLease or omit it",
				l, sweepInterval(l), i, runDeadline(site.Limits))
		}
		if s.Static {
			if static >= 0 {
				return nil, configErr("sites[%d].static: sites[%d] is already served at /; only one site may set static", i, static)
			}
			static = i
		}
	}
	return k, nil
}

// check validates one site as the file gives it and returns its decoded
// backend-site record and engine.
func (s *SiteConfig) check() (checkedSite, error) {
	site, err := s.record()
	if err != nil {
		return checkedSite{}, err
	}
	switch {
	case s.Public == "" && s.CorpusURL == "":
		return checkedSite{}, errors.New("public: the built site folder (or corpusUrl) is required")
	case s.Public != "" && s.CorpusURL != "" && !s.Static:
		return checkedSite{}, errors.New("corpusUrl: give public or corpusUrl, not both (public is still needed for static)")
	case s.CorpusURL != "" && !validEndpoint(s.CorpusURL):
		return checkedSite{}, errors.New("corpusUrl: must be an https URL (plain http only to a loopback address)")
	case s.Static && s.Public == "":
		return checkedSite{}, errors.New("static: needs the public folder")
	case s.CSP != "" && !s.Static:
		return checkedSite{}, errors.New("csp: only a static site's pages are sent one")
	case strings.ContainsFunc(s.CSP, unicode.IsControl) || len(s.CSP) > maxCSPBytes:
		return checkedSite{}, fmt.Errorf("csp: one header line of at most %d bytes, no control character", maxCSPBytes)
	}
	if !protocol.ValidIdentifier(s.Language) {
		return checkedSite{}, errors.New("language: must be a language code such as \"en\"")
	}
	engine := engines.Current()
	if s.Engine != "" {
		e, ok := engines.Lookup(s.Engine)
		if !ok {
			return checkedSite{}, fmt.Errorf("engine: %q is not one of the retained engines %q", s.Engine, engineIDs())
		}
		engine = e
	}
	if len(s.Origins) > maxOrigins {
		return checkedSite{}, fmt.Errorf("origins: at most %d", maxOrigins)
	}
	for _, o := range s.Origins {
		if !strings.HasPrefix(o, "https://") && !strings.HasPrefix(o, "http://") || strings.Count(o, "/") != 2 {
			return checkedSite{}, errors.New("origins: each must be scheme://host[:port], without a path")
		}
	}
	if err := checkHosts(s.Hosts); err != nil {
		return checkedSite{}, err
	}
	if len(s.Tokens) > access.MaxTokens {
		return checkedSite{}, fmt.Errorf("tokens: at most %d", access.MaxTokens)
	}
	for i, t := range s.Tokens {
		if t.Env == "" {
			return checkedSite{}, fmt.Errorf("tokens[%d].env: name the environment variable holding the token", i)
		}
	}
	switch {
	case !s.anonymous() && len(s.Tokens) == 0:
		return checkedSite{}, errors.New("anonymous: false needs at least one token, or nobody could ask")
	case s.CrossSiteCookie && !s.SecureCookie:
		return checkedSite{}, errors.New("crossSiteCookie: browsers only send a SameSite=None cookie that is Secure; set secureCookie too")
	case s.anonymous() && s.CookieSecretEnv == "":
		return checkedSite{}, errors.New("cookieSecretEnv: name the environment variable holding the cookie secret")
	}
	if r := s.RateLimit; r != nil {
		if err := r.check("rateLimit"); err != nil {
			return checkedSite{}, err
		}
	}
	if g := s.Generations; g != nil {
		if err := g.check(); err != nil {
			return checkedSite{}, err
		}
	}
	if err := s.Runs.check(); err != nil {
		return checkedSite{}, err
	}
	if s.Insights != nil {
		if err := s.Insights.Check(); err != nil {
			return checkedSite{}, fmt.Errorf("insights.%v", err)
		}
	}
	if err := s.Generator.check(); err != nil {
		return checkedSite{}, fmt.Errorf("generator: %v", err)
	}
	return checkedSite{cfg: s, record: site, engine: engine}, nil
}

// record decodes and validates the site's backend-site record, once,
// into the trusted record the handlers take.
func (s *SiteConfig) record() (protocol.TrustedSite, error) {
	if len(s.Site) == 0 || string(s.Site) == "null" {
		return protocol.TrustedSite{}, errors.New("site: the backend-site record is required")
	}
	site, err := protocol.TrustBackendSite(s.Site)
	if err != nil {
		if errors.Is(err, protocol.ErrInvalidBackendSite) {
			return protocol.TrustedSite{}, fmt.Errorf("site: %s", strings.TrimPrefix(err.Error(), "protocol: "))
		}
		return protocol.TrustedSite{}, errors.New("site: invalid backend site")
	}
	return site, nil
}

// SessionLimits bound what conversations take, in bytes as the stores
// measure them (session.Size: the stored JSON plus 64 bytes a record).
// Every field is optional:
//
//	"sessionLimits": {
//	  "maxSessionBytes": 131072,     // one conversation; older turns are dropped to fit
//	  "maxSubjectBytes": 524288,     // one reader's conversations on one site; past it
//	                                 //   that reader's oldest go first
//	  "maxTotalBytes": 1073741824    // everything; 64 MiB for memory:; the oldest go
//	}
type SessionLimits struct {
	MaxSessionBytes int64 `json:"maxSessionBytes"`
	MaxSubjectBytes int64 `json:"maxSubjectBytes"`
	MaxTotalBytes   int64 `json:"maxTotalBytes"`
}

func (l SessionLimits) limits() session.Limits {
	return session.Limits{MaxSessionBytes: l.MaxSessionBytes, MaxSubjectBytes: l.MaxSubjectBytes, MaxTotalBytes: l.MaxTotalBytes}
}

// check validates the limits filled with the durable stores' defaults;
// the store that opens applies its own defaults again.
func (l SessionLimits) check() error {
	if l.MaxSessionBytes < 0 || l.MaxSubjectBytes < 0 || l.MaxTotalBytes < 0 {
		return errors.New("limits must be positive")
	}
	switch err := l.limits().Or(session.DefaultDurableLimits()).Validate(); {
	case errors.Is(err, session.ErrSessionBytesTooSmall):
		return fmt.Errorf("maxSessionBytes: at least %d, so any single question fits", session.MinSessionBytes)
	case err != nil:
		return errors.New("must be maxSessionBytes <= maxSubjectBytes <= maxTotalBytes (with the defaults filling what is omitted)")
	}
	return nil
}

// rateLimit is the site's per-subject limit, or the default.
func (s *SiteConfig) rateLimit() RateLimit {
	if s.RateLimit == nil {
		return RateLimit{Requests: defaultRequests, WindowSeconds: defaultWindow}
	}
	return *s.RateLimit
}

func (r RateLimit) check(field string) error {
	if r.Requests < 1 || r.Requests > 1_000_000 {
		return fmt.Errorf("%s.requests: must be 1 to 1000000", field)
	}
	if r.WindowSeconds < 1 || r.WindowSeconds > 86_400 {
		return fmt.Errorf("%s.windowSeconds: must be 1 to 86400", field)
	}
	return nil
}

func checkHosts(hosts []string) error {
	if len(hosts) > maxHosts {
		return fmt.Errorf("hosts: at most %d", maxHosts)
	}
	for _, h := range hosts {
		if h == "" || strings.ContainsAny(h, "/@ ") {
			return errors.New("hosts: each must be host or host:port")
		}
	}
	return nil
}

// checkSessions checks where sessions persist as the file says it.
// Errors never quote the value, which may be a database URL with a
// password.
func checkSessions(sessions, env string) error {
	switch {
	case sessions != "" && env != "":
		return configErr("sessions: give sessions or sessionsEnv, not both")
	case sessions == "":
		return nil
	case strings.HasPrefix(sessions, "postgres") && strings.Contains(sessions, "@"):
		return configErr("sessions: a database URL with credentials belongs in an environment variable; name it in sessionsEnv")
	case !validSessionsDSN(sessions):
		return configErr("sessions: must be memory:, sqlite:PATH or a postgres:// URL")
	}
	return nil
}

// validEndpoint reports whether raw passes baseurl.Parse, the rule
// corpus.FetchRaw applies when it fetches, so a bad corpusUrl fails here.
func validEndpoint(raw string) bool {
	_, err := baseurl.Parse(raw)
	return err == nil
}

// validSessionsDSN reports whether s names a store as store.Open reads
// it, spelled out: the config takes a SQLite file only as sqlite:PATH,
// not as a bare path.
func validSessionsDSN(s string) bool {
	kind, err := store.Kind(s)
	return err == nil && (kind != store.KindSQLite || strings.HasPrefix(s, "sqlite:"))
}

// engineIDs lists the retained engines' ids, current first.
func engineIDs() []string {
	var ids []string
	for _, e := range engines.All() {
		ids = append(ids, e.ID)
	}
	return ids
}
