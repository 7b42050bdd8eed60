package chunk

import (
	"encoding/json"
	"fmt"
	"path/filepath"
	"strings"
	"sync"
	"syscall"
	"testing"

	"github.com/askplane/askplane/internal/sitetest"
)

// examplePages builds the example site once per process and keeps the
// English corpus's page HTML.
var (
	examplePagesOnce sync.Once
	examplePagesHTML []string
)

func examplePages(b *testing.B) []string {
	examplePagesOnce.Do(func() {
		bld, err := sitetest.BuildDir(b, filepath.Join(sitetest.Root(), "exampleSite"))
		if err != nil {
			b.Fatalf("hugo: %v\n%s", err, bld.Output)
		}
		var m struct{ Corpus struct{ Href string } }
		if err := json.Unmarshal(bld.ReadFile("askplane/en/manifest.json"), &m); err != nil {
			b.Fatal(err)
		}
		var c struct{ Pages []struct{ HTML string } }
		if err := json.Unmarshal(bld.ReadFile(m.Corpus.Href), &c); err != nil {
			b.Fatal(err)
		}
		for _, p := range c.Pages {
			examplePagesHTML = append(examplePagesHTML, p.HTML)
		}
	})
	if len(examplePagesHTML) == 0 {
		b.Skip("example site did not build")
	}
	return examplePagesHTML
}

// synthPage is a long reference page of the kind themes render: headings
// (ids on the heading, on a span inside it, or on an anchor before it),
// prose with inline code, lists, a table of settings and highlighted
// TOML with comments.
func synthPage(sections int) string {
	var b strings.Builder
	b.WriteString(`<p>This page lists every setting. Run <code>hugo mod init</code> first.</p>`)
	for i := range sections {
		switch i % 3 {
		case 0:
			fmt.Fprintf(&b, `<h2 id="setting-%d">Setting %d<a class="anchor" href="#setting-%d">#</a></h2>`, i, i, i)
		case 1:
			fmt.Fprintf(&b, `<h2 class="text-2xl font-bold"><span id="setting-%d"></span>Setting %d</h2>`, i, i)
		default:
			fmt.Fprintf(&b, `<a id="setting-%d"></a><h3 class="mt-8">Setting %d</h3>`, i, i)
		}
		fmt.Fprintf(&b, `<p>Set <code>param%d = true</code> in <code>hugo.toml</code> to turn on feature %d. The default is <code>false</code>; see <a href="/docs/">the docs</a>.</p>`, i, i)
		b.WriteString(`<ul><li>Use <code>public/</code> as the output folder.</li><li>Keep <em>drafts</em> out.</li></ul>`)
		fmt.Fprintf(&b, `<table><thead><tr><th>Key</th><th>Description</th></tr></thead><tbody><tr><td><code>feedback%d</code></td><td>Shows the feedback buttons.</td></tr><tr><td><code>search</code></td><td>Shows the search box.</td></tr></tbody></table>`, i)
		b.WriteString(`<div class="highlight"><pre tabindex="0" class="chroma"><code class="language-toml" data-lang="toml"><span class="line"><span class="cl"><span class="c"># Set to false to hide the search box</span>
</span></span><span class="line"><span class="cl"><span class="nx">search</span> <span class="p">=</span> <span class="kc">true</span>
</span></span></code></pre></div>`)
	}
	return b.String()
}

// cpuTime is the process's user and system CPU time so far, in ns.
func cpuTime() int64 {
	var ru syscall.Rusage
	if syscall.Getrusage(syscall.RUSAGE_SELF, &ru) != nil {
		return 0
	}
	return ru.Utime.Nano() + ru.Stime.Nano()
}

// reportCPU reports CPU ns per op beside wall time: on a machine shared
// with other work, wall time mostly measures the neighbours.
func reportCPU(b *testing.B, start int64) {
	if b.N > 0 {
		b.ReportMetric(float64(cpuTime()-start)/float64(b.N), "cpu-ns/op")
	}
}

func BenchmarkSplitExampleSite(b *testing.B) {
	pages := examplePages(b)
	n := 0
	for _, p := range pages {
		n += len(p)
	}
	b.SetBytes(int64(n))
	b.ReportAllocs()
	defer reportCPU(b, cpuTime())
	for b.Loop() {
		for _, p := range pages {
			if _, err := Split(p); err != nil {
				b.Fatal(err)
			}
		}
	}
}

func BenchmarkSplitReferencePage(b *testing.B) {
	page := synthPage(200)
	b.SetBytes(int64(len(page)))
	b.ReportAllocs()
	defer reportCPU(b, cpuTime())
	for b.Loop() {
		if _, err := Split(page); err != nil {
			b.Fatal(err)
		}
	}
}
