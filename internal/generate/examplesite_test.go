package generate

import (
	"context"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/askplane/askplane/internal/corpus"
	"github.com/askplane/askplane/internal/engines"
	"github.com/askplane/askplane/internal/evidence"
	"github.com/askplane/askplane/internal/sitetest"
)

// Questions no fact covers, asked of askplane's own docs, get an answer
// from the page that explains them.
func TestExampleSite(t *testing.T) {
	if testing.Short() {
		t.Skip("builds the example site with Hugo")
	}
	b, err := sitetest.BuildDir(t, filepath.Join(sitetest.Root(), "exampleSite"))
	if err != nil {
		t.Fatalf("hugo: %v\n%s", err, b.Output)
	}
	c, err := corpus.LoadDir(os.DirFS(b.Public), "en")
	if err != nil {
		t.Fatal(err)
	}
	// The sidecar's default engine, which a reader's question meets.
	ix := engines.Current().Index(c)
	for _, tc := range []struct{ q, want string }{
		{"How long should browsers cache the artifact?", "Cache-Control"},
		{"What happens when the artifact has expired?", "expire"},
	} {
		pkg := ix.Search(tc.q, evidence.Budget{})
		res, err := Run(context.Background(), Extractive{}, Question{Text: tc.q}, &pkg, nil)
		if err != nil {
			t.Fatalf("%q: %v", tc.q, err)
		}
		t.Logf("%q → %q cites %v", tc.q, res.Text, res.Used)
		if !strings.Contains(strings.ToLower(res.Text), strings.ToLower(tc.want)) {
			t.Errorf("%q: answer %q lacks %q", tc.q, res.Text, tc.want)
		}
	}

	// Answers a reader would keep: the command or configuration in a
	// fence with its language, from the page that explains it, cited
	// first (that page, or a section of it), and the sections used all
	// cited.
	for _, tc := range []struct {
		q, fence, cite string
		alsoCited      []string
	}{
		{"How do I add askplane to my Hugo site?",
			"```toml\n# hugo.toml\n[module]\n  [[module.imports]]\n    path = \"github.com/askplane/askplane/hugo-module\"\n```",
			"/getting-started/quickstart/", []string{"/getting-started/quickstart/#import-the-module"}},
		{"How do I serve the widget from another origin?",
			"```text\nconnect-src 'self' https://ask.example.com\n```",
			"/widget/csp/", []string{"/widget/csp/#connect-src", "/sidecar/configuration/#authentication-and-hints"}},
	} {
		pkg := ix.Search(tc.q, evidence.Budget{})
		res, err := Run(context.Background(), Extractive{}, Question{Text: tc.q}, &pkg, nil)
		if err != nil {
			t.Fatalf("%q: %v", tc.q, err)
		}
		var cites []string
		for _, id := range res.Used {
			for _, r := range pkg.Records {
				if r.ID == id {
					cites = append(cites, r.Href())
				}
			}
		}
		t.Logf("%q →\n%s\ncites %v", tc.q, res.Text, cites)
		if !strings.Contains(res.Text, tc.fence) {
			t.Errorf("%q: the answer lacks\n%s", tc.q, tc.fence)
		}
		if len(cites) == 0 || cites[0] != tc.cite && !strings.HasPrefix(cites[0], tc.cite+"#") {
			t.Errorf("%q: cites %v, want %s first", tc.q, cites, tc.cite)
		}
		for _, c := range tc.alsoCited {
			if !slices.Contains(cites, c) {
				t.Errorf("%q: cites %v, not %s", tc.q, cites, c)
			}
		}
		if strings.Contains(res.Text, "---") || strings.Count(res.Text, "{{") != strings.Count(res.Text, "}}") || strings.Count(res.Text, "```")%2 != 0 {
			t.Errorf("%q: front matter, a cut template tag or an open fence", tc.q)
		}
	}
}

