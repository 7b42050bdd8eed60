package browser

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/askplane/askplane/internal/devserver"
	"github.com/askplane/askplane/internal/fakesite"
	"github.com/askplane/askplane/internal/sitetest"
	cdpbrowser "github.com/chromedp/cdproto/browser"
	"github.com/chromedp/cdproto/network"
	"github.com/chromedp/chromedp"
	"github.com/chromedp/chromedp/kb"
)

// TestJourney is a reader's first hour, the same steps under the three
// ways askplane is served, each through the real askplane binary:
//
//   - Dev: `askplane dev`, the README's first command, which builds
//     exampleSite itself and serves it with its reload script;
//   - Serve: `askplane serve --config` with the README's example config,
//     the site and the Ask API on one origin;
//   - CrossOrigin: the built folder on a plain file server
//     (http.FileServer), the sidecar on another origin named by the
//     site's params.askplane.endpoint and allowed by the config's origins.
//
// The steps (journey): open the panel with / and with the launcher; a
// declared fact answered in the page with no request to /v1/ask; a
// question several facts match, answered by a choice; a question only the
// backend answers, streamed with citations; copying a code block; a new
// conversation; the backend stopped, which leaves one notice saying so
// with a way to try again.
func TestJourney(t *testing.T) {
	browser := startBrowser(t)
	root := sitetest.Root()

	t.Run("Dev", func(t *testing.T) {
		base, stop := startAskplane(t, nil, "dev", "--addr", "127.0.0.1:0", "--sessions", filepath.Join(t.TempDir(), "sessions.db"))
		// dev's one addition, the reload script, is in the page navigated
		// to, and in nothing the page pins with an integrity hash.
		if page := get(t, base+"/", "document"); !strings.Contains(page, `<script src="`+devserver.ScriptPath+`" defer></script></body>`) {
			t.Errorf("askplane dev's home page has no reload script before </body>")
		}
		assertPinned(t, "askplane dev", func(url, dest string) []byte { return []byte(get(t, base+url, dest)) })
		// The reader's page is the one dev built; every cited page is
		// checked against exampleSite built here, from the same sources.
		journey(t, browser, base, examplePublic(t), stop, `/_askplane/dev/events`, func(tb *tab) {
			sidecarExtras(t, browser, tb, base)
		})
	})

	t.Run("Serve", func(t *testing.T) {
		public := examplePublic(t)
		addr := freeAddr(t)
		// The example config's origins name only a docs site elsewhere:
		// the pages this sidecar serves ask from its own origin, which a
		// static site accepts on the hosts it lists.
		config, env := serveConfig(t, public, addr, []string{"https://docs.example.com"}, true)
		base, stop := startAskplane(t, env, "serve", "--config", config)
		if base != "http://"+addr {
			t.Fatalf("askplane serve listens on %s; want %s", base, addr)
		}
		journey(t, browser, base, public, stop, "", nil)
	})

	t.Run("CrossOrigin", func(t *testing.T) {
		// The sidecar's address comes first: the build names it.
		addr := freeAddr(t)
		endpoint := filepath.Join(t.TempDir(), "endpoint.toml")
		if err := os.WriteFile(endpoint, []byte("[params.askplane]\n  endpoint = \"http://"+addr+"/v1/ask?corpus=docs-en\"\n"), 0o644); err != nil {
			t.Fatal(err)
		}
		site := filepath.Join(root, "exampleSite")
		b, err := sitetest.BuildDir(t, site, "--config", filepath.Join(site, "hugo.toml")+","+endpoint)
		if err != nil {
			t.Fatalf("hugo: %v\n%s", err, b.Output)
		}
		files := httptest.NewServer(http.FileServer(http.Dir(b.Public)))
		t.Cleanup(files.Close)
		config, env := serveConfig(t, b.Public, addr, []string{files.URL}, false)
		backend, stop := startAskplane(t, env, "serve", "--config", config)
		if backend != "http://"+addr {
			t.Fatalf("askplane serve listens on %s; want %s", backend, addr)
		}
		journey(t, browser, files.URL, b.Public, stop, "", nil)
	})
}

