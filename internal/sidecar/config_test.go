package sidecar

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

const testSecret = "0123456789abcdef0123456789abcdef-not-echoed"

// testSite is a valid backend-site record for corpus id c and site id s.
func testSite(s, c string) string {
	return `{"protocol":"agentskit.chat.backend-site","version":1,"siteId":"` + s + `",` +
		`"assistant":{"id":"guide","name":"Guide"},"corpus":{"id":"` + c + `","mode":"local"},` +
		`"limits":{"requestTimeoutMs":30000,"retrievalTimeoutMs":5000,"generationTimeoutMs":20000,"maxSources":5},` +
		`"persistence":{"mode":"disabled"}}`
}

func testSiteConfig(site, extra string) string {
	return `{"site":` + site + `,"public":"public","language":"en","origins":["https://docs.example.com"],"cookieSecretEnv":"ASKPLANE_TEST_SECRET"` + extra + `}`
}

// decodeChecked decodes data and checks it, as New starts: a config's
// refusals, each naming its field.
func decodeChecked(data []byte) (*Config, error) {
	c, err := Decode(data)
	if err != nil {
		return nil, err
	}
	if _, err := c.check(); err != nil {
		return nil, err
	}
	return c, nil
}

// checkAndProvision runs New's first two steps: the config's one check,
// then the secrets.
func checkAndProvision(c *Config) (string, []*site, error) {
	k, err := c.check()
	if err != nil {
		return "", nil, err
	}
	return provisionSecrets(k, nil, nil)
}

