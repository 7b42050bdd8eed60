package main

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"log/slog"
	"net"
	"os"
	"path/filepath"
	"strings"

	"github.com/askplane/askplane/internal/ask"
	"github.com/askplane/askplane/internal/corpus"
	"github.com/askplane/askplane/internal/endpoint"
	"github.com/askplane/askplane/internal/generate"
	"github.com/askplane/askplane/internal/protocol"
	"github.com/askplane/askplane/internal/store"
)

// Config is the file askplane serve reads (sidecar/config/askplane.example.json
// is a complete example). It is JSON, decoded strictly: an unknown member
// anywhere is an error, and so is a file over maxConfigBytes.
//
//	{
//	  "addr": "127.0.0.1:8080",        // listen address; --addr overrides it; default 127.0.0.1:8080
//	  "metrics": true,                 // serve GET /metrics (Prometheus text, every site's series)
//	  "sessions": "sqlite:sessions.db",// where conversations persist (see below); default
//	                                   //   sqlite:askplane-data/sessions.db next to the config file
//	  "sessionsEnv": "",               // or: NAME of an environment variable holding that value
//	                                   //   (use it for a postgres:// URL with a password)
//	  "sites": [{                      // one or more sites (at most maxConfigSites)
//	    "site": {…},                   // the trusted agentskit.chat.backend-site v1 record
//	                                   //   (siteId, assistant, corpus {id, mode}, limits, persistence),
//	                                   //   decoded with ask.DecodeSite; its siteId must be the corpus's
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
//	    "static": false,               // also serve "public" at / (at most one site)
//	    "generator": {…}               // how answers are written; omitted: extractive
//	                                   //   (see GeneratorConfig)
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
	Addr        string       `json:"addr"`
	Metrics     bool         `json:"metrics"`
	Sessions    string       `json:"sessions"`
	SessionsEnv string       `json:"sessionsEnv"`
	Sites       []SiteConfig `json:"sites"`

	sessions string // resolved by Validate: Sessions, or the value SessionsEnv names
}

// SiteConfig is one site of a Config; see Config for each field.
type SiteConfig struct {
	Site            json.RawMessage  `json:"site"`
	Public          string           `json:"public"`
	CorpusURL       string           `json:"corpusUrl"`
	Language        string           `json:"language"`
	Hosts           []string         `json:"hosts"`
	Origins         []string         `json:"origins"`
	Anonymous       *bool            `json:"anonymous"`
	Tokens          []TokenConfig    `json:"tokens"`
	CookieSecretEnv string           `json:"cookieSecretEnv"`
	SecureCookie    bool             `json:"secureCookie"`
	CrossSiteCookie bool             `json:"crossSiteCookie"`
	RateLimit       *RateLimit       `json:"rateLimit"`
	Static          bool             `json:"static"`
	Generator       *GeneratorConfig `json:"generator"`

	// Resolved by Validate (or set directly by askplane dev).
	site   *ask.Site
	secret []byte             // nil when not anonymous
	tokens []ask.Token        // from the environment
	gen    generate.Generator // nil: the extractive default
	genSet bool               // gen resolved
	fsys   fs.FS              // nil means os.DirFS(Public)
	corpus *corpus.Corpus     // nil means loaded by newServer
}

// TokenConfig names one bearer token: who it asks as, and the environment
// variable that holds it (the config never holds a secret).
type TokenConfig struct {
	Subject string `json:"subject"`
	Env     string `json:"env"`
}

// anonymous reports whether browsers may ask without a token (the default).
func (s *SiteConfig) anonymous() bool { return s.Anonymous == nil || *s.Anonymous }

// RateLimit allows Requests per WindowSeconds for each subject of a site.
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
	minSecretBytes = 32
	defaultAddr    = "127.0.0.1:8080"
	// defaultSessionsFile is where askplane serve keeps sessions when the
	// config file names no store, relative to the config file.
	defaultSessionsFile = "askplane-data/sessions.db"
	defaultRequests     = 60
	defaultWindow       = 60
)

// errConfig prefixes every config error.
var errConfig = errors.New("config")

func configErr(format string, args ...any) error {
	return fmt.Errorf("%w: %s", errConfig, fmt.Sprintf(format, args...))
}

