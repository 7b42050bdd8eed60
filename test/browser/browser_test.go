// Package browser drives the built example site in headless Debian
// chromium with chromedp: the widget's answers, choices, escalation and
// stream, under a strict Content-Security-Policy.
package browser

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/askplane/askplane/internal/sitetest"
	"github.com/chromedp/cdproto/cdp"
	"github.com/chromedp/cdproto/input"
	"github.com/chromedp/cdproto/log"
	"github.com/chromedp/cdproto/page"
	"github.com/chromedp/cdproto/runtime"
	"github.com/chromedp/chromedp"
)

const chromium = "/usr/bin/chromium"

// builds holds what outlives one test: the exampleSite build every test
// of the package shares. TestMain removes it.
var builds string

func TestMain(m *testing.M) {
	dir, err := os.MkdirTemp("", "askplane-browser-")
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	builds = dir
	code := m.Run()
	os.RemoveAll(dir)
	os.Exit(code)
}

// example is exampleSite, built once for the package.
var example struct {
	sync.Mutex
	public string
}

// examplePublic returns the public folder of exampleSite, building it on
// first use with the pinned Hugo and this checkout's module. Every test
// reads the same build; none may write to it.
func examplePublic(t *testing.T) string {
	t.Helper()
	example.Lock()
	defer example.Unlock()
	if example.public == "" {
		b, err := sitetest.BuildDir(keepTB{t}, filepath.Join(sitetest.Root(), "exampleSite"))
		if err != nil {
			t.Fatalf("hugo: %v\n%s", err, b.Output)
		}
		example.public = b.Public
	}
	return example.public
}

// keepTB is t with temporary folders under builds, so a build outlives
// the test that made it.
type keepTB struct{ testing.TB }

func (k keepTB) TempDir() string {
	dir, err := os.MkdirTemp(builds, "")
	if err != nil {
		k.Fatal(err)
	}
	return dir
}

// startBrowser launches one headless chromium for the test and its
// subtests. It skips when chromium is missing, unless CI is set.
func startBrowser(t testing.TB) context.Context {
	t.Helper()
	if _, err := os.Stat(chromium); err != nil {
		if os.Getenv("CI") == "" {
			t.Skipf("%s is missing (install Debian's chromium package); CI is unset, so skipping", chromium)
		}
		t.Fatalf("%s is missing and CI is set: %v", chromium, err)
	}
	opts := []chromedp.ExecAllocatorOption{
		chromedp.ExecPath(chromium),
		chromedp.Headless,
		chromedp.NoSandbox,
		chromedp.DisableGPU,
		chromedp.NoFirstRun,
		chromedp.NoDefaultBrowserCheck,
		chromedp.Flag("disable-background-networking", true),
		chromedp.Flag("disable-component-update", true),
		chromedp.Flag("disable-sync", true),
		chromedp.Flag("disable-dev-shm-usage", true),
		chromedp.UserDataDir(t.TempDir()),
		chromedp.WindowSize(1280, 860),
	}
	actx, cancelAlloc := chromedp.NewExecAllocator(context.Background(), opts...)
	bctx, cancelBrowser := chromedp.NewContext(actx)
	if err := chromedp.Do(bctx); err != nil {
		cancelBrowser()
		cancelAlloc()
		t.Fatalf("start chromium: %v", err)
	}
	t.Cleanup(func() { cancelBrowser(); cancelAlloc() })
	return bctx
}

// screenshotDir is $ASKPLANE_SCREENSHOTS when set, else a folder of the test.
var (
	shotOnce sync.Once
	shotDir  string
)

func screenshots(t *testing.T) string {
	shotOnce.Do(func() {
		shotDir = os.Getenv("ASKPLANE_SCREENSHOTS")
		if shotDir == "" {
			shotDir = filepath.Join(os.TempDir(), fmt.Sprintf("askplane-screenshots-%d", os.Getpid()))
		}
		os.MkdirAll(shotDir, 0o755)
	})
	return shotDir
}