// journey runs the reader's steps on the site at base, whose built folder
// is public. stopBackend stops the sidecar. streams is a pattern of
// requests that fail once the server is gone, besides /v1/ask. extra,
// when set, runs with the backend's first answer in the log, before the
// copy.
func journey(t *testing.T, browser context.Context, base, public string, stopBackend func(), streams string, extra func(*tab)) {
	tb := openTab(t, browser, &site{URL: base}, "/")
	var posts atomic.Int32 // the widget's questions to the backend, as the browser sent them
	if err := chromedp.Listen(tb.ctx, func(ev any) {
		if e, ok := ev.(*network.EventRequestWillBeSent); ok && e.Request.Method == http.MethodPost && strings.Contains(e.Request.URL, "/v1/ask") {
			posts.Add(1)
		}
	}); err != nil {
		t.Fatal(err)
	}
	panelOpen := `document.querySelector('[data-askplane-panel]')?.hidden === false`

	// Open with /, close with Escape, open with the launcher.
	tb.do(pressSlash())
	tb.wait(panelOpen)
	if got := tb.eval(`document.activeElement.id`); got != "askplane-q" {
		t.Errorf("focus after / is %q; want the question", got)
	}
	if got := tb.eval(`document.getElementById('askplane-q').value`); got != "" {
		t.Errorf("the / that opened the panel was typed into the question: %q", got)
	}
	tb.do(chromedp.KeyEvent(kb.Escape))
	tb.wait(`document.querySelector('[data-askplane-panel]').hidden`)
	tb.open()
	tb.shot(shotName(t, "open"))

	// A declared fact (exampleSite's upgrade-module) is answered in the
	// page: nothing is asked of the backend.
	const fact = "hugo mod get -u github.com/askplane/askplane/hugo-module"
	tb.ask("Upgrade askplane")
	tb.wait(`document.querySelector('[data-askplane-log] [data-askplane-answer]:not([data-askplane-stream])')`)
	if got := tb.text("[data-askplane-answer]:not([data-askplane-stream]) [data-askplane-markdown] pre > code"); got != fact {
		t.Errorf("the fact's code %q; want %q", got, fact)
	}
	if got := tb.page("[data-askplane-status]"); got != uiText(t, "askplane_message_answered") {
		t.Errorf("status after the fact %q", got)
	}

	// Several facts match "install": the reader chooses one, still in the
	// page.
	tb.ask("install")
	tb.wait(`document.querySelectorAll('[data-askplane-log] [data-askplane-choice]').length >= 2`)
	label := tb.eval(`document.querySelector('[data-askplane-log] [data-askplane-choice]').textContent`)
	tb.do(chromedp.Click(chromedp.CSS("[data-askplane-log] [data-askplane-choice]")))
	tb.wait(`document.querySelectorAll('[data-askplane-log] [data-askplane-answer]:not([data-askplane-stream])').length === 2`)
	if got := tb.text("[data-askplane-question-text]"); !strings.HasSuffix(got, "\n"+label) {
		t.Errorf("the chosen %q is not the last question echoed: %q", label, got)
	}
	if n := posts.Load(); n != 0 {
		t.Errorf("%d requests to /v1/ask for a fact and a choice; want 0", n)
	}

	// A question only the docs answer goes to the sidecar, which streams
	// an answer citing pages of the site. deltas counts the renders of
	// the streamed text (at most one a frame while it arrives, and one at
	// the end).
	tb.eval(`window.__deltas = 0;
new MutationObserver((ms) => { for (const m of ms) if (m.target.closest?.('[data-askplane-stream] [data-askplane-markdown]')) window.__deltas++; })
  .observe(document.querySelector('[data-askplane-log]'), { childList: true, subtree: true }); 0`)
	tb.ask("which session store do several sidecar instances behind a load balancer need")
	tb.wait(`document.querySelector('[data-askplane-log] [data-askplane-stream][aria-busy="false"]')`)
	if n := tb.count("[data-askplane-error]"); n != 0 {
		t.Fatalf("the backend's answer failed: %s", tb.text("[data-askplane-error-text]"))
	}
	if got := tb.eval(`document.querySelector('[data-askplane-log] [data-askplane-stream]').getAttribute('data-askplane-state')`); got != "done" {
		t.Errorf("stream state %q; want done", got)
	}
	if answer := tb.text("[data-askplane-stream] [data-askplane-markdown]"); !strings.Contains(answer, "PostgreSQL") {
		t.Errorf("the answer does not name PostgreSQL, which the docs give for several instances: %q", answer)
	}
	if tb.eval(`String(window.__deltas > 0)`) != "true" {
		t.Errorf("the answer never rendered as it streamed")
	}
	if got := tb.page("[data-askplane-status]"); got != uiText(t, "askplane_message_done") {
		t.Errorf("status after the stream %q", got)
	}
	hrefs := tb.eval(`Array.from(document.querySelectorAll('[data-askplane-log] [data-askplane-stream] [data-askplane-source-link]'), (a) => a.getAttribute('href')).join('\n')`)
	if hrefs == "" {
		t.Errorf("the backend's answer cites nothing")
	}
	for _, href := range strings.Split(hrefs, "\n") {
		if href != "" {
			assertPage(t, base, public, href)
		}
	}
	if n := posts.Load(); n != 1 {
		t.Errorf("%d requests to /v1/ask; want 1, the backend's question", n)
	}
	tb.shot(shotName(t, "answer"))
	if extra != nil {
		extra(tb)
	}

	// Copy the fact's code block.
	for _, name := range []string{"clipboard-read", "clipboard-write"} {
		if _, err := chromedp.Call(tb.ctx, cdpbrowser.SetPermission, cdpbrowser.SetPermissionParams{
			Permission: &cdpbrowser.PermissionDescriptor{Name: name}, Setting: cdpbrowser.PermissionSettingGranted, Origin: base,
		}); err != nil {
			t.Fatal(err)
		}
	}
	tb.do(chromedp.Click(chromedp.CSS("[data-askplane-log] [data-askplane-copy]")))
	tb.wait(`document.querySelector('[data-askplane-log] [data-askplane-copy]').textContent === ` + jsString(uiText(t, "askplane_message_copied")))
	if got := tb.eval(`navigator.clipboard.readText()`); got != fact {
		t.Errorf("the clipboard holds %q; want %q", got, fact)
	}

	// A new conversation empties the log.
	tb.do(chromedp.Click(chromedp.CSS("[data-askplane-new]")))
	tb.wait(`document.querySelector('[data-askplane-status]').textContent === ` + jsString(uiText(t, "askplane_message_cleared")))
	if n := tb.count("[data-askplane-question-text], [data-askplane-answer], [data-askplane-choices], [data-askplane-escalation]"); n != 0 {
		t.Errorf("%d entries left after a new conversation", n)
	}
	if got := tb.eval(`String(document.querySelector('[data-askplane-empty]').hidden) + ' ' + document.activeElement.id`); got != "false askplane-q" {
		t.Errorf("after a new conversation (intro hidden, focus): %q; want false askplane-q", got)
	}

	// The backend goes away: the question gets one notice saying so, with
	// a way to try again, and nothing else claims an answer.
	// Once it is stopped, requests to it fail, and chromium says so:
	// those errors, and only those, are expected.
	stopBackend()
	allowed := `/v1/ask|ERR_CONNECTION_REFUSED|Failed to fetch`
	if streams != "" {
		allowed += "|" + streams
	}
	tb.expect(allowed)
	tb.ask("how does the sidecar cite pages")
	tb.wait(`document.querySelector('[data-askplane-log] [data-askplane-error]')`)
	tb.settle()
	assertUnreachable(t, tb)
	tb.shot(shotName(t, "backend-down"))
}