// The Composer shapes an answer by what is asked and by what the best
// evidence is, over real builds: askplane's own docs, and the Lighthouse
// manual the retrieval benchmark uses (a theme with two ways to install
// it, which askplane's docs do not have).
func TestComposerShapes(t *testing.T) {
	if testing.Short() {
		t.Skip("builds sites with Hugo")
	}
	// index is src built and indexed by the default engine, once for
	// every question asked of it.
	indexes := map[string]evidence.Engine{}
	index := func(t *testing.T, src string) evidence.Engine {
		t.Helper()
		if ix, ok := indexes[src]; ok {
			return ix
		}
		b, err := sitetest.BuildDir(t, filepath.Join(sitetest.Root(), src))
		if err != nil {
			t.Fatalf("hugo: %v\n%s", err, b.Output)
		}
		c, err := corpus.LoadDir(os.DirFS(b.Public), "en")
		if err != nil {
			t.Fatal(err)
		}
		indexes[src] = engines.Current().Index(c)
		return indexes[src]
	}
	ask := func(t *testing.T, src, q string) (string, []string) {
		t.Helper()
		pkg := index(t, src).Search(q, evidence.Budget{MaxRecords: 5})
		res, err := Run(context.Background(), Composer{}, Question{Text: q}, &pkg, nil)
		if err != nil {
			t.Fatalf("%q: %v", q, err)
		}
		var cites []string
		for _, id := range res.Used {
			for _, r := range pkg.Records {
				if r.ID == id {
					cites = append(cites, r.Href())
				}
			}
		}
		t.Logf("%q →\n%s\ncites %v", q, res.Text, cites)
		if res.Usage == nil || res.Usage.Model != ComposerModel {
			t.Errorf("%q: usage %+v, want model %s", q, res.Usage, ComposerModel)
		}
		return res.Text, cites
	}
	// order checks that every part is in text, in this order.
	order := func(t *testing.T, text string, parts ...string) {
		t.Helper()
		at := 0
		for _, p := range parts {
			i := strings.Index(text[at:], p)
			if i < 0 {
				t.Fatalf("the answer lacks %q after byte %d:\n%s", p, at, text)
			}
			at += i + len(p)
		}
	}

	t.Run("definition", func(t *testing.T) {
		// The defining sentence of the page whose title names the
		// subject, its opening, leads; not a section about one of its
		// parts ("Each entry is one fact …").
		text, cites := ask(t, "exampleSite", "What is the knowledge artifact?")
		if !strings.HasPrefix(text, "The knowledge artifact carries every exact fact of one language.") {
			t.Errorf("the answer does not open with the page's definition:\n%s", text)
		}
		if len(cites) == 0 || cites[0] != "/protocol/knowledge-artifact/" {
			t.Errorf("cites %v, want the page's opening first", cites)
		}
		if strings.Contains(text, "```") || len(text) > DefaultComposeBytes {
			t.Errorf("a definition is a short paragraph, not %d bytes or code", len(text))
		}
	})

	t.Run("procedure", func(t *testing.T) {
		// Every step of the guide in reading order, the steps the
		// evidence holds with their first sentence, then the first
		// step's command; never the guide's last sentence alone.
		text, cites := ask(t, "exampleSite", "What are the steps of the quickstart?")
		order(t, text, "The steps (Quickstart):",
			"\n1. Import the module: Add the import to your site configuration and fetch it.",
			"\n2. Configure the module", "\n3. Add the widget", "\n4. Declare a first fact", "\n5. Build and check",
			"```toml\n# hugo.toml\n[module]\n  [[module.imports]]\n    path = \"github.com/askplane/askplane/hugo-module\"\n```")
		if !slices.Contains(cites, "/getting-started/quickstart/#import-the-module") {
			t.Errorf("cites %v, not the first step", cites)
		}
		for _, c := range cites {
			if !strings.HasPrefix(c, "/getting-started/quickstart/") {
				t.Errorf("cites %s, outside the guide", c)
			}
		}
	})

	t.Run("alternatives", func(t *testing.T) {
		// One line saying there are several ways, each way a line of
		// its own, then the first way's commands.
		text, cites := ask(t, "testdata/retrieval/lighthouse", "how do I install the Lighthouse theme")
		order(t, text, "There are two ways (Installation):",
			"\n- As a Hugo module: The recommended way is a Hugo module.",
			"\n- As a Git submodule: If you cannot use modules, add the theme as a submodule",
			"```sh\nhugo mod init github.com/you/docs\n```")
		for _, want := range []string{"/docs/start/installation/#as-a-hugo-module", "/docs/start/installation/#as-a-git-submodule"} {
			if !slices.Contains(cites, want) {
				t.Errorf("cites %v, not %s", cites, want)
			}
		}
		// Asking for one of the ways gets that way alone.
		text, _ = ask(t, "testdata/retrieval/lighthouse", "install the theme as a git submodule")
		order(t, text, "add the theme as a submodule", "```sh\ngit submodule add")
		if strings.Contains(text, "There are") || strings.Contains(text, "hugo mod init") {
			t.Errorf("one way asked for, several given:\n%s", text)
		}
	})

	t.Run("error", func(t *testing.T) {
		// The troubleshooting entry naming the error: its cause, then its
		// fix; not the row of the limits table that names its code.
		text, cites := ask(t, "exampleSite", "build error: duplicate fact id")
		order(t, text, "unique per language", "Fix: rename one of them.")
		if strings.Contains(text, "fact.id.invalid") {
			t.Errorf("the answer quotes the limits table:\n%s", text)
		}
		if len(cites) == 0 || cites[0] != "/facts/validation/#duplicate-id" {
			t.Errorf("cites %v, want the entry first", cites)
		}
	})

	t.Run("model hints", func(t *testing.T) {
		// A model reads the same shapes in the records' titles.
		for _, tc := range []struct{ src, q, title string }{
			{"exampleSite", "What are the steps of the quickstart?", "Quickstart › Import the module (step 1 of 5)"},
			{"testdata/retrieval/lighthouse", "how do I install the Lighthouse theme", "Installation › As a Git submodule (way 2 of 2)"},
		} {
			pkg := index(t, tc.src).Search(tc.q, evidence.Budget{MaxRecords: 5})
			var titles []string
			for _, r := range askInput(Question{Text: tc.q}, &pkg).Records {
				titles = append(titles, r.Title)
			}
			if !slices.Contains(titles, tc.title) {
				t.Errorf("%q: titles %q, none %q", tc.q, titles, tc.title)
			}
		}
	})

	t.Run("docsy", func(t *testing.T) {
		// Docsy's own docs, which nobody here wrote.
		const docsy = "testdata/retrieval/docsy"
		// A comparison: the list whose items each name one side.
		text, _ := ask(t, docsy, "difference between full and shared chrome build modes")
		order(t, text, "select one of two build modes:", "\n- `full` (default) emits", "\n- `shared` emits")
		// Code the reader quoted: the section whose example holds it.
		text, cites := ask(t, docsy, "after a Hugo upgrade `enabled: yes` in my YAML no longer switches the feature on")
		order(t, text, "Applies if your project has YAML with unquoted `yes`", "enabled: yes", "enabled: true")
		if len(cites) != 1 || !strings.HasPrefix(cites[0], "/blog/2026/hugo-0.152.0+/") {
			t.Errorf("cites %v, want the upgrade guide alone", cites)
		}
		// A pasted command: the block that runs it alone, with what it does.
		text, _ = ask(t, docsy, "hugo mod init github.com/me/my-new-site")
		order(t, text, "To turn your site into a Hugo Module, run", "```bash\nhugo mod init github.com/me/my-new-site\n```", "`go.mod`")
		// An entry the question names: the whole list item.
		text, _ = ask(t, docsy, "What happens when a reader clicks Create child page?")
		order(t, text, "Create child page: Brings the user to a create new file form in their fork", "The new file will be located as a child")
		// A shortcode's parameters: every row of its table, compactly.
		text, _ = ask(t, docsy, "iframe shortcode parameters")
		order(t, text, "inline frame (iframe).", "\n- src: URL of external content", "\n- sub: ")
		if strings.Contains(text, "card") {
			t.Errorf("another section's code under the iframe answer:\n%s", text)
		}
		// Sibling sections titled as steps ("Add your logo", "Use
		// icons", "Add your favicons") are not the guide to a task none
		// of them names.
		text, _ = ask(t, docsy, "How do I add an inline image to a docs page?")
		order(t, text, "To add inline images to other pages, use the `imgproc` shortcode.")
		if strings.Contains(text, "The steps") {
			t.Errorf("another task's sections as steps:\n%s", text)
		}
		// A question about an aside of a guide gets the aside, not the
		// guide from its start.
		text, _ = ask(t, docsy, "hugo deploy only uploads changed files, how do I force it to upload everything")
		order(t, text, "In particular, you may find the `--maxDeletes int` option or the `--force` option (which forces upload of all files) useful.")
		if strings.Contains(text, "create your S3 bucket") {
			t.Errorf("the guide from its start:\n%s", text)
		}
	})

	t.Run("unsure", func(t *testing.T) {
		// A question the docs do not answer gets one line saying so and
		// the closest sections, each cited, never a stray sentence.
		text, cites := ask(t, "exampleSite", "how do I bake sourdough bread with askplane?")
		if !strings.HasPrefix(text, "I found no passage that answers this directly; the closest sections are:\n- ") || len(cites) == 0 {
			t.Errorf("not an honest answer:\n%s", text)
		}
	})
}