// tab is one browser tab on one served site. It records every CSP
// violation, uncaught exception and console or security error.
type tab struct {
	t    *testing.T
	ctx  context.Context
	site *site

	mu       sync.Mutex
	problems []string
	expected []*regexp.Regexp // problems expect drops as they come
}

// cspProbe runs before the page's scripts (CDP-injected scripts are not
// subject to the page's CSP) and records violations the page reports.
const cspProbe = `window.__csp = [];
document.addEventListener('securitypolicyviolation', (e) => window.__csp.push(e.violatedDirective + ' ' + e.blockedURI));`

func openTab(t *testing.T, browser context.Context, s *site, path string) *tab {
	t.Helper()
	return openPage(t, browser, s, path, "[data-askplane-launcher]")
}

// openPage opens path in a new tab, as openTab does, and waits until the
// element ready selects is visible.
func openPage(t *testing.T, browser context.Context, s *site, path, ready string) *tab {
	t.Helper()
	ctx, cancel := chromedp.NewContext(browser)
	ctx, cancelTimeout := context.WithTimeout(ctx, 60*time.Second)
	tb := &tab{t: t, ctx: ctx, site: s}
	if err := chromedp.Listen(ctx, tb.record); err != nil {
		t.Fatal(err)
	}
	if _, err := chromedp.Call(ctx, page.AddScriptToEvaluateOnNewDocument, page.AddScriptToEvaluateOnNewDocumentParams{Source: cspProbe + s.before}); err != nil {
		t.Fatal(err)
	}
	tb.do(chromedp.Navigate(s.URL+path), chromedp.WaitVisible(chromedp.CSS(ready)))
	t.Cleanup(func() {
		tb.assertClean()
		cancelTimeout()
		cancel()
	})
	return tb
}

func (tb *tab) record(ev any) {
	var p string
	switch ev := ev.(type) {
	case *runtime.EventExceptionThrown:
		p = "exception: " + ev.ExceptionDetails.Text
		if ev.ExceptionDetails.Exception != nil {
			p += " " + ev.ExceptionDetails.Exception.Description
		}
	case *runtime.EventConsoleAPICalled:
		if ev.Type == "error" || ev.Type == "warning" {
			p = fmt.Sprintf("console.%s", ev.Type)
			for _, a := range ev.Args {
				p += " " + a.Description + string(a.Value)
			}
		}
	case *log.EventEntryAdded:
		e := ev.Entry
		// A missing favicon is the only network error the site may log.
		if e.Level == log.EntryLevelError && !(e.Source == log.EntrySourceNetwork && strings.Contains(e.URL, "favicon")) {
			p = fmt.Sprintf("log %s: %s %s", e.Source, e.Text, e.URL)
		}
	}
	if p != "" {
		tb.mu.Lock()
		defer tb.mu.Unlock()
		for _, rx := range tb.expected {
			if rx.MatchString(p) {
				return
			}
		}
		tb.problems = append(tb.problems, p)
	}
}

// allow drops recorded problems that match re (an expected network
// error, such as the 503 of the failing Ask endpoint).
func (tb *tab) allow(re string) {
	rx := regexp.MustCompile(re)
	tb.mu.Lock()
	defer tb.mu.Unlock()
	kept := tb.problems[:0]
	for _, p := range tb.problems {
		if !rx.MatchString(p) {
			kept = append(kept, p)
		}
	}
	tb.problems = kept
}

// expect is allow for the rest of the tab's life: problems matching re,
// recorded so far or to come (a stream that keeps retrying a stopped
// server), are dropped.
func (tb *tab) expect(re string) {
	tb.allow(re)
	tb.mu.Lock()
	tb.expected = append(tb.expected, regexp.MustCompile(re))
	tb.mu.Unlock()
}

// assertClean fails on any CSP violation, exception or console error.
func (tb *tab) assertClean() {
	tb.t.Helper()
	if tb.ctx.Err() == nil {
		if v := tb.eval(`window.__csp.join('\n')`); v != "" {
			tb.t.Errorf("CSP violations:\n%s", v)
		}
	}
	tb.mu.Lock()
	defer tb.mu.Unlock()
	for _, p := range tb.problems {
		tb.t.Errorf("page problem: %s", p)
	}
}