// get returns the body of a GET of url sent with the Sec-Fetch-Dest a
// browser gives it.
func get(t *testing.T, url, dest string) string {
	t.Helper()
	req, err := http.NewRequest(http.MethodGet, url, nil)
	if err != nil {
		t.Fatal(err)
	}
	req.Header.Set("Sec-Fetch-Dest", dest)
	res, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer res.Body.Close()
	body, err := io.ReadAll(res.Body)
	if err != nil || res.StatusCode != http.StatusOK {
		t.Fatalf("GET %s: %s %v", url, res.Status, err)
	}
	return string(body)
}

// assertUnreachable checks what the log shows once the backend cannot be
// reached: exactly one notice, in the words of the i18n key
// askplane_message_unreachable, with a visible button to try again
// (askplane_retry), and no answer card. The selectors are the widget's
// markup (internal/web); when the notice's markup changes, this is the
// one place to change.
func assertUnreachable(t *testing.T, tb *tab) {
	t.Helper()
	const notice = "[data-askplane-error]"
	if n := tb.count(notice); n != 1 {
		t.Errorf("%d notices; want exactly one", n)
	}
	if got, want := tb.text(notice+" [data-askplane-error-text]"), uiText(t, "askplane_message_unreachable"); got != want {
		t.Errorf("the notice says %q; want askplane_message_unreachable, %q", got, want)
	}
	if got, want := tb.text(notice+" [data-askplane-retry]:not([hidden])"), uiText(t, "askplane_retry"); got != want {
		t.Errorf("the notice's retry button %q; want askplane_retry, %q", got, want)
	}
	if n := tb.count("[data-askplane-stream]"); n != 0 {
		t.Errorf("%d answer cards beside the notice; want none", n)
	}
}

// uiText is the English string of an i18n key of the Hugo module
// (hugo-module/i18n/en.toml), the words a reader sees.
func uiText(t *testing.T, key string) string {
	t.Helper()
	data, err := os.ReadFile(filepath.Join(sitetest.ModuleDir(), "i18n", "en.toml"))
	if err != nil {
		t.Fatal(err)
	}
	m := regexp.MustCompile(`(?m)^` + regexp.QuoteMeta(key) + ` = "((?:[^"\\]|\\.)*)"$`).FindSubmatch(data)
	if m == nil {
		t.Fatalf("hugo-module/i18n/en.toml has no %s", key)
	}
	var s string
	if err := json.Unmarshal([]byte(`"`+string(m[1])+`"`), &s); err != nil {
		t.Fatalf("%s: %v", key, err)
	}
	return s
}

