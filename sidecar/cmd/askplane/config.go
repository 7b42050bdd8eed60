package main

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"net"
	"os"
	"path/filepath"
	"strings"

	"github.com/askplane/askplane/internal/ask"
	"github.com/askplane/askplane/internal/corpus"
	"github.com/askplane/askplane/internal/protocol"
)

// Config is the file askplane serve reads (sidecar/config/askplane.example.json
// is a complete example). It is JSON, decoded strictly: an unknown member
// anywhere is an error, and so is a file over maxConfigBytes.
//
//	{
//	  "addr": "127.0.0.1:8080",        // listen address; --addr overrides it; default 127.0.0.1:8080
//	  "metrics": true,                 // serve GET /metrics (Prometheus text, every site's series)
//	  "sites": [{                      // one or more sites (at most maxConfigSites)
//	    "site": {…},                   // the trusted agentskit.chat.backend-site v1 record
//	                                   //   (siteId, assistant, corpus {id, mode}, limits, persistence),
//	                                   //   decoded with ask.DecodeSite; its siteId must be the corpus's
//	    "public": "public",            // the built Hugo site folder (relative to the config file)
//	    "language": "en",              // which askplane/<language>/ corpus to answer from
//	    "origins": ["https://docs.example.com"],
//	                                   // Origin values allowed to ask (browsers elsewhere get 403)
//	    "cookieSecretEnv": "ASKPLANE_COOKIE_SECRET",
//	                                   // NAME of the environment variable holding the cookie
//	                                   //   signing secret (at least 32 bytes); never the secret itself
//	    "secureCookie": true,          // mark the subject cookie Secure (set it behind https)
//	    "rateLimit": {"requests": 60, "windowSeconds": 60},
//	                                   // per browser (subject) and site; omitted means 60 per 60 s
//	    "static": false                // also serve "public" at / (at most one site)
//	  }]
//	}
//
// With one site, POST /v1/ask answers for it. With several, /v1/ask routes
// by the ?corpus= hint to the site whose site.corpus.id it names; a request
// without a hint, or naming no configured corpus, gets 403 ASK_FORBIDDEN.
type Config struct {
	Addr    string       `json:"addr"`
	Metrics bool         `json:"metrics"`
	Sites   []SiteConfig `json:"sites"`
}

// SiteConfig is one site of a Config; see Config for each field.
type SiteConfig struct {
	Site            json.RawMessage `json:"site"`
	Public          string          `json:"public"`
	Language        string          `json:"language"`
	Origins         []string        `json:"origins"`
	CookieSecretEnv string          `json:"cookieSecretEnv"`
	SecureCookie    bool            `json:"secureCookie"`
	RateLimit       *RateLimit      `json:"rateLimit"`
	Static          bool            `json:"static"`

	// Resolved by Validate (or set directly by askplane dev).
	site   *ask.Site
	secret []byte
	fsys   fs.FS          // nil means os.DirFS(Public)
	corpus *corpus.Corpus // nil means loaded by newServer
}

// RateLimit allows Requests per WindowSeconds for each subject of a site.
type RateLimit struct {
	Requests      int `json:"requests"`
	WindowSeconds int `json:"windowSeconds"`
}

// Bounds of a config file.
const (
	maxConfigBytes  = 1 << 20
	maxConfigSites  = 64
	maxOrigins      = 64
	minSecretBytes  = 32
	defaultAddr     = "127.0.0.1:8080"
	defaultRequests = 60
	defaultWindow   = 60
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
	for i := range c.Sites {
		if !filepath.IsAbs(c.Sites[i].Public) {
			c.Sites[i].Public = filepath.Join(filepath.Dir(path), c.Sites[i].Public)
		}
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
	if s.fsys == nil && s.Public == "" {
		return errors.New("public: the built site folder is required")
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
	if s.secret == nil {
		if s.CookieSecretEnv == "" {
			return errors.New("cookieSecretEnv: name the environment variable holding the cookie secret")
		}
		v, ok := os.LookupEnv(s.CookieSecretEnv)
		switch {
		case !ok || v == "":
			return fmt.Errorf("cookieSecretEnv: environment variable %s is not set", s.CookieSecretEnv)
		case len(v) < minSecretBytes:
			return fmt.Errorf("cookieSecretEnv: environment variable %s holds fewer than %d bytes", s.CookieSecretEnv, minSecretBytes)
		}
		s.secret = []byte(v)
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
