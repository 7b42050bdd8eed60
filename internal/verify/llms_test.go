package verify

import (
	"strings"
	"testing"
	"testing/fstest"
)

// llmsFolder is a small publish folder as the module writes it for
// programs: two pages with twins, an llms.txt and llms-full.txt, and the
// link relations in each page.
func llmsFolder() fstest.MapFS {
	page := func(twin string) *fstest.MapFile {
		links := `<link rel="describedby" type="text/plain" href="/llms.txt">`
		if twin != "" {
			links = `<link rel="alternate" type="text/markdown" href="` + twin + `">` + links
		}
		return &fstest.MapFile{Data: []byte("<!doctype html><html><head>" + links + "</head><body><nav>menu</nav><p>x</p></body></html>")}
	}
	return fstest.MapFS{
		"index.html":             page("/index.md"),
		"index.md":               {Data: []byte("# Home\n\nURL: https://docs.example/\n\nHome, by <naveen@example.com> and <linkerd@example.com>.\n")},
		"guide/x/index.html":     page("/guide/x/index.md"),
		"guide/x/index.md":       {Data: []byte("# X\n\nURL: https://docs.example/guide/x/\n\n```html\n<nav>shown as code</nav>\n```\n")},
		"404.html":               page(""),
		"alias/index.html":       {Data: []byte(`<!doctype html><html><head><meta http-equiv="refresh" content="0; url=/"></head></html>`)},
		"askplane/en/panel.html": {Data: []byte(`<div data-askplane-panel></div>`)},
		"llms.txt":               {Data: []byte("# Docs\n\n> The docs.\n\n## Docs\n\n- [Home](https://docs.example/index.md): Home.\n\n## Guide\n\n- [X \\[beta\\]](https://docs.example/guide/x/index.md)\n")},
		"llms-full.txt":          {Data: []byte("# Docs\n")},
	}
}

func llmsCodes(t *testing.T, fsys fstest.MapFS) (*LLMs, []string) {
	t.Helper()
	sum, problems := checkLLMs(fsys, "/")
	var codes []string
	for _, p := range problems {
		codes = append(codes, p.Code+" "+p.Source)
	}
	return sum, codes
}

// TestLLMsConformant: the folder as the module writes it passes, with its
// figures counted; a folder with no llms.txt is not checked.
func TestLLMsConformant(t *testing.T) {
	sum, codes := llmsCodes(t, llmsFolder())
	if len(codes) != 0 {
		t.Fatalf("problems in a conformant folder: %v", codes)
	}
	if sum == nil || sum.Indexes != 1 || sum.Twins != 2 || sum.Pages != 3 {
		t.Errorf("summary %+v; want 1 index, 2 twins, 3 pages", sum)
	}
	f := llmsFolder()
	delete(f, "llms.txt")
	if sum, codes := llmsCodes(t, f); sum != nil || codes != nil {
		t.Errorf("a folder without llms.txt was checked: %+v %v", sum, codes)
	}
}

