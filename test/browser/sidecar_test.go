package browser

import (
	"bufio"
	"context"
	"encoding/base64"
	"encoding/json"
	"io"
	"log/slog"
	"net"
	"net/http"
	"os"
	"path"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/askplane/askplane/internal/sidecar"
	"github.com/askplane/askplane/internal/static"
	"github.com/chromedp/cdproto/network"
	"github.com/chromedp/chromedp"
)

// TestSidecar is what a reader of `askplane dev` gets, with nothing faked:
// the built exampleSite served by the real sidecar (sidecar.Dev's config,
// its static files under static.DefaultCSP, its Host and Origin guard, its
// anonymous cookie, the extractive answer from the English corpus), in
// chromium. A question no declared fact answers streams a grounded answer
// citing real pages; a declared fact is answered in the page, without a
// request to /v1/ask; and the page reports no CSP violation.
func TestSidecar(t *testing.T) {
	browser := startBrowser(t)
	public := examplePublic(t)
	base := serveSidecar(t, public)

	res, err := http.Get(base + "/")
	if err != nil {
		t.Fatal(err)
	}
	res.Body.Close()
	if got := res.Header.Get("Content-Security-Policy"); got != static.DefaultCSP {
		t.Fatalf("the home page's CSP is %q; want static.DefaultCSP %q", got, static.DefaultCSP)
	}

	asks0 := askRequests(t, base)
	tb := openTab(t, browser, &site{URL: base}, "/")
	tb.open()

	// A declared fact (exampleSite/content/en/facts/kinds/command.md,
	// verify-build) is answered in the page: the sidecar never hears of it.
	tb.ask("verify the build")
	tb.wait(`document.querySelector('[data-askplane-log] [data-askplane-answer]:not([data-askplane-stream])')`)
	if got := tb.text("[data-askplane-answer]:not([data-askplane-stream]) [data-askplane-markdown] pre > code"); got != "askplane verify public/" {
		t.Errorf("the fact's command %q; want askplane verify public/", got)
	}
	if got := tb.eval(`document.querySelector('[data-askplane-status]').textContent`); got != "Answer ready." {
		t.Errorf("status after the fact %q", got)
	}
	if n := askRequests(t, base) - asks0; n != 0 {
		t.Errorf("%d requests to /v1/ask for a declared fact; want 0", n)
	}

	// A question no fact declares but the docs answer (sidecar/sessions.md,
	// sidecar/configuration.md) goes to the sidecar, whose answer streams
	// into the log. deltas counts the renders of the streamed text (at most
	// one a frame while it arrives, and one at the end).
	tb.eval(`window.__deltas = 0;
new MutationObserver((ms) => { for (const m of ms) if (m.target.closest?.('[data-askplane-stream] [data-askplane-markdown]')) window.__deltas++; })
  .observe(document.querySelector('[data-askplane-log]'), { childList: true, subtree: true }); 0`)
	start := time.Now()
	const question = "which session store do several sidecar instances behind a load balancer need"
	tb.ask(question)
	tb.wait(`document.querySelector('[data-askplane-log] [data-askplane-stream][aria-busy="false"]')`)
	took := time.Since(start)
	if n := tb.count("[data-askplane-error]"); n != 0 {
		t.Fatalf("the sidecar's answer failed: %s", tb.text("[data-askplane-error-text]"))
	}
	if got := tb.eval(`document.querySelector('[data-askplane-log] [data-askplane-stream]').getAttribute('data-askplane-state')`); got != "done" {
		t.Errorf("stream state %q; want done", got)
	}
	answer := tb.text("[data-askplane-stream] [data-askplane-markdown]")
	deltas, _ := strconv.Atoi(tb.eval(`window.__deltas`))
	t.Logf("answer in %v, %d deltas:\n%s", took.Round(time.Millisecond), deltas, answer)
	if strings.TrimSpace(answer) == "" || deltas == 0 {
		t.Errorf("no streamed text (%d deltas): %q", deltas, answer)
	}
	if !strings.Contains(answer, "PostgreSQL") {
		t.Errorf("the answer does not name PostgreSQL, which the docs give for several instances: %q", answer)
	}
	if got := tb.eval(`document.querySelector('[data-askplane-status]').textContent`); got != "Answer complete." {
		t.Errorf("status after the stream %q", got)
	}
	hrefs := tb.eval(`Array.from(document.querySelectorAll('[data-askplane-log] [data-askplane-stream] [data-askplane-source-link]'), (a) => a.getAttribute('href')).join('\n')`)
	if hrefs == "" {
		t.Fatalf("the streamed answer cites nothing")
	}
	for _, href := range strings.Split(hrefs, "\n") {
		assertPage(t, base, public, href)
	}
	if n := askRequests(t, base) - asks0; n != 1 {
		t.Errorf("%d requests to /v1/ask; want 1, the escalated question", n)
	}
	// Under the answer, "Review the evidence" opens the sidecar's review
	// page with the answer's recipe in the fragment (its Link header).
	review := tb.eval(`(() => { const p = document.querySelector('[data-askplane-stream] [data-askplane-evidence]'); return p && !p.hidden ? p.querySelector('a').href : ''; })()`)
	if !strings.HasPrefix(review, base+"/review/?corpus=docs-en#") || len(review) < len(base)+60 {
		t.Fatalf("the answer's review link %q; want %s/review/?corpus=docs-en#<recipe>", review, base)
	}
	reviewEvidence(t, browser, base, strings.TrimPrefix(review, base), strings.Split(hrefs, "\n"))
	// The sidecar minted the anonymous subject's cookie, HttpOnly; the
	// follow-up question sends it back, so it is not minted again.
	subject := subjectCookie(tb, base)
	if subject == nil {
		t.Fatalf("no askplane_subject cookie after the answer")
	}
	if !subject.HTTPOnly || subject.SameSite != network.CookieSameSiteLax || subject.Path != "/" {
		t.Errorf("subject cookie HttpOnly %v, SameSite %q, Path %q; want HttpOnly, Lax, /", subject.HTTPOnly, subject.SameSite, subject.Path)
	}
	if got := tb.eval(`document.cookie`); got != "" {
		t.Errorf("a script can read the subject cookie: %q", got)
	}
	// The log keeps its end in view; the shot shows the answer from its
	// question on.
	tb.eval(`const log = document.querySelector('[data-askplane-log]');
const q = Array.from(log.querySelectorAll('[data-askplane-question-text]')).at(-1);
log.scrollTop += q.getBoundingClientRect().top - log.getBoundingClientRect().top - 12; 0`)
	tb.shot("20-sidecar-answer")

	tb.ask("how does the sidecar get the PostgreSQL URL")
	tb.wait(`document.querySelectorAll('[data-askplane-log] [data-askplane-stream][aria-busy="false"]').length === 2`)
	if n := tb.count("[data-askplane-error]"); n != 0 {
		t.Fatalf("the follow-up failed: %s", tb.text("[data-askplane-error-text]"))
	}
	if got := tb.eval(`document.querySelectorAll('[data-askplane-log] [data-askplane-stream]')[1].getAttribute('data-askplane-state')`); got != "done" {
		t.Errorf("follow-up stream state %q; want done", got)
	}
	t.Logf("follow-up answer:\n%s", tb.eval(`document.querySelectorAll('[data-askplane-log] [data-askplane-stream] [data-askplane-markdown]')[1].textContent`))
	if again := subjectCookie(tb, base); again == nil || again.Value != subject.Value {
		t.Errorf("the follow-up minted another subject: the cookie was not sent back")
	}
	if n := askRequests(t, base) - asks0; n != 2 {
		t.Errorf("%d requests to /v1/ask; want 2, the escalated questions", n)
	}
	tb.shot("21-sidecar-follow-up")

	// The probe does see a violation of this policy: an inline script,
	// refused by script-src 'self'. Cleared, so only the widget's count.
	tb.eval(`window.__csp = []; const s = document.createElement('script'); s.textContent = 'window.__inline = 1'; document.head.append(s); 0`)
	tb.wait(`window.__csp.length > 0`)
	if got := tb.eval(`String(window.__inline)`); got != "undefined" {
		t.Errorf("an inline script ran under static.DefaultCSP")
	}
	tb.eval(`window.__csp = []; 0`)
	tb.allow(`inline script`)
}

