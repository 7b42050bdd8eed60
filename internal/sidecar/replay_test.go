package sidecar

import (
	"context"
	"crypto/rand"
	"database/sql"
	"encoding/hex"
	"encoding/json"
	"net"
	"net/http"
	"net/url"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/askplane/askplane/internal/corpus"
	"github.com/askplane/askplane/internal/evidence"
	"github.com/askplane/askplane/internal/replay"
	"github.com/askplane/askplane/internal/store/storetest"
	"github.com/jackc/pgx/v5"
)

// startRestartable provisions cfg and serves it on 127.0.0.1:0 until the
// test ends, or until the stop it returns is called (a restart), once.
func startRestartable(t *testing.T, cfg *Config, env Env) (*edgeServer, func()) {
	t.Helper()
	srv, err := New(t.Context(), cfg, Options{Env: env})
	if err != nil {
		t.Fatal(err)
	}
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		srv.Close()
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	e := &edgeServer{Server: srv, addr: ln.Addr().String(), url: "http://" + ln.Addr().String(), stop: cancel, served: make(chan error, 1)}
	go func() { e.served <- srv.Serve(ctx, ln) }()
	var once sync.Once
	stop := func() {
		once.Do(func() {
			cancel()
			select {
			case <-e.served:
			case <-time.After(15 * time.Second):
				t.Error("Serve did not return after its context was cancelled")
			}
			srv.Close()
		})
	}
	t.Cleanup(stop)
	return e, stop
}

// postJSON posts body to path and decodes the JSON answer.
func (e *edgeServer) postJSON(t *testing.T, path, body string, header ...string) (int, map[string]json.RawMessage) {
	t.Helper()
	req, _ := http.NewRequest("POST", e.url+path, strings.NewReader(body))
	req.Header.Set("Content-Type", "application/json")
	for i := 0; i+1 < len(header); i += 2 {
		if header[i] == "Host" {
			req.Host = header[i+1]
			continue
		}
		req.Header.Set(header[i], header[i+1])
	}
	a := fetch(t, newClient(t), req)
	var out map[string]json.RawMessage
	json.Unmarshal([]byte(a.body), &out)
	return a.status, out
}

// reviewFragment asks question over HTTP and returns the fragment of the
// answer's evidence link.
func reviewFragment(t *testing.T, e *edgeServer, question string) string {
	t.Helper()
	a := fetch(t, newClient(t), e.askReq("", question))
	link := a.header.Get("Link")
	_, frag, ok := strings.Cut(link, "#")
	ok = ok && strings.HasPrefix(link, "</review/?corpus=")
	frag, _, _ = strings.Cut(frag, ">")
	if !a.answered() || !ok || frag == "" {
		t.Fatalf("no evidence link: %d %q", a.status, link)
	}
	return frag
}

func errorCode(out map[string]json.RawMessage) string {
	var e struct{ Code string }
	json.Unmarshal(out["error"], &e)
	return e.Code
}

