package browser

import (
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/askplane/askplane/internal/sitetest"
)

// TestForeignTheme runs the widget on a real docs site whose theme nobody
// here wrote: rclone's documentation with its own Bootstrap theme, as
// scripts/rclone-docs.sh prepares it the way the quickstart tells an
// author to, under askplane dev. The launcher must show on its pages, the
// panel open over them, and a question be answered by the sidecar from
// the site's own pages, cited, without a console error or a CSP report.
func TestForeignTheme(t *testing.T) {
	if testing.Short() {
		t.Skip("fetches and builds rclone's docs")
	}
	browser := startBrowser(t)
	src := filepath.Join(t.TempDir(), "rclone")
	if out, err := exec.Command("bash", filepath.Join(sitetest.Root(), "scripts", "rclone-docs.sh"), src).CombinedOutput(); err != nil {
		t.Fatalf("rclone-docs.sh: %v\n%s", err, out)
	}
	base, _ := startAskplane(t, nil, "dev", "--site", src, "--addr", "127.0.0.1:0", "--watch=false",
		"--sessions", filepath.Join(t.TempDir(), "sessions.db"))

	tb := openTab(t, browser, &site{URL: base}, "/install/")
	// The theme's own: badges, an analytics script and a button frame
	// from other hosts, and inline event handlers, which the sidecar's
	// default CSP keeps out (docs/operating.md: a site that needs them
	// sets its own), and sponsor logos the module zip does not carry.
	// Nothing of askplane's may fail: the widget has no inline handler
	// and loads nothing from elsewhere (TestJourney holds it to that).
	tb.expect(`(Loading the (image|script)|Framing) '(https?://[a-z0-9.-]+\.[a-z]+/)|Executing inline event handler|404 \(Not Found\) http://127\.0\.0\.1:\d+/img/`)
	tb.open()
	tb.ask("steps to verify a downloaded release with gpg")
	tb.wait(`document.querySelector('[data-askplane-log] [data-askplane-stream][aria-busy="false"]')`)
	if n := tb.count("[data-askplane-error]"); n != 0 {
		t.Fatalf("the backend's answer failed: %s", tb.text("[data-askplane-error-text]"))
	}
	answer := tb.text("[data-askplane-stream] [data-askplane-markdown]")
	if !strings.Contains(answer, "gpg") {
		t.Errorf("the answer does not show gpg, which the release signing page gives: %q", answer)
	}
	hrefs := tb.eval(`Array.from(document.querySelectorAll('[data-askplane-log] [data-askplane-stream] [data-askplane-source-link]'), (a) => a.getAttribute('href')).join('\n')`)
	if !strings.HasPrefix(hrefs, "/release_signing/") {
		t.Errorf("the answer cites %q first; want rclone's /release_signing/", hrefs)
	}
	tb.shot("40-foreign-theme-rclone-answer")
	// The CSP reports of the same.
	tb.eval(`window.__csp = window.__csp.filter((v) => !/ https?:\/\/(?!127\.0\.0\.1)|^script-src-attr inline$/.test(v)); ''`)
}
