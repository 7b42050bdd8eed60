package sidecar

import (
	"bytes"
	"context"
	"crypto/rand"
	"encoding/json"
	"net/http"
	"net/http/cookiejar"
	"net/url"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/askplane/askplane/internal/fakesite"
	"github.com/askplane/askplane/internal/insights"
	"github.com/askplane/askplane/internal/store"
	"github.com/askplane/askplane/internal/store/storetest"
	"github.com/jackc/pgx/v5"
)

// insightsPublic writes a small docs site: install, deploy and
// configuration pages.
func insightsPublic(t *testing.T) string {
	t.Helper()
	public := t.TempDir()
	if _, err := fakesite.WriteCorpus(public, "en", "docs",
		fakesite.Page{URL: "/docs/install/", Title: "Install", Anchor: "install", Text: installText},
		fakesite.Page{URL: "/docs/deploy/", Title: "Deploy", Anchor: "deploy", Text: "To deploy the site, run hugo deploy with a target. Deploy previews get their own URL."},
		fakesite.Page{URL: "/docs/configure/", Title: "Configure", Anchor: "configure", Text: "The sidecar reads a JSON config file. Set the addr member to change the listen address."},
	); err != nil {
		t.Fatal(err)
	}
	return public
}

// The planted secrets: each asked by one reader only. None of these
// strings (nor their lowercased, stemmed terms) may reach the report or
// the store's bytes.
var plantedSecrets = []struct{ question, needle string }{
	{"my email is zelda.quuxington@example.org, why does install fail?", "zelda"},
	{"my api key sk_live_9fQ2xT7pLm4Rz8Kw is rejected by deploy", "9fq2xt7plm4rz8kw"},
	{"Bartholomew Fizzlewick says the config is wrong", "fizzlewick"},
}

// needles are every form a planted secret could be kept in.
func needles() []string {
	return []string{"zelda", "quuxington", "example.org", "sk_live", "9fq2xt7plm4rz8kw", "9fQ2xT7pLm4Rz8Kw", "bartholomew", "fizzlewick", "Fizzlewick"}
}

// TestInsightsReport: 300 readers (each its own anonymous cookie) ask
// 5,000 questions over real HTTP on loopback; two planted gaps (terms the
// corpus does not hold, asked by 30 and 12 readers) head the report,
// with their terms shown (more readers than minCrowd used them), and
// the three planted secrets (an e-mail, an API key, a name, each asked
// by one reader) appear nowhere in the report, text or JSON, nor in the
// store's bytes (the SQLite file and its WAL), nor in the questions'
// clusters; the answerable questions count as answered, and a site
// without the setting records nothing.
func TestInsightsReport(t *testing.T) {
	t.Run("sqlite", func(t *testing.T) {
		dir := t.TempDir()
		testInsightsReport(t, "sqlite:"+filepath.Join(dir, "insights.db"), func(t *testing.T) {
			files, _ := filepath.Glob(filepath.Join(dir, "insights.db*"))
			if len(files) == 0 {
				t.Fatal("no database file")
			}
			for _, f := range files {
				data, err := os.ReadFile(f)
				if err != nil {
					t.Fatal(err)
				}
				for _, n := range needles() {
					if bytes.Contains(bytes.ToLower(data), bytes.ToLower([]byte(n))) {
						t.Errorf("%s holds the planted secret %q", filepath.Base(f), n)
					}
				}
				// Nor any question's text: a whole question never is.
				if bytes.Contains(data, []byte("how do I install askplane")) {
					t.Errorf("%s holds a question's text", filepath.Base(f))
				}
			}
		})
	})
	t.Run("postgres", func(t *testing.T) {
		dsn := postgresInsightsSchema(t)
		testInsightsReport(t, dsn, func(t *testing.T) {
			// Every row of every table of the store's schema, as text.
			conn, err := pgx.Connect(t.Context(), dsn)
			if err != nil {
				t.Fatal(err)
			}
			defer conn.Close(context.Background())
			rows, err := conn.Query(t.Context(), `SELECT table_name FROM information_schema.tables WHERE table_schema = current_schema() AND table_type = 'BASE TABLE'`)
			if err != nil {
				t.Fatal(err)
			}
			tables, err := pgx.CollectRows(rows, pgx.RowTo[string])
			if err != nil || len(tables) == 0 {
				t.Fatalf("tables %v: %v", tables, err)
			}
			var dump strings.Builder
			for _, tb := range tables {
				var text string
				if err := conn.QueryRow(t.Context(), `SELECT coalesce(string_agg(t::text, E'\n'), '') FROM `+pgx.Identifier{tb}.Sanitize()+` t`).Scan(&text); err != nil {
					t.Fatal(err)
				}
				dump.WriteString(text)
			}
			if !strings.Contains(dump.String(), "kubernet") {
				t.Fatalf("the dump of %v does not hold the revealed gap: not the store's rows", tables)
			}
			for _, n := range needles() {
				if strings.Contains(strings.ToLower(dump.String()), strings.ToLower(n)) {
					t.Errorf("the PostgreSQL store holds the planted secret %q", n)
				}
			}
			if strings.Contains(dump.String(), "how do I install askplane") {
				t.Error("the PostgreSQL store holds a question's text")
			}
			t.Logf("PostgreSQL: %d tables, %d bytes of rows, none of the planted secrets", len(tables), dump.Len())
		})
	})
}