// checkUpgradeReplays is the upgrade done for real: a site is served and
// asked over HTTP, and the answer's review fragment kept; the site is
// rebuilt with other content (a new corpus file and manifest) and the
// sidecar restarted on it with the same store. The old fragment replays,
// from the retained source alone, byte-identical evidence (same digest);
// a fragment of a version never loaded fails with source_unavailable, and
// one whose retained bytes were damaged with source_integrity.
func checkUpgradeReplays(t *testing.T, sessions string, env Env, damage func(version string)) {
	const question = "how do I install the askplane command?"
	old := writeCorpus(t, "docs", "/docs/install/", "Install", "install", installText)
	// Before the upgrade the site answers with the old engine; after it,
	// with the new default: an upgrade of content and engine at once.
	cfg := func(public, engine string) *Config {
		return edgeConfig(t, "", "", siteJSON(public, "docs", "docs-public", engine))
	}
	withStore := func(c *Config) *Config {
		c.Sessions, c.SessionsEnv = "", ""
		if strings.HasPrefix(sessions, "env:") {
			c.SessionsEnv = strings.TrimPrefix(sessions, "env:")
		} else {
			c.Sessions = sessions
		}
		return c
	}
	e, stop := startRestartable(t, withStore(cfg(old, `,"engine":"askplane.bm25/1"`)), env)
	frag := reviewFragment(t, e, question)
	code, before := e.postJSON(t, "/v1/evidence/replay", `{"fragment":"`+frag+`"}`)
	if code != 200 {
		t.Fatalf("replay before the upgrade = %d %s", code, before["error"])
	}
	stop()

	upgraded := writeCorpus(t, "docs", "/docs/install/", "Install", "install", "Install askplane with the new installer script. It needs Go 1.27.")
	e, _ = startRestartable(t, withStore(cfg(upgraded, "")), env)
	fresh := reviewFragment(t, e, question)
	if fresh == frag {
		t.Fatal("the upgraded site answered from the old corpus")
	}
	if r, err := evidence.DecodeFragment(fresh); err != nil || r.EngineID != evidence.EngineID6 {
		t.Fatalf("the upgraded site does not answer with the new default engine: %+v %v", r, err)
	}
	code, after := e.postJSON(t, "/v1/evidence/replay", `{"fragment":"`+frag+`"}`)
	if code != 200 {
		t.Fatalf("replay after the upgrade = %d %s", code, after["error"])
	}
	var idBefore, idAfter replay.Identity
	json.Unmarshal(before["replay_identity"], &idBefore)
	json.Unmarshal(after["replay_identity"], &idAfter)
	if idAfter.Digest == "" || idAfter.Digest != idBefore.Digest || string(after["evidence"]) != string(before["evidence"]) {
		t.Fatalf("the old fragment replayed other evidence: %s\nwant %s", after["evidence"], before["evidence"])
	}
	if idAfter.Engine != evidence.EngineID || idAfter.Mode != replay.ModeExplicit || !strings.Contains(string(after["evidence"]), installText) {
		t.Fatalf("identity %+v", idAfter)
	}
	recipe, err := evidence.DecodeFragment(frag)
	if err != nil {
		t.Fatal(err)
	}
	// The catalogue lists both versions, newest first, each with the
	// engine it may be replayed with.
	a := fetch(t, newClient(t), e.getReq("/v1/evidence/engines", ""))
	var cat struct {
		Current string
		Sites   []struct {
			Serving  string
			Versions []struct {
				Version string
				Engines []string
			}
		}
	}
	if err := json.Unmarshal([]byte(a.body), &cat); err != nil || a.status != 200 || cat.Current != evidence.EngineID6 || len(cat.Sites) != 1 {
		t.Fatalf("GET /v1/evidence/engines: %d %s", a.status, a.body)
	}
	got := cat.Sites[0]
	freshRecipe, _ := evidence.DecodeFragment(fresh)
	if got.Serving != freshRecipe.Version || len(got.Versions) != 2 ||
		got.Versions[0].Version != freshRecipe.Version || !slices.Equal(got.Versions[0].Engines, []string{evidence.EngineID6}) ||
		got.Versions[1].Version != recipe.Version || !slices.Equal(got.Versions[1].Engines, []string{evidence.EngineID}) {
		t.Errorf("retained versions: %+v", got)
	}
	var pkg evidence.Package
	json.Unmarshal(after["evidence"], &pkg)
	code, read := e.postJSON(t, "/v1/evidence/read", `{"fragment":"`+frag+`","record_id":"`+pkg.Records[0].ID+`"}`)
	var data string
	json.Unmarshal(read["data"], &data)
	if code != 200 || data != pkg.Records[0].Excerpt {
		t.Fatalf("read after the upgrade = %d %q", code, data)
	}

	never := recipe
	never.Version = corpus.ContentHash([]byte("a corpus this deployment never loaded"))
	code, out := e.postJSON(t, "/v1/evidence/replay", `{"fragment":"`+never.Fragment()+`"}`)
	if code != 404 || errorCode(out) != string(replay.CodeSourceUnavailable) || out["evidence"] != nil {
		t.Fatalf("a never-retained version = %d %v", code, out)
	}

	damage(recipe.Version)
	// The restarted sidecar has not built the old version since; a new one
	// reads the damaged bytes.
	e, _ = startRestartable(t, withStore(cfg(upgraded, "")), env)
	code, out = e.postJSON(t, "/v1/evidence/replay", `{"fragment":"`+frag+`"}`)
	if code != 500 || errorCode(out) != string(replay.CodeSourceIntegrity) || out["evidence"] != nil {
		t.Fatalf("damaged retained bytes = %d %v", code, out)
	}
}

func TestUpgradeReplaysOldLinksFromSQLite(t *testing.T) {
	path := filepath.Join(t.TempDir(), "askplane.db")
	checkUpgradeReplays(t, "sqlite:"+path, edgeEnv, func(version string) {
		db, err := sql.Open("sqlite", path)
		if err != nil {
			t.Fatal(err)
		}
		defer db.Close()
		if _, err := db.Exec(`UPDATE sources SET data = CAST('{"damaged":true}' AS BLOB) WHERE version = ?`, version); err != nil {
			t.Fatal(err)
		}
	})
}

func TestUpgradeReplaysOldLinksFromPostgres(t *testing.T) {
	base := storetest.PostgresURL(t)
	admin, err := pgx.Connect(t.Context(), base)
	if err != nil {
		t.Fatal(err)
	}
	defer admin.Close(context.Background())
	var b [8]byte
	rand.Read(b[:])
	schema := "askplane_replay_" + hex.EncodeToString(b[:])
	if _, err := admin.Exec(t.Context(), "CREATE SCHEMA "+schema); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { admin.Exec(context.Background(), "DROP SCHEMA "+schema+" CASCADE") })
	u, _ := url.Parse(base)
	q := u.Query()
	q.Set("search_path", schema)
	u.RawQuery = q.Encode()
	env := Env(func(name string) (string, bool) {
		if name == "ASKPLANE_TEST_DB" {
			return u.String(), true
		}
		return edgeEnv(name)
	})
	checkUpgradeReplays(t, "env:ASKPLANE_TEST_DB", env, func(version string) {
		if _, err := admin.Exec(t.Context(), "UPDATE "+schema+`.sources SET data = '{"damaged":true}'::bytea WHERE version = $1`, version); err != nil {
			t.Fatal(err)
		}
	})
}