func TestDecodeConfig(t *testing.T) {
	t.Setenv("ASKPLANE_TEST_SECRET", testSecret)
	t.Setenv("ASKPLANE_TEST_WEAK", "short-secret")
	t.Setenv("ASKPLANE_TEST_TOKEN", testSecret+"-token")
	t.Setenv("ASKPLANE_TEST_DB", "postgres://askplane:hunter2-password@db.internal/askplane")
	one := testSiteConfig(testSite("docs", "docs-public"), "")
	private := `{"site":` + testSite("docs", "docs-private") + `,"public":"public","language":"en","anonymous":false,"tokens":[{"subject":"ci-bot","env":"ASKPLANE_TEST_TOKEN"}]}`
	tests := []struct {
		name, config, err string
	}{
		{"one site", `{"sites":[` + one + `]}`, ""},
		{"two sites", `{"addr":"127.0.0.1:0","metrics":true,"sites":[` + one + `,` + testSiteConfig(testSite("docs", "docs-private"), `,"static":true,"rateLimit":{"requests":5,"windowSeconds":10}`) + `]}`, ""},
		{"private site with a token and no cookie secret", `{"sites":[` + private + `]}`, ""},
		{"hosts, cross-site cookie, sqlite sessions", `{"sessions":"sqlite:data/s.db","sites":[` + testSiteConfig(testSite("docs", "c"), `,"hosts":["ask.example.com"],"secureCookie":true,"crossSiteCookie":true`) + `]}`, ""},
		{"postgres sessions from the environment", `{"sessionsEnv":"ASKPLANE_TEST_DB","sites":[` + one + `]}`, ""},
		{"engine 1 by id", `{"sites":[` + testSiteConfig(testSite("docs", "c"), `,"engine":"askplane.bm25/1"`) + `]}`, ""},
		{"unknown engine", `{"sites":[` + testSiteConfig(testSite("docs", "c"), `,"engine":"bm25"`) + `]}`, `config: sites[0].engine: "bm25" is not one of the retained engines ["askplane.bm25/6" "askplane.bm25/5" "askplane.bm25/4" "askplane.bm25/3" "askplane.bm25/2" "askplane.bm25/1"]`},
		{"corpus over https", `{"sites":[` + strings.Replace(one, `"public":"public"`, `"corpusUrl":"https://docs.example.com/"`, 1) + `]}`, ""},
		{"private site without tokens", `{"sites":[` + strings.Replace(private, `"tokens":[{"subject":"ci-bot","env":"ASKPLANE_TEST_TOKEN"}]`, `"tokens":[]`, 1) + `]}`, "config: sites[0].anonymous: false needs at least one token, or nobody could ask"},
		{"token env unset", `{"sites":[` + strings.Replace(private, "ASKPLANE_TEST_TOKEN", "ASKPLANE_TEST_UNSET", 1) + `]}`, "config: sites[0].tokens[0].env: environment variable ASKPLANE_TEST_UNSET is not set"},
		{"weak token", `{"sites":[` + strings.Replace(private, "ASKPLANE_TEST_TOKEN", "ASKPLANE_TEST_WEAK", 1) + `]}`, "config: sites[0].tokens[0].env: environment variable ASKPLANE_TEST_WEAK holds fewer than 32 bytes"},
		{"bad token subject", `{"sites":[` + strings.Replace(private, `"ci-bot"`, `"ci bot"`, 1) + `]}`, "config: sites[0].tokens: tokens[0].subject must match [A-Za-z0-9._:@-]{1,200}"},
		{"cross-site cookie without secure", `{"sites":[` + testSiteConfig(testSite("docs", "c"), `,"crossSiteCookie":true`) + `]}`, "config: sites[0].crossSiteCookie: browsers only send a SameSite=None cookie that is Secure; set secureCookie too"},
		{"bad host", `{"sites":[` + testSiteConfig(testSite("docs", "c"), `,"hosts":["https://ask.example.com/"]`) + `]}`, "config: sites[0].hosts: each must be host or host:port"},
		{"public and corpusUrl", `{"sites":[` + strings.Replace(one, `"public":"public"`, `"public":"public","corpusUrl":"https://docs.example.com/"`, 1) + `]}`, "config: sites[0].corpusUrl: give public or corpusUrl, not both (public is still needed for static)"},
		{"corpus over ftp", `{"sites":[` + strings.Replace(one, `"public":"public"`, `"corpusUrl":"ftp://docs.example.com/"`, 1) + `]}`, "config: sites[0].corpusUrl: must be an https URL (plain http only to a loopback address)"},
		{"database password in the file", `{"sessions":"postgres://askplane:hunter2-password@db.internal/askplane","sites":[` + one + `]}`, "config: sessions: a database URL with credentials belongs in an environment variable; name it in sessionsEnv"},
		{"unknown sessions scheme", `{"sessions":"redis://cache","sites":[` + one + `]}`, "config: sessions: must be memory:, sqlite:PATH or a postgres:// URL"},
		{"sessions env unset", `{"sessionsEnv":"ASKPLANE_TEST_UNSET","sites":[` + one + `]}`, "config: sessionsEnv: environment variable ASKPLANE_TEST_UNSET is not set"},
		{"unknown top-level field", `{"sites":[` + one + `],"port":8080}`, `config: not a valid config: unknown field "port"`},
		{"unknown site field", `{"sites":[` + testSiteConfig(testSite("docs", "c"), `,"cookieSecret":"x"`) + `]}`, `config: not a valid config: unknown field "cookieSecret"`},
		{"unknown record field", `{"sites":[` + testSiteConfig(strings.Replace(testSite("docs", "c"), `"siteId"`, `"tenant":"x","siteId"`, 1), "") + `]}`, `config: sites[0].site: invalid backend site: json: unknown field "tenant"`},
		{"bad site record", `{"sites":[` + testSiteConfig(strings.Replace(testSite("docs", "c"), `"maxSources":5`, `"maxSources":9`, 1), "") + `]}`, "config: sites[0].site: invalid backend site: limits.maxSources"},
		{"missing site record", `{"sites":[{"public":"p","language":"en","cookieSecretEnv":"ASKPLANE_TEST_SECRET"}]}`, "config: sites[0].site: the backend-site record is required"},
		{"missing secret env", `{"sites":[` + strings.Replace(one, "ASKPLANE_TEST_SECRET", "ASKPLANE_TEST_UNSET", 1) + `]}`, "config: sites[0].cookieSecretEnv: environment variable ASKPLANE_TEST_UNSET is not set"},
		{"weak secret", `{"sites":[` + strings.Replace(one, "ASKPLANE_TEST_SECRET", "ASKPLANE_TEST_WEAK", 1) + `]}`, "config: sites[0].cookieSecretEnv: environment variable ASKPLANE_TEST_WEAK holds fewer than 32 bytes"},
		{"no secret env named", `{"sites":[` + strings.Replace(one, `"ASKPLANE_TEST_SECRET"`, `""`, 1) + `]}`, "config: sites[0].cookieSecretEnv: name the environment variable holding the cookie secret"},
		{"duplicate corpus ids", `{"sites":[` + one + `,` + one + `]}`, `config: sites[1].site.corpus.id: "docs-public" is also sites[0]'s; corpus ids route requests and must be unique`},
		{"csp without static", `{"sites":[` + testSiteConfig(testSite("docs", "a"), `,"csp":"default-src 'self'"`) + `]}`, "config: sites[0].csp: only a static site's pages are sent one"},
		{"csp with a newline", `{"sites":[` + testSiteConfig(testSite("docs", "a"), `,"static":true,"csp":"default-src 'self'\nX-Evil: 1"`) + `]}`, "config: sites[0].csp: one header line of at most 4096 bytes, no control character"},
		{"two static sites", `{"sites":[` + testSiteConfig(testSite("docs", "a"), `,"static":true`) + `,` + testSiteConfig(testSite("docs", "b"), `,"static":true`) + `]}`, "config: sites[1].static: sites[0] is already served at /; only one site may set static"},
		{"no sites", `{"sites":[]}`, "config: sites: at least one site is required"},
		{"bad addr", `{"addr":"8080","sites":[` + one + `]}`, "config: addr must be host:port"},
		{"no public", `{"sites":[` + strings.Replace(one, `"public":"public",`, "", 1) + `]}`, "config: sites[0].public: the built site folder (or corpusUrl) is required"},
		{"bad language", `{"sites":[` + strings.Replace(one, `"en"`, `"../en"`, 1) + `]}`, `config: sites[0].language: must be a language code such as "en"`},
		{"origin with path", `{"sites":[` + strings.Replace(one, `"https://docs.example.com"`, `"https://docs.example.com/x"`, 1) + `]}`, "config: sites[0].origins: each must be scheme://host[:port], without a path"},
		{"bad rate limit", `{"sites":[` + testSiteConfig(testSite("docs", "c"), `,"rateLimit":{"requests":0,"windowSeconds":60}`) + `]}`, "config: sites[0].rateLimit.requests: must be 1 to 1000000"},
		{"wrong type", `{"sites":[` + testSiteConfig(testSite("docs", "c"), `,"static":"yes"`) + `]}`, "config: not a valid config: sites.static must be bool"},
		{"syntax error", `{"sites":[`, "config: not a valid config: unexpected end of JSON"},
		{"trailing data", `{"sites":[` + one + `]} {}`, "config: trailing data after the config object"},
		{"too large", `{"sites":[` + one + `],` + strings.Repeat(" ", maxConfigBytes) + `}`, "config: larger than 1048576 bytes"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			// Decode checks the file; provisioning reads the environment.
			// Both must fail with the same kind of message, and neither
			// may echo a secret.
			c, err := Decode([]byte(tt.config))
			var sites []*site
			var dsn string
			if err == nil {
				dsn, sites, err = checkAndProvision(c)
			}
			if tt.err == "" {
				if err != nil {
					t.Fatalf("Decode and provision: %v", err)
				}
				if sites[0].record == nil || (sites[0].cfg.anonymous() && string(sites[0].secret) != testSecret) || dsn == "" {
					t.Errorf("config not provisioned: %+v", sites[0])
				}
				return
			}
			if err == nil {
				t.Fatalf("Decode and provision succeeded, want %q", tt.err)
			}
			if err.Error() != tt.err {
				t.Errorf("error\n got %q\nwant %q", err, tt.err)
			}
			if !errors.Is(err, ErrConfig) {
				t.Errorf("error does not wrap ErrConfig: %v", err)
			}
			if strings.Contains(err.Error(), testSecret) || strings.Contains(err.Error(), "short-secret") || strings.Contains(err.Error(), "hunter2") {
				t.Errorf("error echoes a secret: %v", err)
			}
		})
	}
}