// serveSidecar serves public through the real sidecar, configured as
// askplane dev configures it (sessions in memory), on a loopback port,
// and returns its base URL. The server drains and closes at cleanup.
func serveSidecar(t *testing.T, public string) string {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	addr := ln.Addr().String()
	cfg, env, err := sidecar.Dev(public, []string{addr}, []string{"http://" + addr}, "memory:")
	if err != nil {
		ln.Close()
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	logger := slog.New(slog.NewTextHandler(t.Output(), &slog.HandlerOptions{Level: slog.LevelWarn}))
	srv, err := sidecar.New(ctx, cfg, sidecar.Options{Env: env, Logger: logger})
	if err != nil {
		cancel()
		ln.Close()
		t.Fatal(err)
	}
	served := make(chan error, 1)
	go func() { served <- srv.Serve(ctx, ln) }()
	t.Cleanup(func() {
		cancel()
		if err := <-served; err != nil {
			t.Errorf("serve: %v", err)
		}
		srv.Close()
	})
	return "http://" + addr
}

// askRequests is how many Ask requests the sidecar has finished, by its
// /metrics: every one ends in exactly one askplane_ask_request_total_ms
// observation, whatever its outcome.
func askRequests(t *testing.T, base string) int {
	t.Helper()
	res, err := http.Get(base + "/metrics")
	if err != nil {
		t.Fatal(err)
	}
	defer res.Body.Close()
	if res.StatusCode != http.StatusOK {
		t.Fatalf("/metrics: %s", res.Status)
	}
	n := 0
	sc := bufio.NewScanner(res.Body)
	for sc.Scan() {
		name, value, ok := strings.Cut(sc.Text(), " ")
		if !ok || !strings.HasPrefix(name, "askplane_ask_request_total_ms_count") {
			continue
		}
		v, err := strconv.ParseFloat(value, 64)
		if err != nil {
			t.Fatalf("/metrics: %q", sc.Text())
		}
		n += int(v)
	}
	return n
}

// assertPage checks that href, a citation's link, is a page of the built
// site the sidecar serves, and that its fragment, if any, is an id on it.
func assertPage(t *testing.T, base, public, href string) {
	t.Helper()
	p, frag, _ := strings.Cut(href, "#")
	if !strings.HasPrefix(p, "/") || strings.HasPrefix(p, "//") {
		t.Errorf("citation %q is not a path of the site", href)
		return
	}
	if _, err := os.Stat(filepath.Join(public, filepath.FromSlash(path.Join(p, "index.html")))); err != nil {
		t.Errorf("citation %q: no such page in the build: %v", href, err)
		return
	}
	res, err := http.Get(base + p)
	if err != nil {
		t.Fatal(err)
	}
	defer res.Body.Close()
	body, _ := io.ReadAll(res.Body)
	if res.StatusCode != http.StatusOK || !strings.HasPrefix(res.Header.Get("Content-Type"), "text/html") {
		t.Errorf("citation %q: %s %s", href, res.Status, res.Header.Get("Content-Type"))
		return
	}
	if frag != "" && !regexp.MustCompile(`\sid="?`+regexp.QuoteMeta(frag)+`["\s>]`).Match(body) {
		t.Errorf("citation %q: the page has no element with id %q", href, frag)
	}
}

// subjectCookie returns the browser's askplane_subject cookie for base,
// or nil.
func subjectCookie(tb *tab, base string) *network.Cookie {
	tb.t.Helper()
	res, err := chromedp.Call(tb.ctx, network.GetCookies, network.GetCookiesParams{URLs: []string{base + "/v1/ask"}})
	if err != nil {
		tb.t.Fatal(err)
	}
	for _, c := range res.Cookies {
		if c.Name == "askplane_subject" {
			return c
		}
	}
	return nil
}

// reviewEvidence opens an answer's review link as a reader would: the
// page shows the question and the expected evidence id and asks nothing
// until its form is submitted (here with the keyboard); then it shows the
// rebuilt records, the answer's cited pages among them. A link whose
// expected id was changed fails, keeping that id in view. No CSP
// violation, and axe-core finds nothing, in either state.
func reviewEvidence(t *testing.T, browser context.Context, base, path string, cited []string) {
	axe := axeSource(t)
	tb := openPage(t, browser, &site{URL: base}, path, "[data-review-submit]")
	if got := tb.page("[data-review-question]"); got != "which session store do several sidecar instances behind a load balancer need" {
		t.Errorf("the review page shows the question %q", got)
	}
	if tb.eval(`String(document.querySelector('[data-review-result]').hidden)`) != "true" || tb.page("[data-review-status]") != "" {
		t.Error("the review page did something before the reader asked")
	}
	tb.auditAt(axe, "review, before submitting", "main")
	tb.do(chromedp.Focus(chromedp.CSS("[data-review-submit]")), chromedp.KeyEvent("\r"))
	tb.wait(`!document.querySelector('[data-review-result]').hidden || !document.querySelector('[data-review-failure]').hidden`)
	if msg := tb.page("[data-review-failure-message]"); msg != "" {
		t.Fatalf("the review failed: %s (%s)", msg, tb.page("[data-review-failure-code]"))
	}
	links := tb.eval(`Array.from(document.querySelectorAll('[data-review-records] a'), (a) => a.getAttribute('href')).join('\n')`)
	for _, c := range cited {
		if !strings.Contains("\n"+links+"\n", "\n"+c+"\n") {
			t.Errorf("the cited page %s is not among the reviewed records:\n%s", c, links)
		}
	}
	t.Logf("review: %s; %s", tb.page("[data-review-status]"), tb.page("[data-review-identity-engine]"))
	tb.auditAt(axe, "review, rebuilt", "main")
	tb.shot("22-review-rebuilt")

	// Asking something else of the same version is a new task, and says
	// so: its evidence is never shown as the answer's.
	if tb.page("[data-review-newtask-note]") == "" || tb.eval(`String(document.querySelector('[data-review-newtask-note]').hidden)`) != "true" {
		t.Error("the rebuilt evidence is labelled a new task")
	}
	tb.do(chromedp.SetValue(chromedp.CSS("[data-review-newtask-question]"), "how do I verify a built site"), chromedp.Click(chromedp.CSS("[data-review-newtask-submit]")))
	tb.wait(`document.querySelector('[data-review-status]').textContent.startsWith('New task')`)
	if tb.eval(`String(document.querySelector('[data-review-newtask-note]').hidden)`) != "false" || tb.page("[data-review-result-title]") != "New evidence" || tb.eval(`String(document.querySelectorAll('[data-review-records] li').length > 0)`) != "true" {
		t.Errorf("a new question's evidence is not labelled a new task: %q", tb.page("[data-review-status]"))
	}
	tb.auditAt(axe, "review, new task", "main")
	tb.shot("25-review-new-task")

	// The same recipe expecting other evidence is refused, never shown.
	_, frag, _ := strings.Cut(path, "#")
	raw, err := base64.RawURLEncoding.DecodeString(frag)
	if err != nil {
		t.Fatal(err)
	}
	var recipe map[string]any
	json.Unmarshal(raw, &recipe)
	wrong := "sha256:" + strings.Repeat("0", 64)
	recipe["context_id"] = wrong
	raw, _ = json.Marshal(recipe)
	bad := openPage(t, browser, &site{URL: base}, "/review/?corpus=docs-en#"+base64.RawURLEncoding.EncodeToString(raw), "[data-review-submit]")
	bad.do(chromedp.Click(chromedp.CSS("[data-review-submit]")))
	bad.wait(`!document.querySelector('[data-review-failure]').hidden`)
	bad.settle()
	bad.allow(`status of 409 .*/v1/evidence/replay`) // the refusal, expected
	if got := bad.page("[data-review-failure-context]"); got != wrong {
		t.Errorf("the failure shows the expected id %q; want %q", got, wrong)
	}
	if bad.eval(`String(document.querySelector('[data-review-result]').hidden)`) != "true" || bad.count("[data-review-records] li") != 0 {
		t.Error("a refused replay shows evidence")
	}
	t.Logf("refused: %s: %s", bad.page("[data-review-failure-code]"), bad.page("[data-review-failure-message]"))
	bad.auditAt(axe, "review, refused", "main")
	bad.shot("23-review-refused")

	// A historical link names no engine: the page says so before the
	// reader asks, and after, that the evidence's origin is unknown.
	json.Unmarshal(mustDecode(t, frag), &recipe)
	delete(recipe, "engine_id")
	raw, _ = json.Marshal(recipe)
	old := openPage(t, browser, &site{URL: base}, "/review/?corpus=docs-en#"+base64.RawURLEncoding.EncodeToString(raw), "[data-review-submit]")
	if old.eval(`String(document.querySelector('[data-review-historical]').hidden)`) != "false" || old.page("[data-review-engine]") != "not named" {
		t.Error("a link without an engine is not shown as historical")
	}
	old.do(chromedp.Click(chromedp.CSS("[data-review-submit]")))
	old.wait(`!document.querySelector('[data-review-result]').hidden || !document.querySelector('[data-review-failure]').hidden`)
	if msg := old.page("[data-review-failure-message]"); msg != "" {
		t.Fatalf("the historical link failed: %s (%s)", msg, old.page("[data-review-failure-code]"))
	}
	if got := old.page("[data-review-identity-origin]"); !strings.HasPrefix(got, "Unknown") {
		t.Errorf("a historical replay's origin reads %q; want it unknown", got)
	}
	old.auditAt(axe, "review, historical", "main")
	old.shot("24-review-historical")
}

func mustDecode(t *testing.T, frag string) []byte {
	t.Helper()
	raw, err := base64.RawURLEncoding.DecodeString(frag)
	if err != nil {
		t.Fatal(err)
	}
	return raw
}

// page is the text of the element sel selects anywhere on the page.
func (tb *tab) page(sel string) string {
	tb.t.Helper()
	return tb.eval(`(document.querySelector(` + strconv.Quote(sel) + `) || {}).textContent || ''`)
}