// jsString is s as a JavaScript string literal.
func jsString(s string) string { b, _ := json.Marshal(s); return string(b) }

// shotName names a screenshot of a journey step after its subtest.
func shotName(t *testing.T, step string) string {
	return "30-journey-" + strings.ToLower(filepath.Base(t.Name())) + "-" + step
}

// askplane is the askplane command, built once for the package.
var askplane = sync.OnceValues(func() (string, error) {
	bin := filepath.Join(builds, "askplane")
	cmd := exec.Command("go", "build", "-o", bin, "./sidecar/cmd/askplane")
	cmd.Dir = sitetest.Root()
	if out, err := cmd.CombinedOutput(); err != nil {
		return "", fmt.Errorf("go build ./sidecar/cmd/askplane: %v\n%s", err, out)
	}
	return bin, nil
})

// startAskplane runs the askplane binary with args, in the checkout, and
// returns the base URL it says it serves on (dev's "open http://…",
// serve's "listening on http://…") and a stop that interrupts it, as
// Ctrl-C does, and checks it exits 0. It is stopped at cleanup too.
func startAskplane(t *testing.T, env []string, args ...string) (base string, stop func()) {
	t.Helper()
	bin, err := askplane()
	if err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command(bin, args...)
	cmd.Dir = sitetest.Root()
	cmd.Env = append(os.Environ(), env...)
	var out fakesite.Buffer
	cmd.Stdout, cmd.Stderr = &out, &out
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	exited := make(chan error, 1)
	go func() { exited <- cmd.Wait() }()
	var once sync.Once
	stop = func() {
		once.Do(func() {
			cmd.Process.Signal(os.Interrupt)
			select {
			case err := <-exited:
				if err != nil {
					t.Errorf("askplane %s exited: %v\n%s", args[0], err, out.String())
				}
			case <-time.After(20 * time.Second):
				cmd.Process.Kill()
				<-exited
				t.Errorf("askplane %s did not stop within 20 s of an interrupt\n%s", args[0], out.String())
			}
		})
	}
	t.Cleanup(func() {
		stop()
		if t.Failed() {
			t.Logf("askplane %s printed:\n%s", strings.Join(args, " "), out.String())
		}
	})
	listening := regexp.MustCompile(`(?:open|listening on) (http://[^/ ]+)/`)
	for deadline := time.Now().Add(3 * time.Minute); ; time.Sleep(50 * time.Millisecond) {
		if m := listening.FindStringSubmatch(out.String()); m != nil {
			return m[1], stop
		}
		select {
		case err := <-exited:
			exited <- err
			t.Fatalf("askplane %s exited before serving: %v\n%s", args[0], err, out.String())
		default:
		}
		if time.Now().After(deadline) {
			t.Fatalf("askplane %s never said where it serves:\n%s", args[0], out.String())
		}
	}
}

// freeAddr is a loopback address no one listens on, for a server that
// must be named before it starts.
func freeAddr(t *testing.T) string {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer ln.Close()
	return ln.Addr().String()
}

// serveConfig writes sidecar/config/askplane.example.json, the config the
// README runs askplane serve with, answering from public on addr: its
// hosts are addr, its origins those given, its cookie not Secure and
// same-site (plain http on loopback), static as given. It returns the
// file and the environment the config names (the cookie secret and the
// CI token).
func serveConfig(t *testing.T, public, addr string, origins []string, static bool) (path string, env []string) {
	t.Helper()
	data, err := os.ReadFile(filepath.Join(sitetest.Root(), "sidecar", "config", "askplane.example.json"))
	if err != nil {
		t.Fatal(err)
	}
	var cfg map[string]any
	if err := json.Unmarshal(data, &cfg); err != nil {
		t.Fatal(err)
	}
	cfg["addr"] = addr
	sites := cfg["sites"].([]any)
	if len(sites) != 1 {
		t.Fatalf("the example config has %d sites; want 1", len(sites))
	}
	s := sites[0].(map[string]any)
	s["public"] = public
	s["hosts"] = []string{addr}
	s["origins"] = append([]string{}, origins...)
	s["secureCookie"] = false
	s["crossSiteCookie"] = false
	s["static"] = static
	data, err = json.MarshalIndent(cfg, "", "  ")
	if err != nil {
		t.Fatal(err)
	}
	path = filepath.Join(t.TempDir(), "askplane.json")
	if err := os.WriteFile(path, data, 0o644); err != nil {
		t.Fatal(err)
	}
	return path, []string{"ASKPLANE_COOKIE_SECRET=" + randomHex(), "ASKPLANE_TOKEN_CI=" + randomHex()}
}

func randomHex() string {
	b := make([]byte, 32)
	rand.Read(b)
	return hex.EncodeToString(b)
}