// TestLLMsProblems: each rule breaks with its own code, on the file to fix.
func TestLLMsProblems(t *testing.T) {
	for _, c := range []struct {
		name   string
		change func(f fstest.MapFS)
		want   string
	}{
		{"no H1", func(f fstest.MapFS) { f["llms.txt"].Data = []byte("Docs\n\n## Docs\n\n- [Home](/index.md)\n") }, "llms.invalid llms.txt"},
		{"not a link", func(f fstest.MapFS) {
			f["llms.txt"].Data = []byte("# Docs\n\n## Docs\n\n- [Home](/index.md)\n- Home: /index.md\n- [X](/guide/x/index.md)\n")
		}, "llms.invalid llms.txt"},
		{"no link", func(f fstest.MapFS) { f["llms.txt"].Data = []byte("# Docs\n\n> Nothing.\n") }, "llms.empty llms.txt"},
		{"no llms-full.txt", func(f fstest.MapFS) { delete(f, "llms-full.txt") }, "llms.full.missing llms.txt"},
		{"link to nothing", func(f fstest.MapFS) {
			f["llms.txt"].Data = append(f["llms.txt"].Data, []byte("- [Y](https://docs.example/guide/y/index.md)\n")...)
		}, "llms.link.missing llms.txt"},
		{"link to a page, not a twin", func(f fstest.MapFS) {
			f["llms.txt"].Data = append(f["llms.txt"].Data, []byte("- [X](https://docs.example/guide/x/)\n")...)
		}, "llms.link.missing llms.txt"},
		{"twin without H1", func(f fstest.MapFS) { f["guide/x/index.md"].Data = []byte("X\n") }, "twin.invalid guide/x/index.md"},
		{"twin too long", func(f fstest.MapFS) {
			f["guide/x/index.md"].Data = []byte("# X\n\n" + strings.Repeat("é", MaxTwinChars))
		}, "twin.too-long guide/x/index.md"},
		{"split twin's part too long", func(f fstest.MapFS) {
			f["guide/x/index.md"].Data = []byte("# X\n\nOne.\n\n---\n\nContinued in [part 2 of 2](index.2.md).\n")
			f["guide/x/index.2.md"] = &fstest.MapFile{Data: []byte("# X (part 2 of 2)\n\n" + strings.Repeat("a", MaxTwinChars))}
		}, "twin.too-long guide/x/index.2.md"},
		{"split twin's part missing", func(f fstest.MapFS) {
			f["guide/x/index.md"].Data = []byte("# X\n\nOne.\n\n---\n\nContinued in [part 2 of 2](index.2.md).\n")
		}, "twin.invalid guide/x/index.2.md"},
		{"chrome", func(f fstest.MapFS) { f["index.md"].Data = []byte("# Home\n\n<nav><a href=/>Home</a></nav>\n") }, "twin.chrome index.md"},
		{"chrome with attributes", func(f fstest.MapFS) {
			f["index.md"].Data = []byte("# Home\n\nBy <naveen@example.com>.\n<header class=x>Top</header>\n")
		}, "twin.chrome index.md"},
		{"page without describedby", func(f fstest.MapFS) {
			f["guide/x/index.html"].Data = []byte(`<!doctype html><html><head><link rel="alternate" type="text/markdown" href="/guide/x/index.md"></head></html>`)
		}, "page.describedby.missing guide/x/index.html"},
		{"describedby to another file", func(f fstest.MapFS) {
			f["404.html"].Data = []byte(`<!doctype html><html><head><link rel="describedby" href="/index.md"></head></html>`)
		}, "page.describedby.missing 404.html"},
		{"llms.txt that does not cover the page", func(f fstest.MapFS) {
			f["fr/llms.txt"] = &fstest.MapFile{Data: []byte("# Docs\n\n## Docs\n\n- [Home](/index.md)\n")}
			f["fr/llms-full.txt"] = &fstest.MapFile{Data: []byte("# Docs\n")}
			f["404.html"].Data = []byte(`<!doctype html><html><head><link rel="describedby" href="/fr/llms.txt"></head></html>`)
		}, "page.describedby.missing 404.html"},
		{"page without its twin's link", func(f fstest.MapFS) {
			f["guide/x/index.html"].Data = []byte(`<!doctype html><html><head><link rel="describedby" href="../../llms.txt"></head></html>`)
		}, "page.alternate.missing guide/x/index.html"},
		{"twin not listed", func(f fstest.MapFS) {
			f["llms.txt"].Data = []byte("# Docs\n\n## Docs\n\n- [Home](https://docs.example/index.md): Home.\n")
		}, "twin.unlisted guide/x/index.html"},
	} {
		t.Run(c.name, func(t *testing.T) {
			f := llmsFolder()
			c.change(f)
			_, codes := llmsCodes(t, f)
			found := false
			for _, code := range codes {
				found = found || code == c.want
			}
			if !found {
				t.Errorf("problems %v; want %q", codes, c.want)
			}
		})
	}
}

// TestLLMsBounded: a broken site gets at most MaxLLMsProblems problems and
// one saying how many more there were.
func TestLLMsBounded(t *testing.T) {
	f := llmsFolder()
	var b strings.Builder
	b.WriteString("# Docs\n\n## Docs\n\n")
	for i := range MaxLLMsProblems * 2 {
		b.WriteString("- [P](/p" + strings.Repeat("x", i) + "/index.md)\n")
	}
	f["llms.txt"].Data = []byte(b.String())
	sum, problems := checkLLMs(f, "/")
	if len(problems) != MaxLLMsProblems+1 || problems[MaxLLMsProblems].Code != "llms.more" {
		t.Fatalf("%d problems, the last %v", len(problems), problems[len(problems)-1])
	}
	if sum.Errors < MaxLLMsProblems*2 {
		t.Errorf("%d errors counted; want every one of them", sum.Errors)
	}
}
