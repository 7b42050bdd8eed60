package browser

import (
	"context"
	"encoding/base64"
	"encoding/json"
	"io"
	"net/http"
	"os"
	"path"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/askplane/askplane/internal/static"
	"github.com/chromedp/cdproto/network"
	"github.com/chromedp/chromedp"
)

// sidecarExtras is what a reader of askplane dev gets beyond the
// journey's steps, with nothing faked (the real sidecar with sidecar.Dev's
// config, its static files under static.DefaultCSP, its Host and Origin
// guard, its anonymous cookie, the extractive answer from the English
// corpus). TestJourney runs it under Dev, after the backend's first
// answer (the question below) is in the log: its "Review the evidence"
// link opens the sidecar's review page, which rebuilds the answer's
// evidence; the sidecar minted an HttpOnly subject cookie that the
// follow-up question sends back; and the page's CSP probe does see a
// violation of static.DefaultCSP.
func sidecarExtras(t *testing.T, browser context.Context, tb *tab, base string) {
	res, err := http.Get(base + "/")
	if err != nil {
		t.Fatal(err)
	}
	res.Body.Close()
	if got := res.Header.Get("Content-Security-Policy"); got != static.DefaultCSP {
		t.Errorf("the home page's CSP is %q; want static.DefaultCSP %q", got, static.DefaultCSP)
	}
	hrefs := tb.eval(`Array.from(document.querySelectorAll('[data-askplane-log] [data-askplane-stream] [data-askplane-source-link]'), (a) => a.getAttribute('href')).join('\n')`)
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