func postgresInsightsSchema(t *testing.T) string {
	base := storetest.PostgresURL(t)
	// A schema of its own, so runs do not see each other's rows.
	admin, err := pgx.Connect(t.Context(), base)
	if err != nil {
		t.Fatal(err)
	}
	schema := "askplane_insights_" + strings.ToLower(rand.Text())
	if _, err := admin.Exec(t.Context(), "CREATE SCHEMA "+schema); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		admin.Exec(context.Background(), "DROP SCHEMA "+schema+" CASCADE")
		admin.Close(context.Background())
	})
	u, err := url.Parse(base)
	if err != nil {
		t.Fatal(err)
	}
	q := u.Query()
	q.Set("search_path", schema)
	u.RawQuery = q.Encode()
	return u.String()
}

func testInsightsReport(t *testing.T, sessions string, checkBytes func(t *testing.T)) {
	public := insightsPublic(t)
	const site = "docs"
	// The store's URL comes from the environment, as a PostgreSQL URL
	// with credentials must.
	env := Env(func(name string) (string, bool) {
		switch name {
		case "ASKPLANE_TEST_INSIGHTS_DB":
			return sessions, true
		case "ASKPLANE_TEST_INSIGHTS_OWNER":
			return ownerToken, true
		}
		return edgeEnv(name)
	})
	cfg, err := Decode([]byte(`{"sessionsEnv":"ASKPLANE_TEST_INSIGHTS_DB",` +
		`"edge":{"perAddress":{"requests":100000,"windowSeconds":60},"newSubjects":{"requests":100000,"windowSeconds":60},"failedAuth":{"requests":3,"windowSeconds":60},"maxConnectionsPerAddress":1024},` +
		`"sites":[` + siteJSON(public, site, "docs", `,"insights":{"retentionDays":30,"minCrowd":5,"ownerTokenEnv":"ASKPLANE_TEST_INSIGHTS_OWNER"},"rateLimit":{"requests":1000,"windowSeconds":60}`) + `]}`))
	if err != nil {
		t.Fatal(err)
	}
	srv, _ := startRestartable(t, cfg, env)
	start := time.Now()

	answerable := []string{"how do I install askplane?", "how do I deploy the site?", "how do I change the listen address?", "which Go version does askplane need?"}
	// 5,000 questions from 300 readers: 17 each for the first 200, 16
	// for the rest.
	const readers, total = 300, 5000
	perReader := func(r int) int { return 16 + max(0, min(1, 200-r)) }
	plan := make([][]string, readers)
	for r := range readers {
		var qs []string
		if r < 30 {
			qs = append(qs, "kubernetes helm chart?")
		}
		if r >= 40 && r < 52 {
			qs = append(qs, "graphql subscriptions")
		}
		if r >= 290 && r-290 < len(plantedSecrets) {
			qs = append(qs, plantedSecrets[r-290].question)
		}
		for len(qs) < perReader(r) {
			qs = append(qs, answerable[(r+len(qs))%len(answerable)])
		}
		plan[r] = qs
	}
	var wg sync.WaitGroup
	sem := make(chan struct{}, 8)
	var mu sync.Mutex
	statuses := map[int]int{}
	for r := range readers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			jar, _ := cookiejar.New(nil)
			c := &http.Client{Jar: jar, Transport: &http.Transport{}}
			defer c.CloseIdleConnections()
			for _, q := range plan[r] {
				sem <- struct{}{}
				req, _ := http.NewRequest("POST", srv.url+"/v1/ask?corpus=docs", strings.NewReader(askJSON(q)))
				req.Header.Set("Content-Type", "application/json")
				a := fetch(t, c, req)
				<-sem
				mu.Lock()
				statuses[a.status]++
				mu.Unlock()
			}
		}()
	}
	wg.Wait()
	if err := srv.flushInsights(t.Context()); err != nil {
		t.Fatal(err)
	}
	t.Logf("%d questions in %v; statuses %v", total, time.Since(start), statuses)
	if statuses[200]+statuses[422] != total {
		t.Fatalf("statuses %v: every question must be answered or refused", statuses)
	}

	is, icfg, closeStore, err := OpenInsights(t.Context(), cfg, env, site)
	if err != nil {
		t.Fatal(err)
	}
	defer closeStore()
	if icfg.MinCrowd != 5 || icfg.RetentionDays != 30 {
		t.Errorf("config %+v", icfg)
	}
	rep, err := insights.Build(t.Context(), is, site, 30, time.Now().Add(time.Second), nil)
	if err != nil {
		t.Fatal(err)
	}
	if rep.Questions != total {
		t.Errorf("%d questions recorded, want %d", rep.Questions, total)
	}
	if rep.Readers != readers {
		t.Errorf("%d readers, want %d", rep.Readers, readers)
	}
	if len(rep.Gaps) < 2 {
		t.Fatalf("gaps %+v", rep.Gaps)
	}
	if g := rep.Gaps[0]; !slices.Equal(g.Terms, []string{"chart", "helm", "kubernet"}) || g.Readers != 30 || g.Questions != 30 || g.Rare != 0 {
		t.Errorf("first gap %+v, want kubernetes helm chart by 30 readers", g)
	}
	if g := rep.Gaps[1]; !slices.Equal(g.Terms, []string{"graphql", "subscript"}) || g.Readers != 12 {
		t.Errorf("second gap %+v, want graphql subscriptions by 12 readers", g)
	}
	for _, g := range rep.Gaps[2:] {
		if g.Readers > 1 {
			t.Errorf("an unplanted gap %+v", g)
		}
	}
	if rep.RareTerms == 0 {
		t.Error("the planted secrets' terms must count as rare terms")
	}
	answered := 0
	for _, c := range rep.Top {
		if c.AnswerRate == 1 {
			answered += c.Questions
		}
	}
	if answered < 3000 || rep.AnswerRate < 0.6 {
		t.Errorf("answered %d, rate %.2f: the answerable questions must count as answered", answered, rep.AnswerRate)
	}
	if len(rep.Pages) == 0 || rep.Pages[0].Cited < 500 {
		t.Errorf("pages cited %+v", rep.Pages)
	}
	var text, js bytes.Buffer
	if err := rep.WriteText(&text); err != nil {
		t.Fatal(err)
	}
	if err := rep.WriteJSON(&js); err != nil {
		t.Fatal(err)
	}
	t.Logf("report:\n%s", text.String())
	for _, out := range []string{text.String(), js.String()} {
		for _, n := range needles() {
			if strings.Contains(strings.ToLower(out), strings.ToLower(n)) {
				t.Errorf("the report shows the planted secret %q", n)
			}
		}
		if !strings.Contains(out, "kubernet") {
			t.Error("the report does not show the planted gap")
		}
	}
	var back insights.Report
	if err := json.Unmarshal(js.Bytes(), &back); err != nil || back.Questions != rep.Questions {
		t.Errorf("JSON report does not read back: %v", err)
	}
	// The store holds no question text, subject or secret.
	evs, err := is.InsightEvents(t.Context(), site, time.Time{})
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range evs {
		for _, n := range needles() {
			if strings.Contains(strings.ToLower(e.Key), strings.ToLower(n)) {
				t.Errorf("a stored key holds %q: %q", n, e.Key)
			}
		}
		if strings.Contains(e.Reader, "anon") || len(e.Reader) != 32 {
			t.Errorf("reader %q is not a keyed hash", e.Reader)
		}
	}
	revealed, err := is.InsightTerms(t.Context(), site)
	if err != nil {
		t.Fatal(err)
	}
	var stems []string
	for _, st := range revealed {
		stems = append(stems, st)
	}
	slices.Sort(stems)
	// Only the terms at least minCrowd readers used are kept as words
	// ("version" too: 100 readers asked for it, the corpus says "Go 1.26").
	if !slices.Equal(stems, []string{"chart", "graphql", "helm", "kubernet", "subscript", "version"}) {
		t.Errorf("revealed terms %q", stems)
	}
	testInsightsPage(t, srv)
	srv.stop()
	if checkBytes != nil {
		closeStore()
		checkBytes(t)
	}
}