func (tb *tab) do(steps ...chromedp.Action[chromedp.Void]) {
	tb.t.Helper()
	if err := chromedp.Do(tb.ctx, steps...); err != nil {
		tb.t.Fatal(err)
	}
}

// eval returns the value of a JavaScript expression, as a string.
func (tb *tab) eval(js string) string {
	tb.t.Helper()
	v, err := chromedp.Run(tb.ctx, chromedp.Evaluate[any](js, chromedp.EvalAwaitPromise))
	if err != nil {
		tb.t.Fatalf("%s: %v", js, err)
	}
	if v == nil {
		return ""
	}
	return fmt.Sprint(v)
}

// wait polls a JavaScript condition until it is truthy.
func (tb *tab) wait(cond string) {
	tb.t.Helper()
	if _, err := chromedp.Run(tb.ctx, chromedp.Poll[any](cond, chromedp.WithPollingTimeout(15*time.Second))); err != nil {
		tb.t.Fatalf("waiting for %s: %v", cond, err)
	}
}

// settle waits until the panel's opening animation and every other finite
// animation is over, so a screenshot shows the finished state.
func (tb *tab) settle() {
	tb.t.Helper()
	tb.wait(`document.getAnimations().every((a) => a.effect.getComputedTiming().iterations === Infinity || a.playState === 'finished')`)
}

func (tb *tab) shot(name string) {
	tb.t.Helper()
	tb.settle()
	png, err := chromedp.Run(tb.ctx, chromedp.CaptureScreenshot())
	if err != nil {
		tb.t.Fatal(err)
	}
	p := filepath.Join(screenshots(tb.t), name+".png")
	if err := os.WriteFile(p, png, 0o644); err != nil {
		tb.t.Fatal(err)
	}
	tb.t.Logf("screenshot: %s", p)
}

// open opens the panel with the launcher.
func (tb *tab) open() {
	tb.t.Helper()
	tb.do(chromedp.Click(chromedp.CSS("[data-askplane-launcher]")), chromedp.WaitVisible(chromedp.CSS("[data-askplane-panel]")))
}

// ask types question into the ask box and presses Enter.
func (tb *tab) ask(question string) {
	tb.t.Helper()
	tb.do(chromedp.SendKeys(chromedp.CSS("#askplane-q"), question+"\r"))
}

// count returns how many elements in the log match a selector.
func (tb *tab) count(sel string) int {
	tb.t.Helper()
	var n int
	fmt.Sscan(tb.eval(fmt.Sprintf(`document.querySelectorAll('[data-askplane-log] %s').length`, sel)), &n)
	return n
}

func (tb *tab) text(sel string) string {
	tb.t.Helper()
	return tb.eval(fmt.Sprintf(`Array.from(document.querySelectorAll('[data-askplane-log] %s'), (e) => e.textContent).join('\n')`, sel))
}

// pressSlash presses "/" as a keyboard does: one keydown carrying the
// text, which a handler that calls preventDefault keeps out of every
// field. chromedp.KeyEvent sends the text as a separate char event that
// Chromium inserts into whatever has focus by then, so a shortcut that
// moves focus to a field quickly enough would find "/" typed into it.
func pressSlash() chromedp.Action[chromedp.Void] {
	return chromedp.Func(func(ctx context.Context, t *chromedp.Target) error {
		down := input.DispatchKeyEventParams{Type: input.DispatchKeyEventTypeKeyDown, Key: "/", Code: "Slash", Text: "/", UnmodifiedText: "/", WindowsVirtualKeyCode: 191, NativeVirtualKeyCode: 191}
		if _, err := cdp.Call(ctx, t, input.DispatchKeyEvent, down); err != nil {
			return err
		}
		up := down
		up.Type, up.Text, up.UnmodifiedText = input.DispatchKeyEventTypeKeyUp, "", ""
		_, err := cdp.Call(ctx, t, input.DispatchKeyEvent, up)
		return err
	})
}
