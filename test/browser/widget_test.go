package browser

import (
	"bytes"
	"encoding/base64"
	"encoding/json"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/askplane/askplane/internal/sitetest"
	cdpbrowser "github.com/chromedp/cdproto/browser"
	"github.com/chromedp/chromedp"
	"github.com/chromedp/chromedp/kb"
)

// miniSite is a one-page site with a fact whose answer is a script
// payload; extra is added to params.askplane.
func miniSite(extra string) string {
	return sitetest.Layouts + `
-- hugo.toml --
baseURL = "https://docs.example/"
title = "Docs"
disableKinds = ["taxonomy", "term", "rss", "sitemap"]
[params.askplane]
siteId = "mini"
fallback = "backend"
endpoint = "/v1/ask"
` + extra + `
-- content/_index.md --
---
title: Home
askplane:
  facts:
    - id: script-probe
      kind: command
      label: Script probe
      match: [script probe, upgrade askplane]
      answer: "<script>window.__pwned = 1</script><img src=x onerror=\"window.__pwned = 2\"> is inert."
---
Home.
`
}

// tamper changes one byte of the artifact's "upgrade askplane" answer
// (-u to -U) and nothing else: its declared hash no longer matches.
func tamper(b []byte) []byte {
	return bytes.Replace(b, []byte("hugo mod get -u"), []byte("hugo mod get -U"), 1)
}