// A site without "insights" records nothing; one on a memory store is
// refused at start, naming the setting.
func TestInsightsOffAndMemoryRefused(t *testing.T) {
	public := insightsPublic(t)
	_, err := New(t.Context(), edgeConfig(t, "", "", siteJSON(public, "docs", "docs", `,"insights":{}`)), Options{Env: edgeEnv})
	if err == nil || !strings.Contains(err.Error(), "sites[0].insights") {
		t.Fatalf("insights on memory: %v, want a config error naming sites[0].insights", err)
	}
	dir := t.TempDir()
	// The owner's token comes from the environment, named, long enough.
	withToken, err := Decode([]byte(`{"sessions":"sqlite:` + filepath.Join(dir, "t.db") + `","sites":[` +
		siteJSON(public, "docs", "docs", `,"insights":{"ownerTokenEnv":"ASKPLANE_TEST_UNSET"}`) + `]}`))
	if err != nil {
		t.Fatal(err)
	}
	if _, err := New(t.Context(), withToken, Options{Env: edgeEnv}); err == nil ||
		!strings.Contains(err.Error(), "sites[0].insights.ownerTokenEnv: environment variable ASKPLANE_TEST_UNSET is not set") {
		t.Errorf("an unset owner token: %v", err)
	}
	cfg, err := Decode([]byte(`{"sessions":"sqlite:` + filepath.Join(dir, "s.db") + `","sites":[` + siteJSON(public, "docs", "docs", "") + `]}`))
	if err != nil {
		t.Fatal(err)
	}
	srv := startEdge(t, cfg)
	if a := srv.send(t, "POST", "/v1/ask?corpus=docs", askJSON("how do I install askplane?")); a.status != 200 {
		t.Fatalf("ask: %d %s", a.status, a.body)
	}
	if a := srv.send(t, "GET", "/insights/docs/", ""); a.status != 404 {
		t.Errorf("a site without insights serves /insights/: %d", a.status)
	}
	s, err := store.OpenSQLite(t.Context(), filepath.Join(dir, "s.db"))
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	if evs, err := s.InsightEvents(t.Context(), "docs", time.Time{}); err != nil || len(evs) != 0 {
		t.Errorf("a site without insights recorded %d events (%v)", len(evs), err)
	}
	if _, _, _, err := OpenInsights(t.Context(), cfg, edgeEnv, "docs"); err == nil || !strings.Contains(err.Error(), "does not turn insights on") {
		t.Errorf("report of a site without insights: %v", err)
	}
}

