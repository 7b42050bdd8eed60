package hugomodule_test

import (
	"bytes"
	"compress/gzip"
	"os"
	"path/filepath"
	"testing"

	"github.com/askplane/askplane/internal/sitetest"
)

// The widget's weight, gzipped at the best compression, as the built
// exampleSite ships it. Every page loads the initial part: the stylesheet
// and main.js, the widget's shell code. The protocol core (core.js) is
// imported on the reader's first intent, so a reader who asks pays the
// total. Each budget is the size measured when it was set, rounded up to
// the next 0.5 KiB, so the widget cannot grow unnoticed. Lower them when
// the widget shrinks. The total went from 14 to 14.5 KiB when backend
// answers gained their review link and their markdown (code blocks) once
// whole: 14,475 B then. The initial load went from 6 to 6.5 KiB with the
// keyboard shortcuts (/, Ctrl/⌘-K, Escape from anywhere, focus return):
// 6,234 B then. The total went to 15 KiB with the honest failure
// notices and markdown rendered as a stream grows: 14,958 B then; the
// initial load to 7 KiB and the total to 15.5 KiB with conversations kept
// across pages and "New conversation": 7,108 and 15,521 B then. (Issue 15
// aims at 12 KiB in all: not reached yet.) Then to 7.5 and 16 KiB with
// copy buttons on code and answers in paragraphs: 7,515 and 15,928 B.
// The initial load fell to 4 KiB when the widget moved into the core's
// bundle and pages kept only the launcher and a loader (the panel's
// markup is a file per language, fetched on intent, not weighed here):
// 3,926 B then, and 16,283 B in all with feedback; 3,978 and 16,334 B
// once the launcher's icon took its style from the stylesheet. The total
// went to 16.5 KiB when the widget learned durable runs (an
// Idempotency-Key per question, Stop cancelling the run, a dropped
// stream read again from the run's log, a run resumed on the next page):
// 16,956 B then. It fell to 15.5 KiB when the core hashed with Web
// Crypto and its own SHA-256 became a module imported only where Web
// Crypto is missing (not weighed here): 15,829 B then, with "New
// conversation" forgetting the sidecar's session. It fell to 14.5 KiB
// when the widget drew every backend answer on one path, Hugo rendered
// the suggested questions, the stylesheet lost what its reset already
// gave, and the protocol core's decoders shared one schema guard: 14,669
// B then (CSS 2,415, main.js 1,401, core.js 10,853), and 14,631 B once a
// code block's copy button came from the markup. Issue 15's 12 KiB is
// still not reached: what is left is the strict decoding and hashing the
// protocol asks of the widget, and the widget's own features. Backend
// answers lost their escalation notice, code blocks learned to scroll,
// inline code to break between its parts, and the widget to check the
// site config against the hash its page names: 14,768 B then; 14,799 B
// once code spans took CommonMark's backtick runs; 14,821 B once an
// exact answer was reported to insights (one keepalive POST, through the
// same helper as feedback and forget); 14,793 B before that report once
// the widget's JavaScript moved into runtime/ and ui/ with one table of
// states (the split's cost paid back by smaller code).
// The widget's HTML in each page (the stylesheet link, the root, the
// launcher, the script; not gzipped) went under 1 KiB when the launcher's
// icon became the stylesheet's: 1,014 B then, from 1,274 B; 1,021 B once
// the root named the site config with its hash (?v=).
// The link relations for programs (rel="alternate" type="text/markdown"
// to the page's twin, rel="describedby" to llms.txt) come just before the
// widget's HTML and have a budget of their own, outside the widget's:
// 120 B on the home page when they came (longer on deeper pages, by the
// length of the page's path). Since they are on by default (issue 27)
// every page carries both, so the two together have a budget as well:
// 1,141 B on the home page then, over the 1 KiB aimed at by 117 B (the
// widget alone is 1,021 B); 1,152 B holds it.
const (
	widgetPageBudget    = 1024 + 128
	widgetInitialBudget = 4 * 1024
	widgetTotalBudget   = 14*1024 + 512
	widgetShellBudget   = 1024
	widgetLinksBudget   = 256
)