// TestWidget runs every browser scenario against the built exampleSite
// (examplePublic) in one chromium.
func TestWidget(t *testing.T) {
	browser := startBrowser(t)
	public := examplePublic(t)

	t.Run("Accessibility", func(t *testing.T) { accessibility(t, browser, public) })
	t.Run("Theming", func(t *testing.T) { theming(t, browser) })
	t.Run("MobileWidth", func(t *testing.T) { mobileWidth(t, browser, public) })

	t.Run("OpenClose", func(t *testing.T) {
		tb := openTab(t, browser, newSite(t, public, nil), "/")
		if got := tb.eval(`document.querySelector('[data-askplane-root]').hasAttribute('data-askplane-ready')`); got != "true" {
			t.Fatalf("root not ready: %s", got)
		}
		tb.shot("00-closed")
		tb.open()
		if got := tb.eval(`document.activeElement.id`); got != "askplane-q" {
			t.Errorf("focus after opening: %q; want the input", got)
		}
		if got := tb.eval(`document.querySelector('[data-askplane-launcher]').getAttribute('aria-expanded')`); got != "true" {
			t.Errorf("aria-expanded %s", got)
		}
		tb.shot("01-open")
		tb.do(chromedp.KeyEvent(kb.Escape))
		tb.wait(`document.querySelector('[data-askplane-panel]').hidden`)
		if got := tb.eval(`document.activeElement.hasAttribute('data-askplane-launcher')`); got != "true" {
			t.Errorf("focus after Escape is not on the launcher")
		}
	})

	// The shortcuts open the panel from anywhere on the page, never while
	// the reader types in a field; Escape closes it from anywhere, and
	// focus goes back where it was.
	t.Run("Shortcuts", func(t *testing.T) {
		tb := openTab(t, browser, newSite(t, public, nil), "/")
		if got := tb.eval(`document.querySelector('[data-askplane-launcher]').getAttribute('aria-keyshortcuts')`); got != "/ Control+K Meta+K" {
			t.Errorf("the launcher announces the shortcuts as %q", got)
		}
		panelHidden := `String(document.querySelector('[data-askplane-panel]').hidden)`
		// From a link in the page: / opens, Escape (focus in the panel)
		// closes, and focus returns to that link.
		tb.eval(`const a = document.querySelector('main a[href], body a[href]'); a.setAttribute('data-test-from', ''); a.focus(); 0`)
		tb.do(pressSlash())
		tb.wait(`document.querySelector('[data-askplane-panel]')?.hidden === false`)
		if got := tb.eval(`document.activeElement.id`); got != "askplane-q" {
			t.Errorf("focus after / is %q; want the question", got)
		}
		tb.do(chromedp.KeyEvent(kb.Escape))
		tb.wait(`document.querySelector('[data-askplane-panel]').hidden`)
		if got := tb.eval(`String(document.activeElement.hasAttribute('data-test-from'))`); got != "true" {
			t.Errorf("focus after Escape did not return to the link it came from")
		}
		// Typing / in one of the page's fields is a slash, not a shortcut.
		tb.eval(`const f = document.createElement('input'); f.id = 'page-field'; document.body.prepend(f); f.focus(); 0`)
		tb.do(chromedp.KeyEvent("a/b"))
		if got := tb.eval(`document.getElementById('page-field').value + ' ' + ` + panelHidden); got != "a/b true" {
			t.Errorf("typing a/b in a page field gave %q (value, panel hidden)", got)
		}
		// Ctrl-K opens too; Escape closes with focus anywhere on the page.
		tb.do(chromedp.KeyEvent("k", chromedp.KeyModifiers(chromedp.ModifierCtrl)))
		tb.wait(`document.querySelector('[data-askplane-panel]')?.hidden === false`)
		tb.eval(`document.activeElement.blur(); 0`)
		tb.do(chromedp.KeyEvent(kb.Escape))
		tb.wait(`document.querySelector('[data-askplane-panel]').hidden`)
		if got := tb.eval(panelHidden); got != "true" {
			t.Errorf("Escape outside the panel left it open")
		}
	})

	// The transcript follows the reader to the site's next page and the
	// sidecar session with it; "New conversation" clears both; what is
	// kept stays bounded.
	t.Run("Conversation", func(t *testing.T) {
		s := newSite(t, public, nil)
		tb := openTab(t, browser, s, "/")
		tb.open()
		if got := tb.eval(`String(document.querySelector('[data-askplane-new]').hidden)`); got != "true" {
			t.Errorf("the new-conversation button shows on an empty log")
		}
		tb.ask("Upgrade askplane")
		tb.wait(`document.querySelector('[data-askplane-log] [data-askplane-answer]')`)
		tb.ask("how does the sidecar cite pages")
		tb.wait(`document.querySelector('[data-askplane-log] [data-askplane-stream][data-askplane-state="done"]')`)
		first := askSession(t, s)
		tb.do(chromedp.Navigate(s.URL+"/widget/"), chromedp.WaitReady(`[data-askplane-root][data-askplane-ready]`))
		tb.open()
		if got := tb.text("[data-askplane-question-text]"); got != "Upgrade askplane\nhow does the sidecar cite pages" {
			t.Errorf("the questions on the next page: %q", got)
		}
		if got := tb.text("[data-askplane-answer]:not([data-askplane-stream]) pre code"); got != "hugo mod get -u github.com/askplane/askplane/hugo-module" {
			t.Errorf("the local answer on the next page: %q", got)
		}
		if got := tb.text("[data-askplane-stream] [data-askplane-markdown]"); !strings.HasSuffix(got, finalDelta) {
			t.Errorf("the backend answer on the next page: %q", got)
		}
		if got := tb.eval(`document.querySelector('[data-askplane-log] [data-askplane-stream] [data-askplane-source-link]')?.getAttribute('href')`); got != "/getting-started/quickstart/" {
			t.Errorf("the backend answer's source on the next page: %q", got)
		}
		if tb.eval(`String(document.querySelector('[data-askplane-empty]').hidden)`) != "true" || tb.eval(`String(document.querySelector('[data-askplane-new]').hidden)`) != "false" {
			t.Errorf("the intro shows, or the new-conversation button does not, beside a kept transcript")
		}
		tb.shot("16-conversation-next-page")
		tb.ask("and how do I stop it")
		tb.wait(`document.querySelectorAll('[data-askplane-log] [data-askplane-stream][data-askplane-state="done"]').length === 2`)
		if got := askSession(t, s); got != first || first == "" {
			t.Errorf("the next page's question went in session %q; want the conversation's %q", got, first)
		}
		if n := askMessages(t, s); n != 5 {
			t.Errorf("the next page's Ask request carries %d messages; want the 4 kept turns and the question", n)
		}
		tb.do(chromedp.Click(chromedp.CSS("[data-askplane-new]")))
		// The sidecar is told to forget the old session, once.
		for deadline := time.Now().Add(5 * time.Second); len(s.forgottenSessions()) == 0 && time.Now().Before(deadline); {
			time.Sleep(20 * time.Millisecond)
		}
		if got := s.forgottenSessions(); len(got) != 1 || got[0] != first {
			t.Errorf("sessions forgotten %q; want the conversation's %q", got, first)
		}
		if n := tb.count("[data-askplane-question-text], [data-askplane-answer], [data-askplane-error]"); n != 0 {
			t.Errorf("%d entries left after a new conversation", n)
		}
		if got := tb.eval(`String(document.querySelector('[data-askplane-empty]').hidden) + ' ' + document.activeElement.id + ' ' + document.querySelector('[data-askplane-status]').textContent`); got != "false askplane-q New conversation started." {
			t.Errorf("after a new conversation: intro hidden, focus, status = %q", got)
		}
		if got := tb.eval(`String(Object.keys(sessionStorage).filter((k) => k.startsWith('askplane:')).length)`); got != "0" {
			t.Errorf("%s transcripts kept after a new conversation", got)
		}
		tb.shot("17-new-conversation")
		tb.ask("how does the sidecar cite pages")
		tb.wait(`document.querySelector('[data-askplane-log] [data-askplane-stream][data-askplane-state="done"]')`)
		if got := askSession(t, s); got == first || got == "" {
			t.Errorf("the new conversation's session %q; want a new one", got)
		}
		if n := askMessages(t, s); n != 1 {
			t.Errorf("the new conversation's first request carries %d messages; want 1", n)
		}
		// Bounded: 15 exact answers are 32 turns; 24 at most are kept.
		for i := 0; i < 15; i++ {
			tb.ask("Upgrade askplane")
			tb.wait(`document.querySelectorAll('[data-askplane-log] [data-askplane-answer]:not([data-askplane-stream])').length === ` + itoa(i+1))
		}
		kept := tb.eval(`(() => { const k = Object.keys(sessionStorage).find((k) => k.startsWith('askplane:')); const v = JSON.parse(sessionStorage.getItem(k)); return v.turns.length + ' ' + (sessionStorage.getItem(k).length <= 32768); })()`)
		if kept != "24 true" {
			t.Errorf("kept turns, within 32,768 units: %q; want 24 true", kept)
		}
		tb.do(chromedp.Navigate(s.URL+"/"), chromedp.WaitReady(`[data-askplane-root][data-askplane-ready]`))
		// The kept transcript mounts the widget at boot, once its markup
		// and core are in.
		tb.wait(`document.querySelector('[data-askplane-root]').askplane?.widget`)
		if n := tb.count("[data-askplane-question-text]"); n != 12 {
			t.Errorf("%d questions restored; want the 12 of the 24 kept turns", n)
		}
	})

	// Exact answers wrap as paragraphs (no hard line breaks from the
	// source); code blocks have a copy button that works with the
	// Clipboard API and without it; source titles lose anchor glyphs.
	t.Run("CodeAndAnswers", func(t *testing.T) {
		s := newSite(t, public, func(s *site) {
			s.events = []any{
				map[string]string{"type": "text", "delta": "See the quickstart.\n\n```sh\naskplane dev\n```"},
				map[string]any{"type": "tool", "id": "sources-r1", "name": "cite", "args": map[string]any{"sources": []map[string]string{
					{"id": "s1", "title": "Quickstart ¶", "path": "/getting-started/quickstart/"},
					{"id": "s2", "title": "# Sessions 🔗", "path": "/sidecar/sessions/"},
				}}},
				map[string]string{"type": "done"},
			}
		})
		tb := openTab(t, browser, s, "/")
		tb.open()
		tb.ask("theme the widget")
		tb.wait(`document.querySelector('[data-askplane-log] [data-askplane-answer] [data-askplane-markdown] p')`)
		if got := tb.eval(`(() => { const ps = document.querySelectorAll('[data-askplane-log] [data-askplane-answer] [data-askplane-markdown] p'); return ps.length + ' ' + Array.from(ps).some((p) => p.textContent.includes('\n')) + ' ' + getComputedStyle(ps[0]).whiteSpace; })()`); got != "1 false normal" {
			t.Errorf("the exact answer's paragraphs (count, hard breaks, white-space): %q; want 1 false normal", got)
		}
		tb.ask("Upgrade askplane")
		tb.wait(`document.querySelector('[data-askplane-log] [data-askplane-copy]')`)
		if got := tb.text("[data-askplane-copy]"); got != "Copy code" {
			t.Errorf("copy button %q", got)
		}
		for _, name := range []string{"clipboard-read", "clipboard-write"} {
			if _, err := chromedp.Call(tb.ctx, cdpbrowser.SetPermission, cdpbrowser.SetPermissionParams{
				Permission: &cdpbrowser.PermissionDescriptor{Name: name}, Setting: cdpbrowser.PermissionSettingGranted, Origin: s.URL,
			}); err != nil {
				t.Fatal(err)
			}
		}
		tb.do(chromedp.Click(chromedp.CSS("[data-askplane-log] [data-askplane-copy]")))
		tb.wait(`document.querySelector('[data-askplane-log] [data-askplane-copy]').textContent === 'Copied.'`)
		if got := tb.eval(`navigator.clipboard.readText()`); got != "hugo mod get -u github.com/askplane/askplane/hugo-module" {
			t.Errorf("the clipboard holds %q", got)
		}
		if got := tb.eval(`document.activeElement.hasAttribute('data-askplane-copy') + ' ' + document.querySelector('[data-askplane-status]').textContent`); got != "true Copied." {
			t.Errorf("after copying: focus on the button, status = %q", got)
		}
		tb.shot("18-copied")
		// Without the Clipboard API: the textarea fallback copies the same.
		tb.eval(`Object.defineProperty(navigator, 'clipboard', { value: undefined, configurable: true });
window.__copied = ''; document.addEventListener('copy', () => { window.__copied = document.activeElement.value; }); 0`)
		tb.ask("how does the sidecar start")
		tb.wait(`document.querySelector('[data-askplane-log] [data-askplane-stream][data-askplane-state="done"] [data-askplane-copy]')`)
		tb.do(chromedp.Click(chromedp.CSS("[data-askplane-log] [data-askplane-stream] [data-askplane-copy]")))
		tb.wait(`window.__copied !== ''`)
		if got := tb.eval(`window.__copied`); got != "askplane dev" {
			t.Errorf("the fallback copied %q", got)
		}
		if got := tb.text("[data-askplane-stream] [data-askplane-source-link]"); got != "Quickstart\nSessions" {
			t.Errorf("source titles %q; want them without anchor glyphs", got)
		}
		tb.audit(axeSource(t), "code and sources")
	})

	t.Run("French", func(t *testing.T) {
		s := newSite(t, public, nil)
		tb := openTab(t, browser, s, "/fr/")
		if got := tb.eval(`document.querySelector('[data-askplane-shell]').lang`); got != "fr" {
			t.Errorf("shell lang %q; want fr", got)
		}
		if got := tb.eval(`document.querySelector('[data-askplane-launcher]').textContent.trim()`); got != "Interroger la doc" {
			t.Errorf("launcher %q; want the French string", got)
		}
		tb.open()
		if got := tb.eval(`document.querySelector('[data-askplane-close]').getAttribute('aria-label')`); got != "Fermer" {
			t.Errorf("close button name %q", got)
		}
		tb.ask("quelle est la vitesse d'une hirondelle à vide")
		tb.wait(`document.querySelector('[data-askplane-log] [data-askplane-stream][aria-busy="false"]')`)
		if got := tb.eval(`document.querySelector('[data-askplane-log] [data-askplane-stream]').getAttribute('data-askplane-reason')`); got != "miss" {
			t.Fatalf("reason %q; want miss", got)
		}
		// The backend's answer is the answer: no notice says first that
		// the site had none.
		if n := tb.count(".askplane__notice"); n != 0 {
			t.Errorf("%d notices beside the backend's answer", n)
		}
		if got := tb.text("[data-askplane-stream] [data-askplane-provenance]"); got != "Réponse tirée des pages de ce site." {
			t.Errorf("provenance %q; want the French string", got)
		}
		if got := tb.eval(`document.querySelector('[data-askplane-status]').textContent`); got != "Réponse terminée." {
			t.Errorf("status %q; want the French announcement", got)
		}
		tb.shot("15-french-miss")
	})

	t.Run("ExactAnswer", func(t *testing.T) {
		s := newSite(t, public, nil)
		tb := openTab(t, browser, s, "/")
		tb.open()
		tb.ask("Upgrade  askplane")
		tb.wait(`document.querySelector('[data-askplane-log] [data-askplane-answer]')`)
		if md := tb.text("[data-askplane-markdown]"); !strings.Contains(md, "hugo mod get -u github.com/askplane/askplane/hugo-module") {
			t.Errorf("answer %q", md)
		}
		if got := tb.text("[data-askplane-markdown] pre > code"); got != "hugo mod get -u github.com/askplane/askplane/hugo-module" {
			t.Errorf("fenced code block %q", got)
		}
		if n := tb.count("[data-askplane-source-link][href]"); n == 0 {
			t.Errorf("no source links")
		}
		if got := tb.eval(`document.querySelector('[data-askplane-status]').textContent`); got != "Answer ready." {
			t.Errorf("status %q", got)
		}
		if n := s.asks.Load(); n != 0 {
			t.Errorf("%d requests to the Ask endpoint; want 0", n)
		}
		tb.shot("02-answer")
	})

	// A site that records insights (params.askplane.insights: the root's
	// data-askplane-insights) is told of an exact answer with one
	// fire-and-forget POST /v1/feedback of {"outcome":"exact"}: not the
	// question, not the fact; the question still never reaches /v1/ask.
	// Without the attribute nothing is posted.
	t.Run("ExactAnswerReported", func(t *testing.T) {
		s := newSite(t, public, func(s *site) {
			s.rewriteHTML = func(b []byte) []byte {
				return bytes.Replace(b, []byte("data-askplane-root"), []byte("data-askplane-root data-askplane-insights"), 1)
			}
		})
		tb := openTab(t, browser, s, "/")
		tb.open()
		tb.ask("Upgrade  askplane")
		tb.wait(`document.querySelector('[data-askplane-log] [data-askplane-answer]')`)
		deadline := time.Now().Add(5 * time.Second)
		for len(s.feedbackPosts()) == 0 && time.Now().Before(deadline) {
			time.Sleep(20 * time.Millisecond)
		}
		time.Sleep(200 * time.Millisecond) // a second post would have arrived
		want := feedbackPost{"POST", "corpus=docs-en", "application/json", `{"outcome":"exact"}`}
		if posts := s.feedbackPosts(); len(posts) != 1 || posts[0] != want {
			t.Errorf("reports %+v; want exactly %+v", posts, want)
		}
		if n := s.asks.Load(); n != 0 {
			t.Errorf("%d requests to the Ask endpoint; want 0", n)
		}

		plain := newSite(t, public, nil)
		tb = openTab(t, browser, plain, "/")
		tb.open()
		tb.ask("Upgrade  askplane")
		tb.wait(`document.querySelector('[data-askplane-log] [data-askplane-answer]')`)
		time.Sleep(300 * time.Millisecond)
		if posts := plain.feedbackPosts(); len(posts) != 0 || plain.asks.Load() != 0 {
			t.Errorf("without insights: reports %+v, %d asks; want none", posts, plain.asks.Load())
		}
	})

	t.Run("SiteConfigRetried", func(t *testing.T) {
		// The page carries only the site config's URL. When it cannot be
		// fetched (both attempts fail), the widget has no trust anchor: no
		// local answer, and the question goes to the page's Ask endpoint,
		// as AgentsKit's bare fallback adapter does. The next question
		// fetches the config again and is answered exactly.
		s := newSite(t, public, func(s *site) { s.siteFailures.Store(1 << 20) })
		tb := openTab(t, browser, s, "/")
		tb.open()
		tb.ask("Upgrade askplane")
		tb.wait(`document.querySelector('[data-askplane-log] [data-askplane-stream][aria-busy="false"]')`)
		if n := tb.count("[data-askplane-answer]"); n != 0 {
			t.Errorf("%d answers without a trust anchor", n)
		}
		if n := s.asks.Load(); n != 1 {
			t.Errorf("%d Ask requests; want the escalation", n)
		}
		s.siteFailures.Store(0)
		tb.ask("Upgrade askplane")
		tb.wait(`document.querySelector('[data-askplane-log] [data-askplane-answer]')`)
		if n := s.asks.Load(); n != 1 {
			t.Errorf("%d Ask requests; want no second one", n)
		}
		tb.allow(`503`)
	})

	t.Run("SiteConfigPinsAnotherHash", func(t *testing.T) {
		// A site config that pins another artifact hash makes the real
		// artifact fail verification: nothing is answered locally.
		s := newSite(t, public, func(s *site) {
			s.rewriteSite = func(b []byte) []byte {
				return regexp.MustCompile(`sha256:[0-9a-f]{64}`).ReplaceAll(b, []byte("sha256:"+strings.Repeat("0", 64)))
			}
		})
		tb := openTab(t, browser, s, "/")
		tb.open()
		tb.ask("Upgrade askplane")
		tb.wait(`document.querySelector('[data-askplane-log] [data-askplane-stream][aria-busy="false"]')`)
		if n := tb.count("[data-askplane-answer]"); n != 0 {
			t.Errorf("%d local answers from an artifact the site config does not pin", n)
		}
		if n := s.asks.Load(); n != 1 {
			t.Errorf("%d Ask requests; want the escalation", n)
		}
	})

	t.Run("CoreOnIntent", func(t *testing.T) {
		s := newSite(t, public, nil)
		tb := openTab(t, browser, s, "/")
		if n := s.coreFetches.Load(); n != 0 {
			t.Errorf("the core module was fetched %d times before any intent; want 0", n)
		}
		// The page carries the launcher only; the panel's markup comes on
		// intent, once.
		if got := tb.eval(`String(document.querySelector('[data-askplane-panel], [data-askplane-root] template') === null)`); got != "true" || s.markupFetches.Load() != 0 {
			t.Errorf("before any intent: no panel or template in the page %s, markup fetched %d times; want true, 0", got, s.markupFetches.Load())
		}
		tb.open()
		tb.ask("Upgrade askplane")
		tb.wait(`document.querySelector('[data-askplane-log] [data-askplane-answer]')`)
		tb.ask("Upgrade askplane")
		tb.wait(`document.querySelectorAll('[data-askplane-log] [data-askplane-answer]').length === 2`)
		// Once: the import finds the module the integrity-checked
		// modulepreload fetched.
		if n := s.coreFetches.Load(); n != 1 {
			t.Errorf("the core module was fetched %d times; want 1", n)
		}
		if n := s.markupFetches.Load(); n != 1 {
			t.Errorf("the panel's markup was fetched %d times; want 1", n)
		}
	})

	// Markup that fails its integrity check never reaches the page: the
	// launcher opens nothing, and nothing in it runs.
	t.Run("TamperedMarkup", func(t *testing.T) {
		s := newSite(t, public, func(s *site) {
			s.rewriteMarkup = func(b []byte) []byte {
				return append([]byte(`<img src="x" data-tampered onerror="window.__tampered = 1">`), b...)
			}
		})
		tb := openTab(t, browser, s, "/")
		tb.do(chromedp.Click(chromedp.CSS("[data-askplane-launcher]")))
		deadline := time.Now().Add(5 * time.Second)
		for s.markupFetches.Load() == 0 && time.Now().Before(deadline) {
			time.Sleep(20 * time.Millisecond)
		}
		time.Sleep(300 * time.Millisecond)
		if got := tb.eval(`String(document.querySelector('[data-askplane-panel]') === null && document.querySelector('[data-tampered]') === null && window.__tampered === undefined) + ' ' + document.querySelector('[data-askplane-launcher]').getAttribute('aria-expanded')`); got != "true false" {
			t.Errorf("after tampered markup (nothing mounted, launcher expanded): %q; want true false", got)
		}
		tb.allow(`integrity`)
	})

	t.Run("TamperedCore", func(t *testing.T) {
		s := newSite(t, public, func(s *site) {
			s.rewriteCore = func(b []byte) []byte { return append([]byte("window.__tampered = 1;\n"), b...) }
		})
		tb := openTab(t, browser, s, "/")
		tb.open()
		tb.ask("Upgrade askplane")
		tb.wait(`document.querySelector('[data-askplane-log] [data-askplane-error]')`)
		if got := tb.text("[data-askplane-error-text]"); got != "The answers could not be loaded. Try again." {
			t.Errorf("error notice %q; want the load failure's", got)
		}
		if got := tb.eval(`String(window.__tampered)`); got != "undefined" {
			t.Errorf("a core module that fails its integrity check ran")
		}
		if n := tb.count("[data-askplane-answer]"); n != 0 {
			t.Errorf("%d answers from a tampered core", n)
		}
		if got := tb.eval(`document.querySelector('[data-askplane-status]').textContent`); got == "" {
			t.Errorf("no announcement of the failure")
		}
		tb.shot("14-tampered-core")
		// Chromium reports the blocked resource; nothing else may show.
		tb.allow(`integrity`)
	})

	t.Run("ChoicesMouse", func(t *testing.T) {
		s := newSite(t, public, nil)
		tb := openTab(t, browser, s, "/")
		tb.open()
		tb.ask("install")
		tb.wait(`document.querySelectorAll('[data-askplane-log] [data-askplane-choice]').length >= 2`)
		tb.shot("03-choices")
		label := tb.eval(`document.querySelector('[data-askplane-log] [data-askplane-choice]').textContent`)
		tb.do(chromedp.Click(chromedp.CSS("[data-askplane-log] [data-askplane-choice]")))
		tb.wait(`document.querySelector('[data-askplane-log] [data-askplane-answer]')`)
		if got := tb.text("[data-askplane-question-text]"); !strings.Contains(got, label) {
			t.Errorf("the chosen label %q is not echoed: %q", label, got)
		}
		if n := tb.count("[data-askplane-choice]:disabled"); n < 2 {
			t.Errorf("%d disabled choices after the choice; want all", n)
		}
		if n := s.asks.Load(); n != 0 {
			t.Errorf("%d Ask requests; want 0", n)
		}
		tb.shot("04-choice-answer")
	})

	t.Run("ChoicesKeyboard", func(t *testing.T) {
		s := newSite(t, public, nil)
		tb := openTab(t, browser, s, "/")
		tb.open()
		tb.ask("install")
		tb.wait(`document.querySelectorAll('[data-askplane-log] [data-askplane-choice]').length >= 2`)
		for i := 0; i < 6 && tb.eval(`document.activeElement.hasAttribute('data-askplane-choice')`) != "true"; i++ {
			tb.do(chromedp.KeyEvent(kb.Tab))
		}
		if tb.eval(`document.activeElement.hasAttribute('data-askplane-choice')`) != "true" {
			t.Fatalf("Tab never reached a choice; focus is on %s", tb.eval(`document.activeElement.outerHTML.slice(0, 80)`))
		}
		tb.do(chromedp.KeyEvent(kb.ArrowDown)) // harmless: buttons ignore arrows
		tb.do(chromedp.KeyEvent(kb.Enter))
		tb.wait(`document.querySelector('[data-askplane-log] [data-askplane-answer]')`)
		if got := tb.eval(`document.activeElement.id`); got != "askplane-q" {
			t.Errorf("focus after choosing: %q; want the input", got)
		}
		if n := s.asks.Load(); n != 0 {
			t.Errorf("%d Ask requests; want 0", n)
		}
	})

	t.Run("ForgedChoiceRefused", func(t *testing.T) {
		s := newSite(t, public, nil)
		tb := openTab(t, browser, s, "/")
		tb.open()
		tb.ask("install")
		tb.wait(`document.querySelectorAll('[data-askplane-log] [data-askplane-choice]').length >= 2`)
		const widget = `document.querySelector('[data-askplane-root]').askplane.widget`
		const box = `document.querySelector('[data-askplane-log] [data-askplane-choices]')`
		// update-module is a real entry, but "install" never offered it.
		for _, forged := range []string{"update-module", "forged-never-offered"} {
			if got := tb.eval(widget + `.choose(` + box + `, '` + forged + `')`); got != "false" {
				t.Errorf("choice %q, never offered, was accepted: %s", forged, got)
			}
		}
		tb.wait(`document.querySelector('[data-askplane-log] [data-askplane-error]')`)
		if got := tb.text("[data-askplane-error-text]"); !strings.Contains(got, "no longer available") {
			t.Errorf("refusal %q", got)
		}
		tb.do(chromedp.Click(chromedp.CSS("[data-askplane-log] [data-askplane-choice]")))
		tb.wait(`document.querySelector('[data-askplane-log] [data-askplane-answer]')`)
		// Replay: every offered choice again, once one was used.
		ids := offered(t, public, "install")
		if len(ids) < 2 {
			t.Fatalf("exampleSite offers %v for install", ids)
		}
		for _, id := range ids {
			if got := tb.eval(widget + `.choose(` + box + `, '` + id + `')`); got != "false" {
				t.Errorf("replayed choice %q was accepted", id)
			}
		}
		if n := tb.count("[data-askplane-answer]"); n != 1 {
			t.Errorf("%d answers; want 1", n)
		}
		if n := s.asks.Load(); n != 0 {
			t.Errorf("%d Ask requests; want 0", n)
		}
		tb.shot("05-refused")
	})

	t.Run("CorruptEscalates", func(t *testing.T) {
		s := newSite(t, public, func(s *site) { s.rewriteArtifact = tamper })
		tb := openTab(t, browser, s, "/")
		tb.open()
		tb.ask("upgrade askplane")
		tb.wait(`document.querySelector('[data-askplane-log] [data-askplane-stream][aria-busy="false"]')`)
		if got := tb.eval(`document.querySelector('[data-askplane-log] [data-askplane-stream]').getAttribute('data-askplane-reason')`); got != "corrupt" {
			t.Errorf("reason %q; want corrupt", got)
		}
		if got := tb.text("[data-askplane-stream] [data-askplane-markdown]"); !strings.HasSuffix(got, finalDelta) {
			t.Errorf("backend answer %q", got)
		}
		if n := tb.count("[data-askplane-answer]:not([data-askplane-stream])"); n != 0 {
			t.Errorf("a tampered artifact answered locally")
		}
		body, ctype := s.request()
		if ctype != "application/json" {
			t.Errorf("Ask content-type %q", ctype)
		}
		var req struct {
			Protocol      string
			Messages      []struct{ Role, Content string }
			Deterministic struct{ Outcome, Reason string }
		}
		if err := json.Unmarshal(body, &req); err != nil || req.Protocol != "agentskit.chat.ask" || req.Deterministic.Reason != "corrupt" ||
			len(req.Messages) == 0 || req.Messages[len(req.Messages)-1].Content != "upgrade askplane" {
			t.Errorf("Ask request %s (%v)", body, err)
		}
		if n := s.asks.Load(); n != 1 {
			t.Errorf("%d Ask requests; want 1", n)
		}
		tb.shot("06-corrupt-escalated")
	})

	// Where Web Crypto is missing (an http: page not on localhost), the
	// widget imports its own SHA-256, a module of its own checked against
	// the integrity the panel's markup gives, and verifies with it: an
	// exact answer still answers, a tampered artifact still does not.
	// Where Web Crypto is there, that module is never fetched.
	t.Run("VerifiesWithoutWebCrypto", func(t *testing.T) {
		const noSubtle = `;Object.defineProperty(Crypto.prototype, 'subtle', { get: () => undefined });`
		const fetched = `String(performance.getEntriesByType('resource').some((e) => e.name.includes('/askplane/dist/sha256.')))`
		s := newSite(t, public, func(s *site) { s.before = noSubtle })
		tb := openTab(t, browser, s, "/")
		tb.open()
		tb.ask("upgrade askplane")
		tb.wait(`document.querySelector('[data-askplane-log] [data-askplane-answer]:not([data-askplane-stream])')`)
		if got := tb.eval(`String(crypto.subtle) + ' ' + ` + fetched); got != "undefined true" {
			t.Errorf("without Web Crypto (crypto.subtle, the SHA-256 module fetched): %q; want undefined true", got)
		}
		if n := s.asks.Load(); n != 0 {
			t.Errorf("%d Ask requests for an exact answer; want 0", n)
		}
		tb.shot("06b-verified-without-web-crypto")

		bad := newSite(t, public, func(s *site) {
			s.before = noSubtle
			s.rewriteArtifact = tamper
		})
		tb2 := openTab(t, browser, bad, "/")
		tb2.open()
		tb2.ask("upgrade askplane")
		tb2.wait(`document.querySelector('[data-askplane-log] [data-askplane-stream]')`)
		if got := tb2.eval(`document.querySelector('[data-askplane-log] [data-askplane-stream]').getAttribute('data-askplane-reason')`); got != "corrupt" {
			t.Errorf("a tampered artifact without Web Crypto: reason %q; want corrupt", got)
		}
		if n := tb2.count("[data-askplane-answer]:not([data-askplane-stream])"); n != 0 {
			t.Errorf("a tampered artifact answered locally without Web Crypto")
		}
		tb2.wait(`document.querySelector('[data-askplane-log] [data-askplane-stream][aria-busy="false"]')`)

		tb3 := openTab(t, browser, newSite(t, public, nil), "/")
		tb3.open()
		tb3.ask("upgrade askplane")
		tb3.wait(`document.querySelector('[data-askplane-log] [data-askplane-answer]:not([data-askplane-stream])')`)
		if got := tb3.eval(fetched); got != "false" {
			t.Errorf("with Web Crypto the SHA-256 module was fetched")
		}
	})

	// A run's stream that ends with a retryable error may have been cut by
	// an instance going away (its notice is not in the run's log): the
	// widget reads the log again from before it and shows the rest. An
	// error the log itself ends with, read there again, ends the answer.
	t.Run("RunMovedNotice", func(t *testing.T) {
		run := map[string]any{"type": "tool", "id": "run-MOVED1", "name": "run", "args": map[string]string{"run": "run-MOVED1"}}
		moved := map[string]any{"type": "error", "message": "moved", "code": "ASK_INTERNAL", "retryable": true}
		s := newSite(t, public, func(s *site) {
			s.events = []any{run, map[string]string{"type": "text", "delta": "Part one. "}, moved}
			s.runLog = []any{run, map[string]string{"type": "text", "delta": "Part one. "}, map[string]string{"type": "text", "delta": "Part two."},
				map[string]any{"type": "tool", "id": "sources-r1", "name": "cite", "args": map[string]any{"sources": []map[string]string{{"id": "s1", "title": "Quickstart", "path": "/getting-started/quickstart/"}}}},
				map[string]string{"type": "done"}}
		})
		tb := openTab(t, browser, s, "/")
		tb.open()
		tb.ask("how does the sidecar cite pages")
		tb.wait(`document.querySelector('[data-askplane-log] [data-askplane-stream][aria-busy="false"]')`)
		if got := tb.eval(`document.querySelector('[data-askplane-log] [data-askplane-stream]').getAttribute('data-askplane-state')`) + " " + tb.text("[data-askplane-stream] [data-askplane-markdown]"); got != "done Part one. Part two." {
			t.Errorf("after the moved notice (state, text): %q", got)
		}
		s.mu.Lock()
		reads := append([]string(nil), s.runReads...)
		s.mu.Unlock()
		if len(reads) != 1 || reads[0] != "run-MOVED1 2" {
			t.Errorf("run log reads %q; want one, after the 2 events before the notice", reads)
		}
		if n := tb.count("[data-askplane-error]"); n != 0 {
			t.Errorf("the moved notice showed as an error")
		}

		s.runLog = []any{run, map[string]string{"type": "text", "delta": "Part one. "}, moved}
		tb.ask("how does the sidecar cite pages again")
		tb.wait(`document.querySelector('[data-askplane-log] [data-askplane-error]')`)
		s.mu.Lock()
		reads = append([]string(nil), s.runReads...)
		s.mu.Unlock()
		if len(reads) != 2 || reads[1] != "run-MOVED1 2" {
			t.Errorf("run log reads %q; want a second one, after 2", reads)
		}
		if got := tb.text("[data-askplane-error-text]"); got != "The docs backend could not answer." {
			t.Errorf("an error the run's log ends with: notice %q", got)
		}
	})

	t.Run("OfflineWhenFallbackDisabled", func(t *testing.T) {
		s := newSite(t, public, func(s *site) {
			s.rewriteSite = func(b []byte) []byte {
				return bytes.Replace(b, []byte(`"fallback":{"mode":"backend"}`), []byte(`"fallback":{"mode":"disabled"}`), 1)
			}
		})
		tb := openTab(t, browser, s, "/")
		tb.open()
		tb.ask("what is the airspeed of an unladen swallow")
		tb.wait(`document.querySelector('[data-askplane-log] [data-askplane-offline]')`)
		if n := s.asks.Load(); n != 0 {
			t.Errorf("%d Ask requests with fallback disabled; want 0", n)
		}
		// With no backend, why there is no answer is the whole answer.
		const miss = "This site has no exact answer to that question."
		if got := tb.text(`[data-askplane-offline] .askplane__notice-title:not([hidden])`); got != miss {
			t.Errorf("offline notice %q; want %q", got, miss)
		}
		if got := tb.eval(`document.querySelector('[data-askplane-status]').textContent`); got != miss {
			t.Errorf("status %q; want %q", got, miss)
		}
		if n := tb.count(".askplane__notice"); n != 1 {
			t.Errorf("%d notices; want the one", n)
		}
		tb.shot("07-offline")
	})

	t.Run("StreamIncrementalAndStop", func(t *testing.T) {
		s := newSite(t, public, func(s *site) {
			s.deltas = nil
			for i := 0; i < 60; i++ {
				s.deltas = append(s.deltas, "word ")
			}
			s.deltas = append(s.deltas, finalDelta)
			s.delay = 100 * time.Millisecond
		})
		tb := openTab(t, browser, s, "/")
		tb.open()
		tb.ask("how does the sidecar cite pages")
		// Neither before the answer nor while it arrives does a notice say
		// the site had no exact answer: only the answer's own progress line.
		tb.wait(`document.querySelector('[data-askplane-log] [data-askplane-stream]')`)
		if n := tb.count(".askplane__notice"); n != 0 {
			t.Errorf("%d notices before the backend's answer", n)
		}
		tb.wait(`document.querySelector('[data-askplane-log] [data-askplane-stream] [data-askplane-markdown]')?.textContent.length >= 10`)
		if n := tb.count(".askplane__notice"); n != 0 {
			t.Errorf("%d notices beside the arriving answer", n)
		}
		first := len(tb.text("[data-askplane-stream] [data-askplane-markdown]"))
		tb.wait(`document.querySelector('[data-askplane-log] [data-askplane-stream] [data-askplane-markdown]').textContent.length > ` + itoa(first))
		if got := tb.eval(`document.querySelector('[data-askplane-log] [data-askplane-stream]').getAttribute('aria-busy')`); got != "true" {
			t.Errorf("aria-busy %q while streaming", got)
		}
		tb.shot("08-streaming")
		tb.do(chromedp.Click(chromedp.CSS("[data-askplane-log] [data-askplane-stream] [data-askplane-stop]")))
		tb.wait(`document.querySelector('[data-askplane-log] [data-askplane-stream][aria-busy="false"]')`)
		stopped := tb.text("[data-askplane-stream] [data-askplane-markdown]")
		time.Sleep(400 * time.Millisecond)
		if again := tb.text("[data-askplane-stream] [data-askplane-markdown]"); again != stopped || strings.Contains(again, finalDelta) {
			t.Errorf("the stream went on after stop: %q → %q", stopped, again)
		}
		if got := tb.eval(`document.querySelector('[data-askplane-status]').textContent`); got != "Stopped." {
			t.Errorf("status %q", got)
		}
		if got := tb.eval(`document.querySelector('[data-askplane-form] [data-askplane-stop]').hidden`); got != "true" {
			t.Errorf("the form's stop button is still shown")
		}
		// The card itself says so, where a complete answer says where it
		// came from.
		if got := tb.text("[data-askplane-stream] [data-askplane-provenance]"); got != "Stopped." {
			t.Errorf("the stopped answer's card says %q; want Stopped.", got)
		}
		tb.shot("09-stopped")
		// The next page shows the stopped answer as stopped, not complete.
		tb.do(chromedp.Navigate(s.URL+"/widget/"), chromedp.WaitReady(`[data-askplane-root][data-askplane-ready]`))
		tb.open()
		tb.wait(`document.querySelector('[data-askplane-log] [data-askplane-stream]')`)
		if got := tb.eval(`document.querySelector('[data-askplane-log] [data-askplane-stream]').getAttribute('data-askplane-state')`); got != "stopped" {
			t.Errorf("the stopped answer on the next page is %q; want stopped", got)
		}
		if got := tb.text("[data-askplane-stream] [data-askplane-provenance]"); got != "Stopped." {
			t.Errorf("the stopped answer's card on the next page says %q; want Stopped.", got)
		}
		if got := tb.text("[data-askplane-stream] [data-askplane-markdown]"); got != stopped {
			t.Errorf("the stopped answer on the next page %q; want %q", got, stopped)
		}
		if got := tb.eval(`String(document.querySelector('[data-askplane-stream] [data-askplane-feedback]').hidden)`); got != "true" {
			t.Errorf("the stopped answer offers feedback on the next page")
		}
		tb.shot("09b-stopped-next-page")
		tb.audit(axeSource(t), "stopped, next page")
	})

	// Text shows as it arrives, as markdown (a fence still open is
	// already code), the sources when the cite event comes, before the
	// stream ends; a buffered body (the whole stream in one write) ends in
	// the same DOM.
	t.Run("StreamVisible", func(t *testing.T) {
		events := []any{
			map[string]string{"type": "text", "delta": "Run this:\n\n```sh\nhugo mod"},
			700 * time.Millisecond,
			map[string]string{"type": "text", "delta": " get -u\n```\nThen `hugo`."},
			700 * time.Millisecond,
			map[string]any{"type": "tool", "id": "sources-r1", "name": "cite", "args": map[string]any{
				"sources": []map[string]string{{"id": "s1", "title": "Quickstart", "path": "/getting-started/quickstart/"}},
			}},
			700 * time.Millisecond,
			map[string]string{"type": "text", "delta": " Done."},
			map[string]string{"type": "done"},
		}
		const entry = `document.querySelector('[data-askplane-log] [data-askplane-stream]')`
		final := map[bool]string{}
		for _, buffered := range []bool{false, true} {
			s := newSite(t, public, func(s *site) { s.events, s.buffered = events, buffered })
			tb := openTab(t, browser, s, "/")
			tb.open()
			tb.ask("how do I update the module")
			if !buffered {
				tb.wait(entry + `?.querySelector('pre code')?.textContent === 'hugo mod'`)
				if got := tb.eval(entry + `.getAttribute('aria-busy') + ' ' + ` + entry + `.querySelector('[data-askplane-sources-block]').hidden`); got != "true true" {
					t.Errorf("after the first delta: aria-busy, sources hidden = %q; want true true", got)
				}
				if got := tb.eval(`document.querySelector('[data-askplane-status]').textContent`); got != "The answer is arriving." {
					t.Errorf("status while streaming %q", got)
				}
				tb.shot("08a-streaming-open-fence")
				tb.wait(entry + `.querySelector('[data-askplane-source-link]')`)
				if got := tb.eval(entry + `.getAttribute('aria-busy') + ' ' + ` + entry + `.querySelector('[data-askplane-sources-block]').hidden`); got != "true false" {
					t.Errorf("after the cite event: aria-busy, sources hidden = %q; want true false", got)
				}
				if got := tb.eval(entry + `.querySelector('[data-askplane-markdown]').textContent`); strings.Contains(got, "Done.") {
					t.Errorf("text after the cite event shown before it arrived: %q", got)
				}
				tb.shot("08b-streaming-sources")
			}
			tb.wait(entry + `.getAttribute('data-askplane-state') === 'done'`)
			if got := tb.eval(entry + `.querySelector('pre code').textContent`); got != "hugo mod get -u" {
				t.Errorf("buffered %v: code block %q", buffered, got)
			}
			final[buffered] = tb.eval(entry + `.querySelector('[data-askplane-markdown]').innerHTML + '|' + ` + entry + `.querySelector('[data-askplane-sources]').innerHTML`)
			if got := tb.eval(`document.querySelector('[data-askplane-status]').textContent`); got != "Answer complete." {
				t.Errorf("buffered %v: status %q", buffered, got)
			}
		}
		if final[false] != final[true] {
			t.Errorf("a buffered body renders differently:\nstreamed %s\nbuffered %s", final[false], final[true])
		}
	})

	t.Run("StreamCompletesWithSources", func(t *testing.T) {
		s := newSite(t, public, nil)
		tb := openTab(t, browser, s, "/")
		tb.open()
		tb.ask("how does the sidecar cite pages")
		tb.wait(`document.querySelector('[data-askplane-log] [data-askplane-stream][aria-busy="false"]')`)
		if got := tb.text("[data-askplane-stream] [data-askplane-markdown]"); got != strings.Join(s.deltas, "") {
			t.Errorf("streamed text %q", got)
		}
		if got := tb.eval(`document.querySelector('[data-askplane-log] [data-askplane-stream] [data-askplane-source-link]')?.getAttribute('href')`); got != "/getting-started/quickstart/" {
			t.Errorf("cited source href %q", got)
		}
		if got := tb.eval(`document.querySelector('[data-askplane-status]').textContent`); got != "Answer complete." {
			t.Errorf("status %q", got)
		}
		tb.shot("10-stream-done")
	})

	// A backend that answers with an error status, or cannot be reached
	// at all, leaves one notice in the reader's language with a retry
	// button: no empty answer card, no raw status. Retrying, once the
	// backend is back, streams the answer.
	t.Run("BackendErrorStatus", func(t *testing.T) {
		s := newSite(t, public, func(s *site) { s.askStatus.Store(503) })
		tb := openTab(t, browser, s, "/")
		tb.open()
		tb.ask("how does the sidecar cite pages")
		tb.wait(`document.querySelector('[data-askplane-log] [data-askplane-error]')`)
		if got := tb.text("[data-askplane-error-text]"); got != "The docs backend could not be reached." {
			t.Errorf("error notice %q", got)
		}
		if got := tb.eval(`document.querySelector('[data-askplane-status]').textContent`); got != "The docs backend could not be reached." {
			t.Errorf("status %q", got)
		}
		if got := tb.text("*"); strings.Contains(got, "503") || strings.Contains(got, "HTTP") || strings.Contains(got, "Something went wrong") {
			t.Errorf("the log shows a raw status: %q", got)
		}
		// No empty card claims the docs backend answered.
		if n := tb.count("[data-askplane-stream]"); n != 0 {
			t.Errorf("%d empty answer cards left beside the error", n)
		}
		if n := tb.count("[data-askplane-error] [data-askplane-retry]:not([hidden])"); n != 1 {
			t.Fatalf("%d retry buttons; want 1", n)
		}
		// One notice, no other: nothing said first that the site had no
		// exact answer.
		if n := tb.count("> :not([data-askplane-empty], .askplane__question)"); n != 1 {
			t.Errorf("%d entries beside the question; want the one notice", n)
		}
		tb.shot("11-backend-error")
		s.askStatus.Store(0)
		tb.do(chromedp.Click(chromedp.CSS("[data-askplane-log] [data-askplane-retry]")))
		tb.wait(`document.querySelector('[data-askplane-log] [data-askplane-stream][data-askplane-state="done"]')`)
		if n := tb.count("[data-askplane-error]"); n != 0 {
			t.Errorf("the notice stayed after a successful retry")
		}
		if n := tb.count(".askplane__notice"); n != 0 {
			t.Errorf("%d notices beside the retried answer", n)
		}
		if n := tb.count("[data-askplane-question-text]"); n != 1 {
			t.Errorf("%d echoed questions; a retry echoes none", n)
		}
		if got := tb.text("[data-askplane-stream] [data-askplane-markdown]"); !strings.HasSuffix(got, finalDelta) {
			t.Errorf("the retried answer %q", got)
		}
		if n := s.asks.Load(); n != 2 {
			t.Errorf("%d Ask requests; want 2", n)
		}
		// A refusal is an answer: the retry is a new request, with a new
		// Idempotency-Key.
		if k := s.idempotencyKeys(); len(k) != 2 || !regexp.MustCompile(`^[0-9a-f]{32}$`).MatchString(k[0]) || k[1] == k[0] {
			t.Errorf("Idempotency-Keys %q; want two different ones", k)
		}
		tb.allow(`503`)
	})

	t.Run("BackendUnreachableFrench", func(t *testing.T) {
		s := newSite(t, public, nil)
		s.askDrop.Store(true)
		tb := openTab(t, browser, s, "/fr/")
		tb.open()
		tb.ask("quelle est la vitesse d'une hirondelle à vide")
		tb.wait(`document.querySelector('[data-askplane-log] [data-askplane-error]')`)
		if got := tb.text("[data-askplane-error-text]"); got != "Le service de documentation est injoignable." {
			t.Errorf("error notice %q", got)
		}
		if got := tb.text("[data-askplane-retry]"); got != "Réessayer" {
			t.Errorf("retry button %q", got)
		}
		if n := tb.count("[data-askplane-stream]"); n != 0 {
			t.Errorf("%d answer cards for an unreachable backend", n)
		}
		if n := tb.count("> :not([data-askplane-empty], .askplane__question)"); n != 1 {
			t.Errorf("%d entries beside the question; want the one notice", n)
		}
		tb.shot("11b-backend-unreachable-fr")
		tb.allow(`ERR_EMPTY_RESPONSE|Failed to fetch|/v1/ask`)
		// No response: the question may have been admitted, so the retry
		// sends the same Idempotency-Key, for the sidecar to join its run.
		s.askDrop.Store(false)
		tb.do(chromedp.Click(chromedp.CSS("[data-askplane-log] [data-askplane-retry]")))
		tb.wait(`document.querySelector('[data-askplane-log] [data-askplane-stream][data-askplane-state="done"]')`)
		// (chromium itself may send a dropped request again: same key.)
		k := s.idempotencyKeys()
		if len(k) < 2 || !regexp.MustCompile(`^[0-9a-f]{32}$`).MatchString(k[0]) {
			t.Errorf("Idempotency-Keys %q; want one key, at least twice", k)
		}
		for _, x := range k {
			if x != k[0] {
				t.Errorf("Idempotency-Keys %q; want the same one every time", k)
				break
			}
		}
	})

	// An error event after some text keeps the text, without the line
	// saying the backend answered; a backend that finds no page answering
	// the question says so, with nothing to retry.
	t.Run("BackendErrorMidStreamAndNoSources", func(t *testing.T) {
		s := newSite(t, public, func(s *site) {
			s.events = []any{
				map[string]string{"type": "text", "delta": "A partial "},
				map[string]string{"type": "text", "delta": "answer"},
				map[string]any{"type": "error", "message": "generation failed", "code": "ASK_GENERATION_FAILED"},
			}
		})
		tb := openTab(t, browser, s, "/")
		tb.open()
		tb.ask("how does the sidecar cite pages")
		tb.wait(`document.querySelector('[data-askplane-log] [data-askplane-error]')`)
		if got := tb.text("[data-askplane-error-text]"); got != "The docs backend could not answer." {
			t.Errorf("error notice %q", got)
		}
		if got := tb.text("[data-askplane-stream] [data-askplane-markdown]"); got != "A partial answer" {
			t.Errorf("the partial text %q", got)
		}
		if got := tb.eval(`String(document.querySelector('[data-askplane-log] [data-askplane-stream] [data-askplane-provenance]').hidden)`); got != "true" {
			t.Errorf("a failed answer still says the backend answered it")
		}
		s.askStatus.Store(422)
		s.askBody = `{"error":{"code":"ASK_NO_GROUNDED_SOURCES","message":"No grounded sources were found for this question.","retryable":false}}`
		tb.ask("what is the airspeed of an unladen swallow")
		tb.wait(`document.querySelectorAll('[data-askplane-log] [data-askplane-error]').length === 2`)
		if got := tb.eval(`document.querySelectorAll('[data-askplane-log] [data-askplane-error-text]')[1].textContent`); got != "The docs do not cover this question. Try other words." {
			t.Errorf("no-sources notice %q", got)
		}
		if n := tb.count("[data-askplane-retry]:not([hidden])"); n != 0 {
			t.Errorf("%d retry buttons shown; the older one goes with a new question, the no-sources one has none", n)
		}
		tb.shot("11c-backend-no-sources")
		tb.allow(`422`)
	})

	t.Run("StaleEscalates", func(t *testing.T) {
		b := sitetest.Build(t, miniSite("generatedAt = \"2020-01-01T00:00:00Z\"\nlifetime = \"24h\""))
		s := newSite(t, b.Public, nil)
		tb := openTab(t, browser, s, "/")
		tb.open()
		tb.ask("script probe")
		tb.wait(`document.querySelector('[data-askplane-log] [data-askplane-stream][aria-busy="false"]')`)
		if got := tb.eval(`document.querySelector('[data-askplane-log] [data-askplane-stream]').getAttribute('data-askplane-reason')`); got != "stale" {
			t.Errorf("reason %q; want stale", got)
		}
		if body, _ := s.request(); !bytes.Contains(body, []byte(`"reason":"stale"`)) {
			t.Errorf("Ask request %s", body)
		}
		tb.shot("12-stale-escalated")
	})

	// The site's suggested questions show in the empty panel; choosing one
	// asks it; a new conversation shows them again.
	t.Run("Suggestions", func(t *testing.T) {
		b := sitetest.Build(t, miniSite(`suggestions = ["Script probe", "  ", "What is <b>askplane</b>?"]`))
		s := newSite(t, b.Public, nil)
		tb := openTab(t, browser, s, "/")
		tb.open()
		const list = `document.querySelector('[data-askplane-empty] [data-askplane-suggestion-list]')`
		if got := tb.eval(list + `.hidden + ' ' + ` + list + `.getAttribute('aria-label') + ' ' + Array.from(` + list + `.querySelectorAll('button'), (b) => b.textContent).join('|')`); got != "false Suggested questions Script probe|What is <b>askplane</b>?" {
			t.Errorf("suggestions (hidden, label, buttons): %q", got)
		}
		tb.shot("19-suggestions")
		tb.audit(axeSource(t), "suggestions")
		tb.do(chromedp.Click(chromedp.CSS("[data-askplane-suggestion-list] button")))
		tb.wait(`document.querySelector('[data-askplane-log] [data-askplane-answer]')`)
		if got := tb.text("[data-askplane-question-text]"); got != "Script probe" {
			t.Errorf("the suggestion asked %q", got)
		}
		if got := tb.eval(`String(document.querySelector('[data-askplane-empty]').hidden) + ' ' + document.activeElement.id`); got != "true askplane-q" {
			t.Errorf("after a suggestion: intro hidden, focus = %q", got)
		}
		tb.do(chromedp.Click(chromedp.CSS("[data-askplane-new]")))
		if got := tb.eval(list + `.hidden + ' ' + ` + list + `.querySelectorAll('button').length`); got != "false 2" {
			t.Errorf("after a new conversation the suggestions (hidden, count): %q", got)
		}
	})

	// With params.askplane.feedback, a complete backend answer whose
	// review link carries a recipe shows "Was this helpful?"; choosing
	// posts exactly {context_id, verdict} once to the endpoint's sibling
	// /v1/feedback?corpus=<the link's corpus>, and the control thanks the
	// reader. Without the param, or without a context_id, there is no
	// control.
	t.Run("Feedback", func(t *testing.T) {
		const ctx = "sha256:0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef"
		recipe, _ := json.Marshal(map[string]any{"bundle": "askplane.evidence/1", "question": "how does the sidecar cite pages? ça", "context_id": ctx})
		link := `</review/?corpus=docs-en#` + base64.RawURLEncoding.EncodeToString(recipe) + `>; rel="evidence"`
		b := sitetest.Build(t, miniSite(`feedback = true`))
		s := newSite(t, b.Public, func(s *site) { s.link = link })
		tb := openTab(t, browser, s, "/")
		tb.open()
		tb.ask("how does the sidecar cite pages")
		tb.wait(`document.querySelector('[data-askplane-log] [data-askplane-stream][aria-busy="false"]')`)
		const box = `document.querySelector('[data-askplane-stream] [data-askplane-feedback]')`
		if got := tb.eval(box + `.hidden + ' ' + ` + box + `.textContent.replace(/\s+/g, ' ').trim()`); got != "false Was this helpful? Yes No" {
			t.Fatalf("the feedback control (hidden, text): %q", got)
		}
		tb.shot("22-feedback")
		tb.audit(axeSource(t), "feedback")
		if n := len(s.feedbackPosts()); n != 0 {
			t.Errorf("%d feedback posts before a choice", n)
		}
		tb.do(chromedp.Click(chromedp.CSS(`[data-askplane-stream] [data-askplane-verdict="not_helpful"]`)))
		tb.wait(box + `.textContent === 'Thanks for the feedback.'`)
		tb.do(chromedp.Click(chromedp.CSS(`[data-askplane-stream] [data-askplane-feedback]`)))
		deadline := time.Now().Add(5 * time.Second)
		for len(s.feedbackPosts()) == 0 && time.Now().Before(deadline) {
			time.Sleep(20 * time.Millisecond)
		}
		time.Sleep(200 * time.Millisecond) // a second post would have arrived
		posts := s.feedbackPosts()
		want := feedbackPost{"POST", "corpus=docs-en", "application/json", `{"context_id":"` + ctx + `","verdict":"not_helpful"}`}
		if len(posts) != 1 || posts[0] != want {
			t.Errorf("feedback posts %+v; want exactly %+v", posts, want)
		}
		if got := tb.eval(`document.querySelector('[data-askplane-status]').textContent + ' | ' + document.activeElement.hasAttribute('data-askplane-feedback')`); got != "Thanks for the feedback. | true" {
			t.Errorf("after the choice (status | focus on the control): %q", got)
		}
		tb.shot("23-feedback-thanks")
		tb.audit(axeSource(t), "feedback thanks")

		// No context_id in the link: no control.
		s.link = `</review/?corpus=docs-en#bm90IGEgcmVjaXBl>; rel="evidence"`
		tb.ask("how does the sidecar cite pages again")
		tb.wait(`document.querySelectorAll('[data-askplane-log] [data-askplane-stream][aria-busy="false"]').length === 2`)
		if got := tb.eval(`document.querySelectorAll('[data-askplane-stream] [data-askplane-feedback]')[1].hidden`); got != "true" {
			t.Errorf("an answer without a context_id shows the control")
		}

		// A site without params.askplane.feedback: no control, no attribute.
		off := newSite(t, public, func(s *site) { s.link = link })
		tb2 := openTab(t, browser, off, "/")
		if got := tb2.eval(`document.querySelector('[data-askplane-root]').hasAttribute('data-askplane-feedback')`); got != "false" {
			t.Errorf("exampleSite's root carries data-askplane-feedback")
		}
		tb2.open()
		tb2.ask("how does the sidecar cite pages")
		tb2.wait(`document.querySelector('[data-askplane-log] [data-askplane-stream][aria-busy="false"]')`)
		if got := tb2.eval(`document.querySelector('[data-askplane-stream] [data-askplane-feedback]').hidden`); got != "true" {
			t.Errorf("feedback off: the control shows")
		}
	})

	t.Run("ScriptPayloadIsText", func(t *testing.T) {
		b := sitetest.Build(t, miniSite(""))
		s := newSite(t, b.Public, nil)
		tb := openTab(t, browser, s, "/")
		tb.open()
		tb.ask("script probe")
		tb.wait(`document.querySelector('[data-askplane-log] [data-askplane-answer]')`)
		time.Sleep(200 * time.Millisecond)
		if got := tb.text("[data-askplane-markdown]"); !strings.HasPrefix(got, "<script>window.__pwned = 1</script><img") {
			t.Errorf("answer text %q", got)
		}
		if n := tb.count("script, img"); n != 0 {
			t.Errorf("%d script or img elements in the log", n)
		}
		if got := tb.eval(`String(window.__pwned)`); got != "undefined" {
			t.Errorf("the payload ran: __pwned = %s", got)
		}
		tb.shot("13-script-payload")
	})
}