// TestExampleConfig keeps sidecar/config/askplane.example.json valid.
func TestExampleConfig(t *testing.T) {
	t.Setenv("ASKPLANE_COOKIE_SECRET", testSecret)
	t.Setenv("ASKPLANE_TOKEN_CI", testSecret+"-token")
	c, err := Load("../../sidecar/config/askplane.example.json")
	if err != nil {
		t.Fatal(err)
	}
	dsn, sites, err := checkAndProvision(c)
	if err != nil {
		t.Fatal(err)
	}
	if c.Addr != "127.0.0.1:8080" || len(sites) != 1 || sites[0].record.Corpus.ID != "docs-en" || !c.Metrics ||
		!strings.HasSuffix(dsn, filepath.Join("config", "askplane-data", "sessions.db")) || len(sites[0].tokens) != 1 {
		t.Errorf("unexpected example config: %+v", c)
	}
	if _, err := os.Stat(c.Sites[0].Public); err != nil && !os.IsNotExist(err) {
		t.Error(err)
	}
}

// TestLoadConfigDefaultsToSQLite: a config file that names no session
// store gets the embedded default, SQLite beside the config file.
func TestLoadConfigDefaultsToSQLite(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "askplane.json")
	if err := os.WriteFile(path, []byte(`{"sites":[`+testSiteConfig(testSite("docs", "docs-en"), "")+`]}`), 0o600); err != nil {
		t.Fatal(err)
	}
	c, err := Load(path)
	if err != nil {
		t.Fatal(err)
	}
	if want := "sqlite:" + filepath.Join(dir, "askplane-data", "sessions.db"); c.Sessions != want {
		t.Errorf("sessions = %q, want %q", c.Sessions, want)
	}
	t.Setenv("ASKPLANE_TEST_SECRET", testSecret)
	c, err = Decode([]byte(`{"sites":[` + testSiteConfig(testSite("docs", "docs-en"), "") + `]}`))
	if err != nil {
		t.Fatal(err)
	}
	if dsn, _, err := checkAndProvision(c); err != nil || dsn != "memory:" {
		t.Errorf("Decode without a file: sessions %q, %v", dsn, err)
	}
}