// LoadConfig reads, decodes and validates a config file. Relative public
// folders are taken from the config file's folder.
func LoadConfig(path string) (*Config, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, configErr("cannot open %s", path)
	}
	defer f.Close()
	data, err := io.ReadAll(io.LimitReader(f, maxConfigBytes+1))
	if err != nil {
		return nil, configErr("cannot read %s", path)
	}
	c, err := DecodeConfig(data)
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
		// The embedded default: SQLite in a folder beside the config.
		c.sessions = "sqlite:" + defaultSessionsFile
	}
	if file, ok := strings.CutPrefix(c.sessions, "sqlite:"); ok && file != "" && !filepath.IsAbs(file) {
		c.sessions = "sqlite:" + filepath.Join(dir, file)
	}
	return c, nil
}

// DecodeConfig decodes config bytes strictly and validates them.
func DecodeConfig(data []byte) (*Config, error) {
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
	if err := c.Validate(); err != nil {
		return nil, err
	}
	return &c, nil
}

// jsonReason says why decoding failed without quoting the input's values
// (a misplaced secret must not reach a log).
func jsonReason(err error) string {
	var syn *json.SyntaxError
	var typ *json.UnmarshalTypeError
	switch {
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

// Validate checks the whole config, decodes each site record and resolves
// each cookie secret from the environment. Errors name the field, never a
// value read from the environment.
func (c *Config) Validate() error {
	if c.Addr == "" {
		c.Addr = defaultAddr
	} else if _, _, err := net.SplitHostPort(c.Addr); err != nil {
		return configErr("addr must be host:port")
	}
	if err := c.validateSessions(); err != nil {
		return err
	}
	switch {
	case len(c.Sites) == 0:
		return configErr("sites: at least one site is required")
	case len(c.Sites) > maxConfigSites:
		return configErr("sites: at most %d sites", maxConfigSites)
	}
	corpora := make(map[string]int)
	static := -1
	for i := range c.Sites {
		s := &c.Sites[i]
		if err := s.validate(); err != nil {
			return configErr("sites[%d].%v", i, err)
		}
		if j, dup := corpora[s.site.Corpus.ID]; dup {
			return configErr("sites[%d].site.corpus.id: %q is also sites[%d]'s; corpus ids route requests and must be unique", i, s.site.Corpus.ID, j)
		}
		corpora[s.site.Corpus.ID] = i
		if s.Static {
			if static >= 0 {
				return configErr("sites[%d].static: sites[%d] is already served at /; only one site may set static", i, static)
			}
			static = i
		}
	}
	return nil
}

func (s *SiteConfig) validate() error {
	if s.site == nil {
		if len(s.Site) == 0 || string(s.Site) == "null" {
			return errors.New("site: the backend-site record is required")
		}
		site, err := ask.DecodeSite(s.Site)
		if err != nil {
			if errors.Is(err, ask.ErrInvalidSite) {
				return fmt.Errorf("site: %s", strings.TrimPrefix(err.Error(), "ask: "))
			}
			return errors.New("site: invalid backend site")
		}
		s.site = site
	}
	switch {
	case s.fsys != nil || s.corpus != nil:
	case s.Public == "" && s.CorpusURL == "":
		return errors.New("public: the built site folder (or corpusUrl) is required")
	case s.Public != "" && s.CorpusURL != "" && !s.Static:
		return errors.New("corpusUrl: give public or corpusUrl, not both (public is still needed for static)")
	case s.CorpusURL != "" && !validEndpoint(s.CorpusURL):
		return errors.New("corpusUrl: must be an https URL (plain http only to a loopback address)")
	case s.Static && s.Public == "":
		return errors.New("static: needs the public folder")
	}
	if !protocol.ValidIdentifier(s.Language) {
		return errors.New("language: must be a language code such as \"en\"")
	}
	if len(s.Origins) > maxOrigins {
		return fmt.Errorf("origins: at most %d", maxOrigins)
	}
	for _, o := range s.Origins {
		if !strings.HasPrefix(o, "https://") && !strings.HasPrefix(o, "http://") || strings.Count(o, "/") != 2 {
			return errors.New("origins: each must be scheme://host[:port], without a path")
		}
	}
	if len(s.Hosts) > maxHosts {
		return fmt.Errorf("hosts: at most %d", maxHosts)
	}
	for _, h := range s.Hosts {
		if h == "" || strings.ContainsAny(h, "/@ ") {
			return errors.New("hosts: each must be host or host:port")
		}
	}
	if err := s.validateTokens(); err != nil {
		return err
	}
	if !s.anonymous() && len(s.tokens) == 0 {
		return errors.New("anonymous: false needs at least one token, or nobody could ask")
	}
	if s.CrossSiteCookie && !s.SecureCookie {
		return errors.New("crossSiteCookie: browsers only send a SameSite=None cookie that is Secure; set secureCookie too")
	}
	if s.secret == nil && s.anonymous() {
		if s.CookieSecretEnv == "" {
			return errors.New("cookieSecretEnv: name the environment variable holding the cookie secret")
		}
		v, err := envSecret("cookieSecretEnv", s.CookieSecretEnv, minSecretBytes)
		if err != nil {
			return err
		}
		s.secret = []byte(v)
	}
	if !s.genSet {
		gen, err := s.Generator.build(slog.Default())
		if err != nil {
			return fmt.Errorf("generator: %s", strings.TrimPrefix(err.Error(), "provider: "))
		}
		s.gen, s.genSet = gen, true
	}
	if s.RateLimit == nil {
		s.RateLimit = &RateLimit{Requests: defaultRequests, WindowSeconds: defaultWindow}
	}
	if s.RateLimit.Requests < 1 || s.RateLimit.Requests > 1_000_000 {
		return errors.New("rateLimit.requests: must be 1 to 1000000")
	}
	if s.RateLimit.WindowSeconds < 1 || s.RateLimit.WindowSeconds > 86_400 {
		return errors.New("rateLimit.windowSeconds: must be 1 to 86400")
	}
	return nil
}

// validateTokens reads each token from the environment variable it names.
// Errors name the variable, never its value.
func (s *SiteConfig) validateTokens() error {
	if len(s.Tokens) > ask.MaxTokens {
		return fmt.Errorf("tokens: at most %d", ask.MaxTokens)
	}
	if s.tokens != nil {
		return nil
	}
	for i, t := range s.Tokens {
		if t.Env == "" {
			return fmt.Errorf("tokens[%d].env: name the environment variable holding the token", i)
		}
		v, err := envSecret(fmt.Sprintf("tokens[%d].env", i), t.Env, ask.MinTokenBytes)
		if err != nil {
			return err
		}
		s.tokens = append(s.tokens, ask.Token{Subject: t.Subject, Secret: []byte(v)})
	}
	if err := ask.ValidateTokens(s.tokens); err != nil {
		return fmt.Errorf("tokens: %s", strings.TrimPrefix(err.Error(), "ask: invalid access: "))
	}
	return nil
}

// envSecret reads the secret the environment variable name holds, for the
// config field that names it: set, non-empty and at least min bytes.
// Errors name the field and the variable, never the value.
func envSecret(field, name string, min int) (string, error) {
	v, ok := os.LookupEnv(name)
	switch {
	case !ok || v == "":
		return "", fmt.Errorf("%s: environment variable %s is not set", field, name)
	case len(v) < min:
		return "", fmt.Errorf("%s: environment variable %s holds fewer than %d bytes", field, name, min)
	}
	return v, nil
}

// validateSessions resolves where sessions persist. Errors never quote
// the value, which may be a database URL with a password.
func (c *Config) validateSessions() error {
	switch {
	case c.Sessions != "" && c.SessionsEnv != "":
		return configErr("sessions: give sessions or sessionsEnv, not both")
	case c.SessionsEnv != "":
		v, err := envSecret("sessionsEnv", c.SessionsEnv, 1)
		if err != nil {
			return configErr("%v", err)
		}
		c.sessions = v
	case c.Sessions != "":
		if strings.HasPrefix(c.Sessions, "postgres") && strings.Contains(c.Sessions, "@") {
			return configErr("sessions: a database URL with credentials belongs in an environment variable; name it in sessionsEnv")
		}
		c.sessions = c.Sessions
	default:
		c.sessions = "memory:"
	}
	if !validSessionsDSN(c.sessions) {
		return configErr("sessions: must be memory:, sqlite:PATH or a postgres:// URL")
	}
	return nil
}

// validEndpoint reports whether raw passes endpoint.Parse, the rule
// corpus.Fetch applies when it fetches, so a bad corpusUrl fails here.
func validEndpoint(raw string) bool {
	_, err := endpoint.Parse(raw)
	return err == nil
}

// validSessionsDSN reports whether s names a store as store.Open reads
// it, spelled out: the config takes a SQLite file only as sqlite:PATH,
// not as a bare path.
func validSessionsDSN(s string) bool {
	kind, err := store.Kind(s)
	return err == nil && (kind != store.KindSQLite || strings.HasPrefix(s, "sqlite:"))
}