// widgetFiles are the published files, by glob, and whether each is part
// of the initial load.
var widgetFiles = []struct {
	pattern string
	initial bool
}{
	{"askplane/widget.min.*.css", true},
	{"askplane/dist/main.*.js", true},
	{"askplane/dist/core.*.js", false},
	// askplane/dist/sha256.*.js is imported only where Web Crypto is
	// missing: not weighed.
}

// TestWidgetSize builds exampleSite and weighs the fingerprinted widget
// stylesheet and scripts it publishes.
func TestWidgetSize(t *testing.T) {
	b, err := sitetest.BuildDir(t, filepath.Join(sitetest.Root(), "exampleSite"))
	if err != nil {
		t.Fatalf("exampleSite: %v\n%s", err, b.Output)
	}
	initial, total := 0, 0
	for _, f := range widgetFiles {
		files, _ := filepath.Glob(filepath.Join(b.Public, filepath.FromSlash(f.pattern)))
		if len(files) != 1 {
			t.Fatalf("%s: published %v; want one file", f.pattern, files)
		}
		data, err := os.ReadFile(files[0])
		if err != nil {
			t.Fatal(err)
		}
		var buf bytes.Buffer
		zw, _ := gzip.NewWriterLevel(&buf, gzip.BestCompression)
		zw.Write(data)
		zw.Close()
		t.Logf("%s: %d B, %d B gzipped", filepath.Base(files[0]), len(data), buf.Len())
		total += buf.Len()
		if f.initial {
			initial += buf.Len()
		}
	}
	kib := func(n int) float64 { return float64(n) / 1024 }
	t.Logf("widget initial load (CSS + main.js): %d B (%.2f KiB) gzipped; budget %.1f KiB", initial, kib(initial), kib(widgetInitialBudget))
	t.Logf("widget total (+ core.js on first intent): %d B (%.2f KiB) gzipped; budget %.1f KiB", total, kib(total), kib(widgetTotalBudget))
	if initial > widgetInitialBudget {
		t.Errorf("the widget's initial load weighs %d B gzipped, over the %d B budget: make it smaller, or raise widgetInitialBudget knowingly", initial, widgetInitialBudget)
	}
	if total > widgetTotalBudget {
		t.Errorf("the widget's JS + CSS weigh %d B gzipped in all, over the %d B budget: make it smaller, or raise widgetTotalBudget knowingly", total, widgetTotalBudget)
	}
	// The widget's HTML in every page: from its stylesheet link to its
	// script, as the home page carries it.
	home, err := os.ReadFile(filepath.Join(b.Public, "index.html"))
	if err != nil {
		t.Fatal(err)
	}
	start := bytes.Index(home, []byte(`<link rel="stylesheet" href="/askplane/widget.min.`))
	script := bytes.Index(home, []byte(`<script type="module" src="/askplane/dist/main.`))
	if start < 0 || script < start || bytes.Index(home[script:], []byte("</script>")) < 0 {
		t.Fatalf("the home page's widget HTML is not where it should be")
	}
	links := bytes.Index(home, []byte(`<link rel="alternate" type="text/markdown"`))
	if links < 0 || links > start {
		t.Fatalf("the home page has no link to its Markdown twin before the widget")
	}
	t.Logf("link relations in each page: %d B\n%s", start-links, home[links:start])
	if start-links > widgetLinksBudget {
		t.Errorf("the link relations take %d B, over the %d B budget", start-links, widgetLinksBudget)
	}
	shell := home[start : script+bytes.Index(home[script:], []byte("</script>"))+len("</script>")]
	t.Logf("widget HTML in each page: %d B", len(shell))
	t.Logf("askplane's HTML in each page (link relations + widget): %d B", script+bytes.Index(home[script:], []byte("</script>"))+len("</script>")-links)
	if total := len(shell) + start - links; total > widgetPageBudget {
		t.Errorf("the link relations and the widget's HTML take %d B in each page, over the %d B budget", total, widgetPageBudget)
	}
	if len(shell) > widgetShellBudget {
		t.Errorf("the widget's HTML in each page is %d B, over the %d B budget: make it smaller, or raise widgetShellBudget knowingly\n%s", len(shell), widgetShellBudget, shell)
	}
}