// TestReplayKeepsTheSidecarsRules: /v1/evidence/replay and /read answer
// under the rules of /v1/ask and /mcp: a foreign Host or Origin is
// refused, a private site needs a token, and the client address's budget
// binds them; bodies are bounded (32 KiB).
func TestReplayKeepsTheSidecarsRules(t *testing.T) {
	public := writeCorpus(t, "docs", "/docs/install/", "Install", "install", installText)
	private := siteJSON(public, "docs", "docs-private", `,"anonymous":false,"tokens":[{"subject":"ci-bot","env":"ASKPLANE_TEST_TOKEN"}]`)
	e, _ := startRestartable(t, edgeConfig(t, `,"hosts":["ask.example.com"]`, `"perAddress":{"requests":6,"windowSeconds":60}`, private), edgeEnv)
	c, err := corpus.LoadDir(os.DirFS(public), "en")
	if err != nil {
		t.Fatal(err)
	}
	p := evidence.NewIndex6(c).Search("how do I install askplane?", evidence.Budget{MaxRecords: 5}) // the site's engine
	body := `{"fragment":"` + p.Recipe().Fragment() + `"}`
	host := []string{"Host", "ask.example.com"}
	token := append(append([]string(nil), host...), "Authorization", "Bearer "+testToken)
	if code, _ := e.postJSON(t, "/v1/evidence/replay", body, host...); code != 401 {
		t.Errorf("a private site without a token = %d, want 401", code)
	}
	if code, _ := e.postJSON(t, "/v1/evidence/replay", body, append([]string{"Host", "evil.example"}, token[2:]...)...); code != 403 {
		t.Errorf("a foreign Host = %d, want 403", code)
	}
	if code, _ := e.postJSON(t, "/v1/evidence/read", body, append(token, "Origin", "https://evil.example")...); code != 403 {
		t.Errorf("a foreign Origin = %d, want 403", code)
	}
	if code, out := e.postJSON(t, "/v1/evidence/replay", `{"fragment":"`+strings.Repeat("A", 40<<10)+`"}`, token...); code != 400 || errorCode(out) != string(replay.CodeInvalidRequest) {
		t.Errorf("a 40 KiB body = %d %v, want 400 invalid_request", code, out)
	}
	code, out := e.postJSON(t, "/v1/evidence/replay", body, token...)
	if code != 200 || out["evidence"] == nil {
		t.Fatalf("with a token = %d %v", code, out)
	}
	limited := false
	for range 8 {
		if code, _ := e.postJSON(t, "/v1/evidence/replay", body, token...); code == 429 {
			limited = true
			break
		}
	}
	if !limited {
		t.Error("the client address's budget of 6 requests a minute never bound replays")
	}
}

// sources in the config: bounds and permits are checked when it loads,
// and a permit may only name an engine this binary retains.
func TestSourcesConfigIsChecked(t *testing.T) {
	site := siteJSON("public", "docs", "docs-public", "")
	v := corpus.ContentHash([]byte("x"))
	for sources, want := range map[string]string{
		`{"maxVersions":20,"maxBytes":268435456,"permit":[{"engine":"askplane.bm25/1","version":"` + v + `"}]}`: "",
		`{"maxVersions":-1}`: "sources.limits must be positive",
		`{"maxBytes":1000}`:  "sources.maxVersions must be",
		`{"rebuildsInFlight":2,"rebuildsPerMinute":12,"rebuildCacheBytes":268435456}`: "",
		`{"rebuildsInFlight":65}`:  "sources.rebuildsInFlight must be 1 to 64",
		`{"rebuildsPerMinute":-1}`: "sources.rebuildsPerMinute must be",
		`{"rebuildCacheBytes":-1}`: "sources.rebuildCacheBytes must be",
		`{"permit":[{"engine":"askplane.bm25/9","version":"` + v + `"}]}`:           "sources.permit[0].engine",
		`{"permit":[{"engine":"askplane.bm25/1","version":"sha1:x"}]}`:              "sources.permit[0].version",
		`{"permit":[{"engine":"askplane.bm25/1","version":"` + v + `","extra":1}]}`: "unknown field",
	} {
		_, err := decodeChecked([]byte(`{"sessions":"memory:","sources":` + sources + `,"sites":[` + site + `]}`))
		if want == "" && err != nil || want != "" && (err == nil || !strings.Contains(err.Error(), want)) {
			t.Errorf("sources %s: err = %v, want %q", sources, err, want)
		}
	}
}