// TestNewRefusesBadConfigFirst: a config's one check runs where New
// starts, before anything is provisioned: the error names the field, and
// no environment variable was read and no session store created. Decode
// itself checks only the JSON, so a Config may be edited between the two.
func TestNewRefusesBadConfigFirst(t *testing.T) {
	dir := t.TempDir()
	db := filepath.Join(dir, "sessions.db")
	c, err := Decode([]byte(`{"sessions":"sqlite:` + db + `","sites":[` +
		testSiteConfig(testSite("docs", "docs-en"), `,"rateLimit":{"requests":0,"windowSeconds":60}`) + `]}`))
	if err != nil {
		t.Fatalf("Decode checked more than the JSON: %v", err)
	}
	read := 0
	env := Env(func(string) (string, bool) { read++; return testSecret, true })
	_, err = New(t.Context(), c, Options{Env: env})
	if want := "config: sites[0].rateLimit.requests: must be 1 to 1000000"; err == nil || err.Error() != want || !errors.Is(err, ErrConfig) {
		t.Fatalf("New: %v, want %q", err, want)
	}
	if read != 0 {
		t.Errorf("%d environment variables read before the config was checked", read)
	}
	if _, err := os.Stat(db); !os.IsNotExist(err) {
		t.Errorf("the session store was created for a config that does not check: %v", err)
	}
	// The checked config is New's own copy: an edit after check reaches
	// nothing it holds.
	c.Sites[0].RateLimit = nil
	k, err := c.check()
	if err != nil {
		t.Fatal(err)
	}
	c.Sites[0].Language = "../fr"
	c.Sites = nil
	if len(k.sites) != 1 || k.sites[0].cfg.Language != "en" || k.sites[0].cfg != &k.cfg.Sites[0] {
		t.Errorf("the checked config follows edits of the Config: %+v", k.sites)
	}
}