// The insights setting is checked strictly, each error naming its field.
func TestInsightsConfig(t *testing.T) {
	for extra, want := range map[string]string{
		`,"insights":{"retentionDays":0,"minCrowd":1}`:     "sites[0].insights.minCrowd: must be 2 to 10000",
		`,"insights":{"retentionDays":400}`:                "sites[0].insights.retentionDays: must be 1 to 365",
		`,"insights":{"retentionDays":-1}`:                 "sites[0].insights.retentionDays: must be 1 to 365",
		`,"insights":{"retentionDays":30,"question":true}`: "unknown field \"question\"",
		`,"insights":{"minCrowd":"5"}`:                     "minCrowd must be int",
		`,"insights":true`:                                 "insights must be insights.Config",
	} {
		_, err := decodeChecked([]byte(`{"sessions":"memory:","sites":[` + siteJSON("public", "docs", "docs", extra) + `]}`))
		if err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("%s: %v, want %q", extra, err, want)
		}
	}
	if _, err := decodeChecked([]byte(`{"sessions":"memory:","sites":[` + siteJSON("public", "docs", "docs", `,"insights":{"retentionDays":7,"minCrowd":3}`) + `]}`)); err != nil {
		t.Error(err)
	}
}

// ownerToken is the insights page's bearer token in these tests.
const ownerToken = "owner-0123456789abcdef0123456789abcdef"