// offered returns the ids of the entries of the English artifact that
// declare the alias (the choices the widget offers for it).
func offered(t *testing.T, public, alias string) []string {
	t.Helper()
	files, _ := filepath.Glob(filepath.Join(public, "askplane", "en", "knowledge.*.json"))
	if len(files) != 1 {
		t.Fatalf("artifacts %v", files)
	}
	data, err := os.ReadFile(files[0])
	if err != nil {
		t.Fatal(err)
	}
	var a struct {
		Entries []struct {
			ID    string
			Match struct{ Values []string }
		}
	}
	if err := json.Unmarshal(data, &a); err != nil {
		t.Fatal(err)
	}
	var ids []string
	for _, e := range a.Entries {
		if slices.Contains(e.Match.Values, alias) {
			ids = append(ids, e.ID)
		}
	}
	return ids
}

// askSession returns the sessionId of the last Ask request.
func askSession(t *testing.T, s *site) string {
	t.Helper()
	body, _ := s.request()
	var req struct{ SessionID string }
	if err := json.Unmarshal(body, &req); err != nil {
		t.Fatalf("Ask request %s: %v", body, err)
	}
	return req.SessionID
}

// askMessages returns how many messages the last Ask request carried.
func askMessages(t *testing.T, s *site) int {
	t.Helper()
	body, _ := s.request()
	var req struct{ Messages []json.RawMessage }
	if err := json.Unmarshal(body, &req); err != nil {
		t.Fatalf("Ask request %s: %v", body, err)
	}
	return len(req.Messages)
}

func itoa(n int) string { b, _ := json.Marshal(n); return string(b) }