// testInsightsPage: the owner's page answers only with the bearer token,
// under a CSP that allows nothing but its own markup, and shows the
// planted gap and none of the planted secrets.
func testInsightsPage(t *testing.T, srv *edgeServer) {
	for _, c := range []struct {
		header []string
		path   string
		status int
	}{
		{nil, "/insights/docs/", 401},
		{[]string{"Authorization", "Bearer wrong-token-0123456789abcdef0123456789"}, "/insights/docs/", 401},
		{[]string{"Authorization", ownerToken}, "/insights/docs/", 401},
		{[]string{"Authorization", "Bearer " + ownerToken}, "/insights/docs/?days=0", 400},
		{[]string{"Authorization", "Bearer " + ownerToken}, "/insights/other/", 404},
	} {
		if a := srv.send(t, "GET", c.path, "", c.header...); a.status != c.status {
			t.Errorf("%s %v: %d, want %d", c.path, c.header, a.status, c.status)
		} else if c.status == 401 && !strings.HasPrefix(a.header.Get("WWW-Authenticate"), "Bearer") {
			t.Errorf("401 without a Bearer challenge")
		}
	}
	a := srv.send(t, "GET", "/insights/docs/?days=30", "", "Authorization", "Bearer "+ownerToken)
	if a.status != 200 || a.header.Get("Content-Security-Policy") != insights.PageCSP || a.header.Get("Cache-Control") != "no-store" ||
		!strings.HasPrefix(a.header.Get("Content-Type"), "text/html") {
		t.Fatalf("page: %d %v", a.status, a.header)
	}
	if !strings.Contains(a.body, "<strong data-insights-terms>chart helm kubernet</strong>") || !strings.Contains(a.body, "5000 questions from 300 readers") {
		t.Errorf("the page does not show the report:\n%s", a.body)
	}
	if !strings.Contains(a.body, "<svg") || !strings.Contains(a.body, "data-insights-weeks") || !strings.Contains(a.body, `href="?days=30&amp;format=csv"`) {
		t.Errorf("the page has no weekly trend or CSV link:\n%s", a.body)
	}
	csv := srv.send(t, "GET", "/insights/docs/?days=30&format=csv", "", "Authorization", "Bearer "+ownerToken)
	if csv.status != 200 || csv.header.Get("Content-Type") != "text/csv; charset=utf-8" ||
		csv.header.Get("Content-Disposition") != `attachment; filename="insights-docs-30d.csv"` ||
		!strings.Contains(csv.body, "\r\ngap,1,chart helm kubernet,30,30,0,0,0.000,") {
		t.Errorf("CSV: %d %v\n%s", csv.status, csv.header, csv.body)
	}
	if bad := srv.send(t, "GET", "/insights/docs/?format=xml", "", "Authorization", "Bearer "+ownerToken); bad.status != 400 {
		t.Errorf("format=xml: %d, want 400", bad.status)
	}
	for _, out := range []string{a.body, csv.body} {
		for _, n := range needles() {
			if strings.Contains(strings.ToLower(out), strings.ToLower(n)) {
				t.Errorf("the page or its CSV shows the planted secret %q", n)
			}
		}
	}
	// Refused owner tokens spend the address's failedAuth budget (3 in
	// this config; two were refused above): past it the right token
	// gets 429 too, so the token cannot be guessed faster than the limit.
	if a := srv.send(t, "GET", "/insights/docs/", "", "Authorization", "Bearer guess-0123456789abcdef0123456789abcdef"); a.status != 401 {
		t.Errorf("a third wrong token: %d, want 401", a.status)
	}
	if a := srv.send(t, "GET", "/insights/docs/", "", "Authorization", "Bearer "+ownerToken); a.status != 429 {
		t.Errorf("the owner's token past the failedAuth budget: %d, want 429", a.status)
	}
	if strings.Contains(a.body, "<script") || strings.Contains(a.body, "style=") {
		t.Error("the page carries script or inline style")
	}
}

// TestInsightsPageKeepsEdgeRules: the owner's page refuses, as /v1/ask
// does, a foreign Host and a foreign Origin, and spends the client
// address's budget (edge.perAddress), so a right token ends in 429.
func TestInsightsPageKeepsEdgeRules(t *testing.T) {
	env := Env(func(name string) (string, bool) {
		if name == "ASKPLANE_TEST_INSIGHTS_OWNER" {
			return ownerToken, true
		}
		return edgeEnv(name)
	})
	const budget = 4
	cfg := edgeConfig(t, `,"hosts":["ask.example.com"],"sessions":"sqlite:`+filepath.Join(t.TempDir(), "s.db")+`"`,
		`"perAddress":{"requests":`+strconv.Itoa(budget)+`,"windowSeconds":60}`,
		siteJSON(insightsPublic(t), "docs", "docs", `,"insights":{"ownerTokenEnv":"ASKPLANE_TEST_INSIGHTS_OWNER"}`))
	srv, _ := startRestartable(t, cfg, env)
	good := []string{"Host", "ask.example.com", "Authorization", "Bearer " + ownerToken}
	if a := srv.send(t, "GET", "/insights/docs/", "", append([]string{"Host", "evil.example"}, good[2:]...)...); a.status != 403 {
		t.Errorf("a foreign Host: %d, want 403", a.status)
	}
	if a := srv.send(t, "GET", "/insights/docs/", "", append(good, "Origin", "https://evil.example")...); a.status != 403 {
		t.Errorf("a foreign Origin: %d, want 403", a.status)
	}
	statuses := map[int]int{}
	for range 2 * budget {
		statuses[srv.send(t, "GET", "/insights/docs/", "", good...).status]++
	}
	if statuses[200] == 0 || statuses[429] == 0 || statuses[200]+statuses[429] != 2*budget {
		t.Errorf("right token, %d requests on a budget of %d: %v, want 200s then 429s", 2*budget, budget, statuses)
	}
}
