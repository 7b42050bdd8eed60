package generate

import (
	"context"
	"slices"
	"strings"
	"testing"

	"github.com/askplane/askplane/internal/evidence"
)

// compose answers q over the pages with the Composer.
func composeOver(t *testing.T, q string, pages ...[3]string) (string, []string) {
	t.Helper()
	pkg := v3(t, pages...).Search(q, evidence.Budget{})
	res, err := Run(context.Background(), Composer{}, Question{Text: q}, &pkg, nil)
	if err != nil {
		t.Fatalf("%q: %v", q, err)
	}
	return res.Text, res.Used
}

// composeNow answers q over the pages with the Composer over the
// default engine's chunks (askplane.chunk/2: ordered lists keep their
// numbers), as the sidecar does today.
func composeNow(t *testing.T, q string, pages ...[3]string) string {
	t.Helper()
	pkg := evidence.NewIndex3(corpusOf(t, pages...)).Search(q, evidence.Budget{})
	res, err := Run(context.Background(), Composer{}, Question{Text: q}, &pkg, nil)
	if err != nil {
		t.Fatalf("%q: %v", q, err)
	}
	return res.Text
}

// composeRanked answers q over the pages with their records in the
// order of ranked (page URLs), as an engine ranked them on a real site
// the test stands for; every page must give a record.
func composeRanked(t *testing.T, q string, ranked []string, pages ...[3]string) string {
	t.Helper()
	pkg := evidence.NewIndex3(corpusOf(t, pages...)).Search(q, evidence.Budget{})
	if len(pkg.Records) != len(ranked) {
		t.Fatalf("%d records for %d pages", len(pkg.Records), len(ranked))
	}
	slices.SortFunc(pkg.Records, func(a, b evidence.Selected) int { return slices.Index(ranked, a.URL) - slices.Index(ranked, b.URL) })
	res, err := Run(context.Background(), Composer{}, Question{Text: q}, &pkg, nil)
	if err != nil {
		t.Fatalf("%q: %v", q, err)
	}
	return res.Text
}

// A sentence leaning on what came before ("This …", "For example …")
// or a guide's closing line does not lead; the sentence that says how
// does, with its code.
func TestComposerLeadAnswers(t *testing.T) {
	page := [3]string{"/docs/deploy/", "Deploy", `<p>This makes the site faster to deploy on every push.</p>
<p>For example, deploy previews get their own URL.</p>
<p>To deploy the site, run hugo deploy with a target:</p>
<pre><code class="language-sh">hugo deploy --target production</code></pre>
<p>In the future, whenever you push a change, the site will rebuild and deploy.</p>`}
	text, _ := composeOver(t, "how do I deploy the site", page)
	if !strings.HasPrefix(text, "To deploy the site, run hugo deploy with a target:\n\n```sh\nhugo deploy --target production\n```") {
		t.Errorf("lead:\n%s", text)
	}
	if strings.Contains(text, "In the future") || strings.Contains(text, "For example") {
		t.Errorf("a dependent or closing sentence was quoted:\n%s", text)
	}
}

// A list answers a question asking for several things, one line per
// item however many sentences it has, ordered lists keeping numbers.
func TestComposerLists(t *testing.T) {
	page := [3]string{"/docs/search/", "Search", `<h2 id="options">Search options</h2>
<p>You can choose from:</p>
<ol><li>Local search, which indexes in the browser. It needs no service.</li>
<li>Algolia, which is hosted. It is free for open source.</li></ol>`}
	text, _ := composeOver(t, "which search options are there", page)
	want := "You can choose from:\n\n1. Local search, which indexes in the browser. It needs no service.\n2. Algolia, which is hosted. It is free for open source."
	if !strings.HasPrefix(text, want) {
		t.Errorf("got\n%s\nwant\n%s", text, want)
	}
}

// Records without blocks (v1 and v2 corpora, or a package decoded from
// JSON) are answered from their excerpts.
func TestComposerExcerpts(t *testing.T) {
	pkg := &evidence.Package{Records: []evidence.Selected{
		{ID: "a", URL: "/a/", Title: "Sessions", Excerpt: "This is noted. Sessions live in SQLite by default. Several instances need PostgreSQL."},
	}}
	res, err := Run(context.Background(), Composer{}, Question{Text: "where do sessions live"}, pkg, nil)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.HasPrefix(res.Text, "Sessions live in SQLite by default.") || len(res.Used) != 1 {
		t.Errorf("%q cites %v", res.Text, res.Used)
	}
}

// Nothing is stitched from another page or an unrelated section: a
// sentence elsewhere holding a question word the answer lacks stays out.
func TestComposerNoStraySupport(t *testing.T) {
	look := [3]string{"/docs/look/", "Look and feel", `<h2 id="body-class">Adding a custom class to the body element</h2>
<p>To add a custom class to the body element of a page, set the body_class parameter in its front matter.</p>
<pre><code class="language-yaml">body_class: myclass</code></pre>`}
	nav := [3]string{"/docs/nav/", "Navigation", `<h2 id="version-menu">Version menu</h2>
<p>To style the version menu wrapper of a page, apply your custom CSS to the td-navbar class.</p>`}
	text, _ := composeOver(t, "add a custom CSS class to the body of a page", look, nav)
	if !strings.Contains(text, "body_class") || strings.Contains(text, "version menu") {
		t.Errorf("got\n%s", text)
	}
}

// A question naming a setting verbatim is answered by the sentence that
// names it.
func TestComposerVerbatimSetting(t *testing.T) {
	page := [3]string{"/docs/sites/", "Sites", `<p>The static half of a site can live on any host that serves static files.</p>
<h2 id="entries">Site entries</h2>
<ul><li><code>engine</code> names the retrieval engine.</li><li><code>static: true</code> on one site also serves its built files at <code>/</code>.</li></ul>`}
	text, _ := composeOver(t, "static: true", page)
	if !strings.HasPrefix(text, "`static: true` on one site") {
		t.Errorf("got\n%s", text)
	}
}

// A sentence introducing a list ("To serve your site locally:") goes on
// into the list rather than ending the answer on its colon.
func TestComposerIntroducedList(t *testing.T) {
	page := [3]string{"/docs/local/", "Serving your site locally", `<p>You may want to serve your site locally to preview changes. To serve your site locally:</p>
<ol><li>Clone your site.</li><li>Run the <code>hugo server</code> command in your site root.</li></ol>`}
	text, _ := composeOver(t, "serve my site locally", page)
	if !strings.Contains(text, "To serve your site locally:\n\n1. Clone your site.\n2. Run the `hugo server` command") {
		t.Errorf("got\n%s", text)
	}
}

// "What is X" is answered by the section whose heading asks it and the
// sentence "X is a …", not by another "X is …" sentence elsewhere.
func TestComposerDefinitionHeading(t *testing.T) {
	about := [3]string{"/about/", "About Docsy", `<h2 id="next">What's next for Docsy?</h2>
<p>Docsy is an open source project and we love getting patches and contributions to make Docsy better.</p>`}
	docs := [3]string{"/docs/", "Welcome to Docsy", `<p>Welcome to the Docsy user guide.</p>
<h2 id="what-is-docsy">What is Docsy?</h2>
<p>Docsy is a theme for the Hugo static site generator designed for technical documentation sets.</p>`}
	text, _ := composeOver(t, "what is Docsy", about, docs)
	if !strings.HasPrefix(text, "Docsy is a theme") {
		t.Errorf("got\n%s", text)
	}
}

// "what does …" asks for one thing, not a list: it is not answered
// with an item of a list.
func TestComposerWhatDoesIsNotListing(t *testing.T) {
	for q, want := range map[string]bool{"what does the NB alert type mean": false, "what happens when facts match": false, "what files does the build write": true, "what order should I do the steps in": true} {
		if got := pluralAsked(q); got != want {
			t.Errorf("pluralAsked(%q) = %v", q, got)
		}
	}
}

// Sibling steps with the same command quote it once.
func TestComposerProcedureCodeOnce(t *testing.T) {
	page := [3]string{"/docs/update/", "Update the theme", `<p>Update the theme as it was installed.</p>
<h2 id="steps">Update steps</h2>
<h3 id="fetch">Update the submodule</h3>
<p>Fetch the tags of the theme:</p>
<pre><code class="language-sh">git -C themes/t fetch --tags</code></pre>
<h3 id="fetch-clone">Update the clone</h3>
<p>In a clone, run:</p>
<pre><code class="language-sh">git -C themes/t fetch --tags</code></pre>`}
	text, _ := composeOver(t, "steps to update the theme", page)
	if n := strings.Count(text, "fetch --tags"); n != 1 {
		t.Errorf("the command is quoted %d times:\n%s", n, text)
	}
}

// An error question is answered by the troubleshooting entry quoting its
// message, not by a blog aside whose heading shares more of its words.
func TestComposerTroubleshootingFirst(t *testing.T) {
	trouble := [3]string{"/docs/troubleshooting/", "Troubleshooting", `<h2 id="missing-deps">Missing theme npm dependencies</h2>
<p>If the theme's npm packages aren't available, Hugo fails while compiling SCSS with an error like:</p>
<pre><code class="language-text">File to import not found or unreadable: ../../vendor/bootstrap/scss/functions.</code></pre>
<p>To fix this, install the npm dependencies, then rebuild:</p>
<ul><li>Example sites: run npm install from your site root.</li><li>Submodules: run npm run install:theme-deps.</li></ul>`}
	blog := [3]string{"/blog/migration/", "Bootstrap migration", `<h2 id="functions-first">Import ordering of Bootstrap SCSS files: functions first</h2>
<p>Projects can import Bootstrap SCSS sources all in one go, or selectively import the functions file and the parts they need.</p>`}
	text, _ := composeOver(t, "the build fails because it cannot find the bootstrap scss functions file, what did I forget?", trouble, blog)
	if !strings.HasPrefix(text, "If the theme") || !strings.Contains(text, "then rebuild:\n\n- Example sites: run npm install") {
		t.Errorf("got\n%s", text)
	}
}

// A name asked alone is answered by the sentence or row that speaks of
// it (opens with it), not one naming it among examples.
func TestComposerVerbatimSubject(t *testing.T) {
	metrics := [3]string{"/metrics/", "Metrics", `<p>An error is recorded by its stable code, such as <code>ASK_TIMEOUT</code>, not by its message.</p>`}
	wire := [3]string{"/wire/", "Wire format", `<h2 id="codes">Error codes</h2>
<ul><li><code>ASK_TIMEOUT</code>: the deadline passed</li><li><code>ASK_INVALID_REQUEST</code>: the body broke the schema</li></ul>`}
	text, _ := composeOver(t, "ASK_TIMEOUT", metrics, wire)
	if !strings.HasPrefix(text, "`ASK_TIMEOUT`: the deadline passed") {
		t.Errorf("got\n%s", text)
	}
}

// A comparison quotes both sides: the other side's sentence introducing
// its example comes with the example.
func TestComposerCompareBothSides(t *testing.T) {
	page := [3]string{"/docs/front-matter/", "Front matter", `<p>YAML front matter is fenced with three dashes:</p>
<pre><code class="language-yaml">---
title: Search
---</code></pre>
<p>TOML front matter is fenced with three plus signs:</p>
<pre><code class="language-toml">+++
title = "Search"
+++</code></pre>`}
	text, _ := composeOver(t, "what is the difference between YAML and TOML front matter", page)
	if !strings.Contains(text, "TOML front matter is fenced with three plus signs:\n\n```toml\n+++") {
		t.Errorf("got\n%s", text)
	}
}

// A comparison answered by one item of a list goes on with the item on
// the other side, not a sentence elsewhere sharing the question's
// "between"; a question in the text is never support.
func TestComposerCompareListItems(t *testing.T) {
	page := [3]string{"/docs/look/", "Look and feel", `<h2 id="feat">Light/dark color theme and mode support</h2>
<p>Docsy supports light and dark color themes and color mode selection through Bootstrap's color modes feature.</p>
<p>What is the difference between a color theme and a color mode as used in Docsy?</p>
<ul><li>A color <em>theme</em> is a semantic color palette defined in SCSS and used by components and utilities.</li>
<li>A color <em>mode</em> is a switchable presentation of the site (light or dark) from the user's point of view.</li></ul>
<h2 id="modes">Light/dark color modes</h2>
<p>Complete CSS styles for both light and dark themes by default, so your site can switch between light and dark modes.</p>`}
	text, _ := composeOver(t, "what is the difference between a color theme and a color mode", page)
	want := "A color theme is a semantic color palette defined in SCSS and used by components and utilities.\n\nA color mode is a switchable presentation"
	if !strings.HasPrefix(text, want) || strings.Contains(text, "Complete CSS") || strings.Contains(text, "?") {
		t.Errorf("got\n%s", text)
	}
}

// In a long question, words most records hold ("same", "time") weigh
// less than the rare ones ("tabs", "lost").
func TestComposerLongQuestionRareWords(t *testing.T) {
	pages := [][3]string{
		{"/a/", "Deadlines", `<p>The same deadline applies at the same time to every answer of a conversation.</p>`},
		{"/b/", "Limits", `<p>Each conversation has the same limits at any time.</p>`},
		{"/c/", "Sessions", `<h2 id="conflicts">Conflicts</h2><p>If two tabs ask at once, the second save fails. Nothing is lost; ask again.</p>`},
		{"/d/", "Events", `<p>Answers stream at the same time as their sources, in the same conversation.</p>`},
	}
	text, _ := composeOver(t, "If two browser tabs ask at the same time in the same conversation, does one of the answers get lost?", pages...)
	if !strings.Contains(text, "Nothing is lost") {
		t.Errorf("got\n%s", text)
	}
}

// A section whose heading is the question answers it, whatever shape
// the question has, over a sentence elsewhere sharing as many words.
func TestComposerRestatedHeading(t *testing.T) {
	rule := [3]string{"/facts/shared/", "Shared phrasings", `<h2 id="rule">The unique phrasing rule</h2>
<p>Because choices submit a phrasing, every fact must own at least one phrasing that no other fact has.</p>`}
	entry := [3]string{"/facts/validation/", "Validation errors", `<h2 id="no-own">A fact has no phrasing of its own</h2>
<p>Every phrasing of this fact is declared by another fact as well. Fix: add a phrasing only this fact uses.</p>`}
	text, _ := composeOver(t, "a fact has no phrasing of its own", rule, entry)
	if !strings.HasPrefix(text, "Every phrasing of this fact") || !strings.Contains(text, "Fix: add a phrasing") {
		t.Errorf("got\n%s", text)
	}
}

// A sentence that announces a command in words ("run the following
// Hugo command to …") without a colon is quoted with the command.
func TestComposerAnnouncedCode(t *testing.T) {
	page := [3]string{"/docs/contributing/", "Contributing", `<h2 id="preview">Previewing your changes locally</h2>
<ol><li><p>Clone the repository.</p></li>
<li><p>Change to the docs directory and run the following Hugo command to build the site and start the Hugo server.</p>
<pre><code class="language-sh">hugo server --themesDir ../..</code></pre></li></ol>`}
	text, _ := composeOver(t, "start the hugo server to preview the site", page)
	if !strings.Contains(text, "start the Hugo server.\n\n```sh\nhugo server --themesDir ../..\n```") {
		t.Errorf("got\n%s", text)
	}
}

// A short how-to answer from a page's opening goes on with its first
// section's opening paragraph, which says how.
func TestComposerOpeningThenFirstSection(t *testing.T) {
	page := [3]string{"/facts/data-files/", "Site-wide facts in data files", `<p>Some facts do not belong to any one page. Declare those site-wide facts in data files.</p>
<h2 id="location">File location and format</h2>
<p>Any file under data/askplane/ is read. Each file holds a facts list, and every fact needs a cite.</p>`}
	text, _ := composeOver(t, "how to declare site-wide facts that don't belong to one page", page)
	if !strings.Contains(text, "in data files.\n\nAny file under data/askplane/ is read.") {
		t.Errorf("got\n%s", text)
	}
}

// A sentence introducing a list ("To disable dark mode entirely:") leads
// with the list it introduces, and the code a list item introduces
// follows it once, not repeated as its own introduction.
func TestComposerColonLeadWithList(t *testing.T) {
	page := [3]string{"/docs/look/", "Look and feel", `<h2 id="disable-dark-mode">How to disable dark mode</h2>
<p>Docsy ships with CSS support for light and dark color modes by default.</p>
<p>To disable dark mode entirely:</p>
<ul><li>Set <code>params.ui.showLightDarkModeMenu</code> to <code>false</code> in your site configuration.</li>
<li>Add the following variable in your project’s <code>_variables_project.scss</code>:</li></ul>
<pre><code class="language-scss">$enable-dark-mode: false;</code></pre>`}
	text, _ := composeOver(t, "how do I disable dark mode", page)
	want := "To disable dark mode entirely:\n\n- Set `params.ui.showLightDarkModeMenu` to `false` in your site configuration.\n- Add the following variable in your project’s `_variables_project.scss`:\n\n```scss\n$enable-dark-mode: false;\n```"
	if !strings.HasPrefix(text, want) {
		t.Errorf("got\n%s\nwant\n%s", text, want)
	}
}

// A page's list of steps does not answer a question about what those
// steps never name ("which environment variables"): the sentence that
// names them leads.
func TestComposerListMustSpeak(t *testing.T) {
	page := [3]string{"/docs/netlify/", "Deployment on Netlify", `<p>To deploy your site on Netlify:</p>
<ol><li>Click New site from Git.</li><li>Choose your repository.</li><li>Click Deploy site.</li></ol>
<p>Set the HUGO_VERSION and GO_VERSION environment variables of the build in the site settings.</p>`}
	text, _ := composeOver(t, "which environment variables does a Netlify build need", page)
	if !strings.HasPrefix(text, "Set the HUGO_VERSION and GO_VERSION environment variables") {
		t.Errorf("got\n%s", text)
	}
}

// An error code in a question makes it an error question, and a
// sentence naming the code only as an example ("such as …") does not
// lead.
func TestComposerErrorCode(t *testing.T) {
	metrics := [3]string{"/docs/metrics/", "Metrics", `<p>An error is recorded by its stable code, such as <code>ASK_TIMEOUT</code>, not by its message.</p>`}
	limits := [3]string{"/docs/limits/", "Limits", `<h2 id="deadlines">Deadlines</h2><p>Every request has a deadline of 30 seconds. When it passes, the stream ends with <code>ASK_TIMEOUT</code>.</p>`}
	text, _ := composeOver(t, "ASK_TIMEOUT", metrics, limits)
	if !strings.HasPrefix(text, "Every request has a deadline of 30 seconds. When it passes") {
		t.Errorf("got\n%s", text)
	}
}

// stem meets the forms of one word, so a question's "serve" finds a
// sentence's "serves" and "gets" meets "get".
func TestStemForms(t *testing.T) {
	for _, forms := range [][]string{{"serve", "serves", "serving", "served"}, {"page", "pages"}, {"get", "gets"}, {"box", "boxes"}, {"entry", "entries"}, {"style", "styles"}, {"run", "running", "runs"}, {"stop", "stopped"}, {"local", "locally"}, {"send", "sent", "sends"}, {"color", "colour", "colours"}, {"customize", "customise", "customised"}, {"initialization", "initialisation"}, {"hide", "hidden", "hides"}, {"install", "installed", "installing"}} {
		for _, f := range forms[1:] {
			if stem(f) != stem(forms[0]) {
				t.Errorf("stem(%q) = %q, stem(%q) = %q", f, stem(f), forms[0], stem(forms[0]))
			}
		}
	}
}

// A guide written as one numbered list, split by the code between its
// items, is answered by its steps in order, each with the code after it,
// and without its closing line.
func TestComposerNumberedGuide(t *testing.T) {
	page := [3]string{"/docs/deploy/s3/", "Deploy to S3", `<p>You can publish the site to an S3 bucket behind a CDN.</p>
<ol><li>Create your S3 bucket and connect it with your domain.</li>
<li>Install the AWS command line tool, then configure it:</li></ol>
<pre><code class="language-console">$ aws configure</code></pre>
<ol start="3"><li>Add a deployment target to your site configuration:</li></ol>
<pre><code class="language-toml">[[deployment.targets]]
name = "aws"</code></pre>
<ol start="4"><li>Run <code>hugo deploy</code> to upload the site. It invalidates the CDN cache too.</li>
<li>That's it, you're done!</li></ol>`}
	text := composeNow(t, "deploy the site to S3", page)
	want := "1. Create your S3 bucket and connect it with your domain.\n2. Install the AWS command line tool, then configure it:\n\n```console\n$ aws configure\n```\n\n3. Add a deployment target to your site configuration:\n\n```toml\n[[deployment.targets]]\nname = \"aws\"\n```\n\n4. Run `hugo deploy` to upload the site."
	if !strings.Contains(text, want) || strings.Contains(text, "done") {
		t.Errorf("got\n%s\nwant\n%s", text, want)
	}
}

// A question naming one setting is answered by what names that setting,
// not by a longer setting that starts with it.
func TestComposerExactSetting(t *testing.T) {
	page := [3]string{"/docs/search/", "Search", `<h2 id="max">Changing the maximum result count</h2>
<p>You can customize the maximum result count by setting <code>offlineSearchMaxResults</code> in your configuration.</p>
<h2 id="local">Local search</h2>
<p>Set <code>offlineSearch</code> to true to build a local search index with Lunr.</p>`}
	text := composeNow(t, "offlineSearch", page)
	if !strings.HasPrefix(text, "Set `offlineSearch` to true") {
		t.Errorf("got\n%s", text)
	}
	if hasWord("offlinesearchmaxresults", "offlinesearch") || !hasWord("set offlinesearch to true", "offlinesearch") {
		t.Error("hasWord does not tell a setting from a longer one")
	}
}

// Sentences as an answer quotes them: not cut after "vs." or "e.g.",
// and without a footnote number after the stop.
func TestComposerSentences(t *testing.T) {
	got := sentences("Compare techniques (traditional vs. modern) side by side. Then see the aliases.2")
	want := []string{"Compare techniques (traditional vs. modern) side by side.", "Then see the aliases."}
	if strings.Join(got, "|") != strings.Join(want, "|") {
		t.Errorf("got %q\nwant %q", got, want)
	}
	got = sentences("Headings in `{{%/* ... */%}}` get included. Those in `{{</* ... */>}}` will not.")
	want = []string{"Headings in `{{%/* ... */%}}` get included.", "Those in `{{</* ... */>}}` will not."}
	if strings.Join(got, "|") != strings.Join(want, "|") {
		t.Errorf("a code span was cut: got %q\nwant %q", got, want)
	}
	got = sentences("What is the module path? is a package question. Why? Because.")
	want = []string{"What is the module path? is a package question.", "Why?", "Because."}
	if strings.Join(got, "|") != strings.Join(want, "|") {
		t.Errorf("a quoted question was cut: got %q\nwant %q", got, want)
	}
}

// An error's entry on a troubleshooting page is answered with its cause
// and then the fix its "Workaround" subsection gives, steps and commands.
func TestComposerErrorWorkaround(t *testing.T) {
	page := [3]string{"/docs/troubleshooting/", "Troubleshooting", `<h2 id="known">Known issues</h2>
<h3 id="open-files">Errors: too many open files</h3>
<p>By default, macOS permits a small number of open file descriptors. Large sites may fail with too many open files.</p>
<h4 id="workaround">Workaround</h4>
<p>To temporarily allow more open files:</p>
<ol><li>View your current settings by running:</li></ol>
<pre><code>sudo launchctl limit maxfiles</code></pre>
<ol start="2"><li>Increase the limit by running the following commands.</li></ol>
<pre><code class="language-shell">ulimit -n 65535</code></pre>`}
	text := composeNow(t, "hugo server fails with too many open files error", page)
	for _, want := range []string{"By default, macOS permits", "To temporarily allow more open files:\n\n1. View your current settings by running:\n\n```\nsudo launchctl limit maxfiles\n```\n\n2. Increase the limit", "ulimit -n 65535"} {
		if !strings.Contains(text, want) {
			t.Errorf("missing %q in\n%s", want, text)
		}
	}
}

// A page's opening that leads a how-to goes on with the numbered steps
// of the page's section that does what is asked.
func TestComposerOpeningThenGuide(t *testing.T) {
	page := [3]string{"/docs/docker/", "Run inside a Docker container", `<p>We provide a Docker image that you can use to run your site locally.</p>
<h2 id="build-and-run">Build and run the container</h2>
<ol><li>Build the image:</li></ol>
<pre><code class="language-bash">docker-compose build</code></pre>
<ol start="2"><li>Run the built image:</li></ol>
<pre><code class="language-bash">docker-compose up</code></pre>
<ol start="3"><li>Open <code>http://localhost:1313</code> in your browser.</li></ol>`}
	text := composeNow(t, "run my site in Docker", page)
	want := "We provide a Docker image that you can use to run your site locally.\n\n1. Build the image:\n\n```bash\ndocker-compose build\n```\n\n2. Run the built image:\n\n```bash\ndocker-compose up\n```\n\n3. Open `http://localhost:1313` in your browser."
	if !strings.HasPrefix(text, want) {
		t.Errorf("got\n%s\nwant\n%s", text, want)
	}
}

// A how-to lead that only sets the scene goes on with the next
// paragraph when that one says what to do.
func TestComposerSceneThenInstruction(t *testing.T) {
	page := [3]string{"/docs/content/", "Adding content", `<h2 id="static">Adding static content</h2>
<p>You may want to serve some content along with your site, for example reference docs generated by Javadoc.</p>
<p>To add static content to be served as-is, add it to your site's <code>static</code> directory.</p>`}
	text := composeNow(t, "where do I put generated Javadoc", page)
	if !strings.Contains(text, "add it to your site's `static` directory") {
		t.Errorf("got\n%s", text)
	}
}

// When a list's section heading is most of the question ("Writing good
// phrasings"), the whole list answers, not its best item.
func TestComposerWholeListUnderItsHeading(t *testing.T) {
	page := [3]string{"/docs/matching/", "How matching works", `<h2 id="writing">Writing good phrasings</h2>
<ul><li>Use the words readers type.</li><li>Add the command itself.</li><li>Keep each phrasing short; declare up to 16 per fact.</li></ul>`}
	text := composeNow(t, "how to write good phrasings for a fact", page)
	want := "- Use the words readers type.\n- Add the command itself.\n- Keep each phrasing short; declare up to 16 per fact."
	if !strings.HasPrefix(text, want) {
		t.Errorf("got\n%s\nwant\n%s", text, want)
	}
}

// A how-to answered in words only goes on with the sentence of its
// section that names the setting.
func TestComposerHowtoNamesTheSetting(t *testing.T) {
	page := [3]string{"/docs/analytics/", "Analytics", `<h2 id="setup">Setup</h2>
<p>Enable Google Analytics by adding your project's analytics ID to the site configuration file.</p>
<blockquote><p>You can set the ID with <code>services.googleAnalytics.id</code> in your configuration.</p></blockquote>`}
	text := composeNow(t, "add Google Analytics to my site", page)
	if !strings.HasPrefix(text, "Enable Google Analytics") || !strings.Contains(text, "`services.googleAnalytics.id`") {
		t.Errorf("got\n%s", text)
	}
}

// A definition found in a list item is read from the sentence that
// introduces the list, with the list whole.
func TestComposerDefinitionFromListIntro(t *testing.T) {
	page := [3]string{"/docs/content/", "Adding content", `<h2 id="doc-rooted">Doc-rooted sites</h2>
<p>Docsy supports documentation-first websites through a doc-rooted site structure, where:</p>
<ul><li>Documentation pages are published at the site root rather than under the docs prefix.</li>
<li>Page files remain in the docs section directory.</li></ul>`}
	text := composeNow(t, "what is a doc-rooted site", page)
	want := "Docsy supports documentation-first websites through a doc-rooted site structure, where:\n\n- Documentation pages are published at the site root rather than under the docs prefix.\n- Page files remain in the docs section directory."
	if !strings.HasPrefix(text, want) {
		t.Errorf("got\n%s\nwant\n%s", text, want)
	}
}

// A sentence introducing code keeps it when the theme puts tab labels
// ("Front matter:", "toml") between them.
func TestComposerCodeBehindTabLabels(t *testing.T) {
	page := [3]string{"/docs/search/", "Search", `<h2 id="exclude">Excluding pages from local search results</h2>
<p>To exclude pages from local search results, add <code>exclude_search: true</code> to the front matter of each page:</p>
<p>Front matter:</p>
<p>toml</p>
<pre><code class="language-toml">exclude_search = true</code></pre>
<p>yaml</p>
<pre><code class="language-yaml">exclude_search: true</code></pre>`}
	text := composeNow(t, "exclude a page from local search results", page)
	want := "To exclude pages from local search results, add `exclude_search: true` to the front matter of each page:\n\n```toml\nexclude_search = true\n```"
	if !strings.HasPrefix(text, want) || strings.Contains(text, "Front matter:\n") {
		t.Errorf("got\n%s\nwant\n%s", text, want)
	}
}

// The stem cache gives the same stems as computing them afresh (its
// bound is TestTextCacheStaysBounded's).
func TestStemCache(t *testing.T) {
	for i := range 100 {
		s := "Serving pages " + itoa(i)
		if got := stemsOf(s); strings.Join(got, " ") != "serv page "+itoa(i) || !slices.Equal(got, stemsNow(s)) {
			t.Fatalf("stemsOf(%q) = %q", s, got)
		}
	}
}

// "list of …" a page whose title names it is answered with the page's
// sections, each with its first sentence while the answer is short.
func TestComposerListOfSections(t *testing.T) {
	page := [3]string{"/docs/validation/", "Validation errors", `<p>The build stops on these.</p>
<h2 id="unknown-kind">Unknown kind</h2><p>The kind must be one of seven.</p>
<h2 id="duplicate-id">Duplicate id</h2><p>Ids must be unique per language.</p>
<h2 id="unsafe-link">Unsafe link</h2><p>Links must be https or relative.</p>`}
	text := composeNow(t, "list of validation errors", page)
	want := "Validation errors has three sections:\n- Unknown kind: The kind must be one of seven.\n- Duplicate id: Ids must be unique per language.\n- Unsafe link: Links must be https or relative."
	if !strings.HasPrefix(text, want) {
		t.Errorf("got\n%s\nwant\n%s", text, want)
	}
}

// A how-to is answered by the section whose task is the one asked, not
// by a neighbour doing a narrower task with more of the question's
// words ("change the navbar background color" for the site's colours),
// and a reader's "change" meets the page's "customize".
func TestComposerTaskAsked(t *testing.T) {
	page := [3]string{"/docs/look/", "Look and feel", `<h2 id="navbar">Navbar background</h2>
<p>To change the navbar background color across your site, override the SCSS variable <code>$td-navbar-bg-color</code> in your variables file.</p>
<h2 id="colors">Site colors</h2>
<p>To customize your site's colors, add SCSS variable overrides to <code>assets/scss/_variables_project.scss</code>.</p>`}
	text := composeNow(t, "change the colour of my site", page)
	if !strings.HasPrefix(text, "To customize your site’s colors") && !strings.HasPrefix(text, "To customize your site's colors") {
		t.Errorf("lead:\n%s", text)
	}
	if got := stem("customizing"); got != stem("change") {
		t.Errorf("customizing stems to %q, change to %q", got, stem("change"))
	}
	if stem("adding") != stem("add") {
		t.Errorf("adding stems to %q, add to %q", stem("adding"), stem("add"))
	}
}

// A release note announcing what can now be done, and sending the
// reader to the docs for how, gives way to the docs' sentence that says
// how.
func TestComposerHowtoNotFromAnnouncement(t *testing.T) {
	note := [3]string{"/blog/2024/0.9.0/", "Release 0.9.0", `<h2 id="lastmod">Last-modified page info</h2>
<p>You can configure your site to display last-modified metadata at the bottom of documentation and blog pages. For details, see the User Guide.</p>`}
	docs := [3]string{"/docs/adding-content/", "Adding content", `<h2 id="page-metadata">Last-modified page metadata</h2>
<p>To have page metadata displayed at the bottom of pages, set the <code>GitInfo</code> parameter to <code>true</code>.</p>`}
	// As the engine ranked them on Docsy's docs: the release note first.
	text := composeRanked(t, "show the last modified date at the bottom of pages", []string{note[0], docs[0]}, note, docs)
	if !strings.HasPrefix(text, "To have page metadata displayed") {
		t.Errorf("lead:\n%s", text)
	}
}

// A note's alert marker is not quoted, nor a short title glued to its
// body when a theme renders GitHub's alert syntax literally.
func TestNoteBody(t *testing.T) {
	for in, want := range map[string]string{
		"[!WARNING] Deprecation note and warning While you can set `id`.":                                     "While you can set `id`.",
		"[!TIP] Hugo Tip Run `hugo server --printI18nWarnings` when translating.":                             "Run `hugo server --printI18nWarnings` when translating.",
		"[!TIP] If you’re testing this locally using Hugo’s server, build the index first.":                   "If you’re testing this locally using Hugo’s server, build the index first.",
		"[!NOTE] Production-only feature! Analytics are enabled only for production builds.":                  "Production-only feature! Analytics are enabled only for production builds.",
		"[!WARNING] You can only enable a single search option at a time If you enable more, the first wins.": "You can only enable a single search option at a time If you enable more, the first wins.",
		"Run `npm ci` first.":                     "Run `npm ci` first.",
		"[link] is not a marker, nor is [!lower]": "[link] is not a marker, nor is [!lower]",
	} {
		if got := noteBody(in); got != want {
			t.Errorf("noteBody(%q) = %q, want %q", in, got, want)
		}
	}
}

// A question weighing options is answered by the sentence that weighs
// them ("more complicated to maintain than …"), not by one that only
// names both.
func TestComposerWeighsOptions(t *testing.T) {
	page := [3]string{"/docs/get-started/", "Get started", `<h2 id="updates">Updates</h2>
<p>To simplify future updates, consider switching your git submodule to Hugo modules.</p>
<h2 id="options">Installation options</h2>
<p>A submodule is more complicated to maintain than Hugo modules.</p>`}
	text := composeNow(t, "Hugo modules or git submodule, which is easier to maintain?", page)
	if !strings.HasPrefix(text, "A submodule is more complicated to maintain") {
		t.Errorf("lead:\n%s", text)
	}
}

// An error code asked alone is answered by the sentence that says when
// it is given, read with the steps it names, not by a section whose
// heading shares its words nor by a sentence listing it among others.
func TestComposerErrorCodeWithItsSteps(t *testing.T) {
	caching := [3]string{"/deploying/caching/", "Caching", `<h2 id="hash-mismatches">Hash mismatches</h2>
<p>If a CDN serves a site config from one build and an artifact from another, the hashes disagree and the widget treats the artifact as corrupt.</p>`}
	security := [3]string{"/sidecar/security/", "Security", `<h2 id="diagnostics">Diagnostics do not echo input</h2>
<p>Every diagnostic has a stable code — <code>DETERMINISTIC_HASH_MISMATCH</code>, <code>ASK_INVALID_REQUEST</code> and the others — and a fixed message.</p>`}
	hashing := [3]string{"/protocol/hashing/", "Hashing", `<h2 id="verification-order">Verification order</h2>
<p>A client given a trusted site config:</p>
<ol><li>decodes and validates the artifact;</li><li>compares its declared <code>contentHash</code> with the pinned one;</li><li>recomputes the digest and compares it with the declared one.</li></ol>
<p>Steps 2 and 3 fail with <code>DETERMINISTIC_HASH_MISMATCH</code>.</p>`}
	text := composeNow(t, "DETERMINISTIC_HASH_MISMATCH", caching, security, hashing)
	want := "A client given a trusted site config:\n\n1. decodes and validates the artifact;\n2. compares its declared `contentHash` with the pinned one;\n3. recomputes the digest and compares it with the declared one.\n\nSteps 2 and 3 fail with `DETERMINISTIC_HASH_MISMATCH`."
	if !strings.HasPrefix(text, want) {
		t.Errorf("got\n%s\nwant\n%s", text, want)
	}
}

func TestNamesStep(t *testing.T) {
	if !namesStep("In step 2, run it.") || !namesStep("Steps 3 and 5 fail.") || namesStep("Take steps to secure it.") || namesStep("footstep 3") {
		t.Error("namesStep")
	}
}

// A setting asked by name is answered by the comment its example gives
// it, by the setting's full name, then the example.
func TestComposerSettingComment(t *testing.T) {
	page := [3]string{"/start/", "Quick start", `<h2 id="configure">Configure the module</h2>
<p>Every setting has a default, but choose a site id:</p>
<pre><code class="language-toml">[params.askplane]
  siteId   = "my-docs"   # a SafeIdentifier
  endpoint = "/v1/ask"   # where the widget sends questions it cannot answer
</code></pre>
<h2 id="csp">Content Security Policy</h2>
<p>The widget makes a <code>POST</code> to the Ask endpoint (<code>params.askplane.endpoint</code>) for escalations.</p>`}
	text := composeNow(t, "params.askplane.endpoint", page)
	if !strings.HasPrefix(text, "`params.askplane.endpoint`: where the widget sends questions it cannot answer.\n\n") || !strings.Contains(text, "endpoint = \"/v1/ask\"") {
		t.Errorf("got\n%s", text)
	}
	if strings.Contains(text, "params.askplane.siteId") {
		t.Errorf("another setting's comment was quoted:\n%s", text)
	}
	for line, want := range map[string]string{
		"`endpoint` in `[params.askplane]`: where it asks": "`params.askplane.endpoint`: where it asks.",
		"`chrome` in `params.td`: full or shared.":         "`params.td.chrome`: full or shared.",
		"`baseURL`: the site's root":                       "`baseURL`: the site's root.",
		"`[params.askplane]`: hugo.toml":                   "",
		"no setting here":                                  "",
	} {
		if got := settingNote(line); got != want {
			t.Errorf("settingNote(%q) = %q, want %q", line, got, want)
		}
	}
}

// Sibling sections that are alternatives named together in their page's
// title ("… submodule or clone") are not steps to follow in turn: a
// question naming one is answered by that one's steps.
func TestComposerNamedAlternative(t *testing.T) {
	page := [3]string{"/docs/update/git/", "Update your theme submodule or clone", `<p>Use the procedure matching how the theme was installed.</p>
<h2 id="submodule">Update your theme submodule</h2>
<p>If you use the theme as a submodule, here is how you update it:</p>
<ol><li>Update the submodule to the release tag you target:<pre><code class="language-sh">git -C themes/t checkout 1.2.0</code></pre></li>
<li>Commit the change:<pre><code class="language-sh">git commit -am "Update theme"</code></pre></li></ol>
<h2 id="clone">Update your theme clone</h2>
<p>If you cloned the theme, pull the release tag you target.</p>`}
	text := composeNow(t, "update the git submodule to a new release", page)
	if !strings.Contains(text, "git -C themes/t checkout 1.2.0") || strings.Contains(text, "clone") {
		t.Errorf("got\n%s", text)
	}
}

// A question naming an error code is answered by the sentence that says
// when the code is given, read with the table it points back at ("any
// of these"), not by a sentence listing the code among others.
func TestComposerErrorCodeAfterTable(t *testing.T) {
	security := [3]string{"/sidecar/security/", "Security", `<h2 id="diagnostics">Diagnostics</h2>
<p>Every diagnostic has a stable code — <code>ASK_TIMEOUT</code>, <code>ASK_INVALID_REQUEST</code> and the others — and a fixed message.</p>`}
	limits := [3]string{"/sidecar/limits/", "Limits", `<h2 id="request-limits">Request limits</h2>
<table><thead><tr><th>limit</th><th>default</th></tr></thead><tbody>
<tr><td>request body</td><td>64 KiB</td></tr>
<tr><td>characters per message</td><td>16,384</td></tr></tbody></table>
<p>A body that breaks any of these is rejected with <code>ASK_INVALID_REQUEST</code>.</p>`}
	text := composeNow(t, "ASK_INVALID_REQUEST when sending a long message", security, limits)
	want := "- request body: 64 KiB\n- characters per message: 16,384\n\nA body that breaks any of these is rejected with `ASK_INVALID_REQUEST`."
	if !strings.HasPrefix(text, want) {
		t.Errorf("got\n%s\nwant\n%s", text, want)
	}
}

// A section of two instructions, each with its code, answers a how-to
// with both in order, even when the second leads.
func TestComposerEarlierStep(t *testing.T) {
	page := [3]string{"/docs/content/", "Adding content", `<h2 id="doc-rooted">Doc-rooted sites</h2>
<p>A doc-rooted site publishes its docs at the root.</p>
<p>To create a doc-rooted site, redefine the docs permalinks as follows:</p>
<pre><code class="language-yaml">permalinks:
  section:
    docs: /:sections[1:]</code></pre>
<p>Because the docs landing page now serves as the home page, you need extra configuration.</p>
<p>Add the following front matter to each site root index file:</p>
<pre><code class="language-yaml">build: { render: link }</code></pre>`}
	text := composeNow(t, "make my docs the home page", page)
	p, b := strings.Index(text, "docs: /:sections[1:]"), strings.Index(text, "build: { render: link }")
	if p < 0 || b < 0 || p > b {
		t.Errorf("got\n%s", text)
	}
}

// A later step that says what to do ("Then add `x` to …") may answer a
// question naming its setting; a feature note naming it in passing does
// not.
func TestComposerThenStep(t *testing.T) {
	page := [3]string{"/docs/navigation/", "Navigation", `<h2 id="sidebar-root">Sidebar root</h2>
<p>To help readers stay focused within a section, you can root a section in the sidebar.</p>
<p>Then add <code>sidebar_root_for</code> to a section's <code>_index.md</code>. Available options are:</p>
<ul><li><code>self</code> applies the rooted sidebar to the index page as well as descendants.</li>
<li><code>children</code> limits descendant pages to the rooted sidebar.</li></ul>
<p>Feature notes:</p>
<ul><li>Docsy will warn you if you set <code>sidebar_root_for</code> to <code>self</code> on a section root page.</li></ul>`}
	text := composeNow(t, "sidebar_root_for", page)
	if !strings.HasPrefix(text, "Then add `sidebar_root_for`") || !strings.Contains(text, "- `children` limits") {
		t.Errorf("got\n%s", text)
	}
}

// A camelCase setting asked alone goes on with the sentence of its page
// that speaks of it in words.
func TestComposerCamelSettingInWords(t *testing.T) {
	page := [3]string{"/sidecar/configuration/", "Sidecar configuration", `<h2 id="auth">Authentication</h2>
<p>A browser's anonymous identity is a cookie signed with the secret named by <code>cookieSecretEnv</code>.</p>
<h2 id="secrets">Secrets</h2>
<p>The cookie secret (at least 32 bytes) lives in the environment, never in the file.</p>`}
	text := composeNow(t, "cookieSecretEnv", page)
	if !strings.Contains(text, "at least 32 bytes") {
		t.Errorf("got\n%s", text)
	}
}

func TestCamelPhrase(t *testing.T) {
	if camelPhrase("cookieSecretEnv") != "cookie secret" || camelPhrase("cookie secret") != "" || camelPhrase("baseURL") != "base url" || camelPhrase("params.td.chrome") != "" {
		t.Error("camelPhrase")
	}
}

// An instruction may open with when to follow it ("After updating the
// theme, tidy …:"); its code, right before the lead, is the fix asked for.
func TestComposerInstructionAfterClause(t *testing.T) {
	page := [3]string{"/docs/update/", "Update the theme", `<h2 id="module">Update a module</h2>
<p>To pin the theme to a version, specify its tag:</p>
<pre><code class="language-bash">hugo mod get example.com/theme@1.2.0</code></pre>
<p>After updating the theme, tidy your module files and reinstall the dependencies:</p>
<pre><code class="language-bash">hugo mod tidy
npm install</code></pre>
<p>Hugo warns when your dependency set has drifted. To verify the version, run:</p>
<pre><code class="language-bash">hugo mod graph</code></pre>`}
	text := composeNow(t, "I updated the theme and Hugo warns that my dependencies have drifted, what should I run?", page)
	if !strings.HasPrefix(text, "After updating the theme, tidy") || strings.Contains(text, "@1.2.0") {
		t.Errorf("got\n%s", text)
	}
}

// An error question is not answered from a section that only shares
// words with it in its heading when a sentence elsewhere says the cause.
func TestComposerErrorNotFromHeadingAlone(t *testing.T) {
	pages := [3]string{"/docs/deployment/github-pages/", "Deployment on GitHub Pages", `<p>If your repo is on GitHub, serve your site with GitHub Pages.</p>
<p>When deploying to GitHub Pages your <code>baseURL</code> needs to be set to your project URL, otherwise your site layout will be broken.</p>`}
	template := [3]string{"/docs/get-started/template/", "Start with a template", `<h2 id="github-ui">Option 2: using the GitHub UI for site pages</h2>
<p>As the example repo is a template repository, creating your own copy is easy:</p>
<pre><code class="language-bash">git clone https://github.com/me/my-site.git</code></pre>`}
	text := composeNow(t, "my site layout is broken on GitHub Pages", pages, template)
	if !strings.HasPrefix(text, "When deploying to GitHub Pages your `baseURL`") {
		t.Errorf("got\n%s", text)
	}
}

// A how-to is not answered by a sentence that leaves how to another page
// ("as explained in Doc versioning") when another says it.
func TestComposerHowtoNotDeferred(t *testing.T) {
	nav := [3]string{"/docs/navigation/", "Navigation", `<h2 id="navbar">Site navbar</h2>
<h3 id="version-menu">Version selector menu</h3>
<p>Docsy adds a version selector menu to the top-level navbar if you have doc versions configured as explained in Doc versioning.</p>`}
	lang := [3]string{"/docs/language/", "Language menu", `<p>Docsy adds a language selector menu to the top-level navbar on a multilingual site.</p>`}
	icons := [3]string{"/docs/icons/", "Navbar icons", `<p>You can add icons to the navbar selector menu entries.</p>`}
	versions := [3]string{"/docs/versioning/", "Doc versioning", `<h2 id="menu">Adding a version drop-down menu</h2>
<p>If you add some <code>[params.versions]</code> in <code>hugo.toml</code>, the theme adds a version selector drop down to the navbar.</p>`}
	// As the engine ranked them on Docsy's docs: the deferring section
	// first, the one that says how fourth.
	text := composeRanked(t, "add a version selector to the navbar", []string{nav[0], lang[0], icons[0], versions[0]}, nav, lang, icons, versions)
	if !strings.HasPrefix(text, "If you add some `[params.versions]`") {
		t.Errorf("lead:\n%s", text)
	}
}

// A reader's phrasal verb meets the page's verb ("turn off" is
// "disable"), and code borrowed from another section of the page keeps
// the instruction before it.
func TestComposerPhrasalAndBorrowedInstruction(t *testing.T) {
	page := [3]string{"/docs/feedback/", "Analytics and feedback", `<h2 id="user-feedback">User feedback</h2>
<p>By default the theme puts a “was this page helpful?” feedback widget at the bottom of every page.</p>
<h3 id="disable-feedback">Disable feedback on a single page</h3>
<p>Add the parameter <code>hide_feedback</code> to the page’s front matter and set it to <code>true</code>.</p>
<p>Front matter:</p>
<pre><code class="language-toml">+++
hide_feedback = true
+++</code></pre>`}
	text := composeNow(t, "turn off the was this page helpful widget on one page", page)
	i, j := strings.Index(text, "Add the parameter `hide_feedback`"), strings.Index(text, "hide_feedback = true")
	if i < 0 || j < 0 || i > j {
		t.Errorf("got\n%s", text)
	}
	if got := stemTerms(phrasal.Replace("turn off the widget")); !slices.Contains(got, stem("disable")) {
		t.Errorf("terms %q", got)
	}
}

// A guide's answer keeps the note that comes before its steps, and a
// step whose first sentence only sets the scene keeps the sentence that
// says what to do before its code.
func TestComposerGuideCautionAndStepLine(t *testing.T) {
	page := [3]string{"/docs/deployment/github-pages/", "Deployment on GitHub Pages", `<p>If your repo is hosted on GitHub, a simple option is to serve your site with GitHub Pages.</p>
<blockquote class="alert"><p>Make sure to correctly set your site’s <code>baseURL</code> in your configuration file.</p></blockquote>
<ol><li>With GitHub Pages, a site is published to the branch <code>gh-pages</code> and served from there by default. You must create this branch first, either in the GitHub web interface or via command line (at the root of your local repo clone):<pre><code class="language-console">$ git checkout -b gh-pages</code></pre></li>
<li>Push this local branch to your repo:<pre><code class="language-console">$ git push --set-upstream origin gh-pages</code></pre></li>
<li>Switch back to the main branch of your repo:<pre><code class="language-console">$ git checkout main</code></pre></li></ol>`}
	text := composeNow(t, "publish my site on GitHub Pages", page)
	for _, want := range []string{"Make sure to correctly set your site’s `baseURL`", "You must create this branch first", "2. Push this local branch"} {
		if !strings.Contains(text, want) {
			t.Errorf("no %q in\n%s", want, text)
		}
	}
	if got := stepLine("Download and install the latest version 2 of the AWS Command Line Interface (CLI) for your system. Then configure your CLI instance by issuing the command `aws configure` (make sure you have your access key id and secret access key at hand):"); !strings.HasPrefix(got, "Download") || strings.Contains(got, "Then") {
		t.Errorf("an imperative step's line: %q", got)
	}
}

// A yes-or-no question answered by a page's opening goes on with the
// list of the section whose heading is what is asked.
func TestComposerYesWithSpecifics(t *testing.T) {
	page := [3]string{"/widget/accessibility/", "Keyboard and screen reader use", `<p>The widget is meant to be usable with a keyboard alone and with a screen reader.</p>
<h2 id="keyboard">Keyboard</h2>
<ul><li>Tab reaches the question field.</li><li>Enter submits the question.</li></ul>
<h2 id="screen-readers">Screen readers</h2>
<p>Answers are written into a polite live region.</p>`}
	text := composeNow(t, "can I use the widget with only a keyboard", page)
	want := "The widget is meant to be usable with a keyboard alone and with a screen reader.\n\n- Tab reaches the question field.\n- Enter submits the question."
	if !strings.HasPrefix(text, want) {
		t.Errorf("got\n%s\nwant\n%s", text, want)
	}
}

// "What is X?" is answered by the entry of a list that names X and then
// says what it is ("stale — the artifact is past its expiresAt"), read
// with the list's introduction, not by a sentence naming X among others.
func TestComposerGlossaryEntry(t *testing.T) {
	page := [3]string{"/concepts/", "Concepts", `<h2 id="escalation">Escalation</h2>
<p>No fact can answer. The envelope carries low confidence and one reason:</p>
<ul><li>miss — nothing matched exactly;</li>
<li>stale — the artifact is past its <code>expiresAt</code>, so even an exact match is not trusted;</li>
<li>corrupt — the artifact failed verification.</li></ul>
<p>With <code>fallback = "backend"</code> a miss, stale or corrupt escalation is sent to the sidecar along with the original question.</p>`}
	text := composeNow(t, "what is a stale escalation", page)
	if !strings.HasPrefix(text, "The envelope carries low confidence and one reason:\n\n- miss") || !strings.Contains(text, "- stale — the artifact is past its `expiresAt`") {
		t.Errorf("got\n%s", text)
	}
}

// "deploy on Netlify" is answered by the Netlify page's opening and the
// code of its first section, named by its heading when that is the file
// ("netlify.toml"), not by a later section that shares the verb.
func TestComposerHowtoOnNamedPage(t *testing.T) {
	page := [3]string{"/docs/deploy/netlify/", "Netlify", `<p>Netlify builds the site from your repository on every push.</p>
<h2 id="netlifytoml">netlify.toml</h2>
<pre><code class="language-toml">[build]
  command = "hugo --gc --minify"</code></pre>
<p><code>GO_VERSION</code> is needed because Hugo modules are fetched with Go.</p>
<h2 id="deploy-previews">Deploy previews</h2>
<p>Every pull request gets a preview at its own URL. Set <code>baseURL</code> from Netlify’s <code>DEPLOY_PRIME_URL</code> so links work there:</p>
<pre><code class="language-toml">[context.deploy-preview]
  command = "hugo --gc --minify -b $DEPLOY_PRIME_URL"</code></pre>`}
	q := "deploy on Netlify"
	pkg := evidence.NewIndex6(corpusOf(t, page)).Search(q, evidence.Budget{}) // the default engine
	res, err := Run(context.Background(), Composer{}, Question{Text: q}, &pkg, nil)
	if err != nil {
		t.Fatal(err)
	}
	text := res.Text
	want := "Netlify builds the site from your repository on every push.\n\n`netlify.toml`:\n\n```toml\n[build]"
	if !strings.HasPrefix(text, want) {
		t.Errorf("got\n%s\nwant\n%s", text, want)
	}
	if !fileName("netlify.toml") || fileName("Deploy previews") {
		t.Error("fileName")
	}
}

// A sentence that says what another, code-named thing is ("`deterministic`
// is the envelope … a stale escalation") does not answer a question about
// something else, though it shares its words; the sentence about what was
// asked does.
func TestComposerNotAnotherThingsDefinition(t *testing.T) {
	request := [3]string{"/ask/request/", "The request", `<p>The request carries the question and the widget's verdict.</p>
<p><code>deterministic</code> is the envelope the widget produced for a stale artifact or a miss. It grants no authority.</p>`}
	dates := [3]string{"/artifact/dates/", "Artifact dates", `<p>Dates are RFC 3339 strings.</p>
<p>An artifact is stale from its <code>expiresAt</code> instant onwards.</p>`}
	text := composeRanked(t, "why is my artifact stale", []string{"/ask/request/", "/artifact/dates/"}, request, dates)
	if !strings.HasPrefix(text, "An artifact is stale from its `expiresAt` instant onwards.") {
		t.Errorf("got\n%s", text)
	}
	c := &composer{terms: stemTerms("why is my artifact stale")}
	c.all = 1<<uint(len(c.terms)) - 1
	if !c.definesOther("`deterministic` is the envelope.") || c.definesOther("`artifact` is a file.") || c.definesOther("The `deterministic` field is set.") {
		t.Error("definesOther")
	}
}

// A "what does …" question answered by a page's opening goes on with the
// list of the section whose heading is what was asked ("What is
// measured"), not with the page's first section.
func TestComposerOpeningThenAskedList(t *testing.T) {
	page := [3]string{"/sidecar/metrics/", "Metrics", `<p>The sidecar measures enough to establish a baseline without recording what readers wrote.</p>
<h2 id="what-a-measurement-contains">What a measurement contains</h2>
<p>Every measurement has the same small shape:</p>
<ul><li>a fixed metric name;</li><li>a numeric value and its unit.</li></ul>
<h2 id="what-is-measured">What is measured</h2>
<ul><li>time to the first event and total latency;</li><li>deterministic fallbacks, by reason.</li></ul>`}
	text := composeNow(t, "what does the sidecar measure", page)
	want := "The sidecar measures enough to establish a baseline without recording what readers wrote.\n\n- time to the first event and total latency;\n- deterministic fallbacks, by reason."
	if !strings.HasPrefix(text, want) {
		t.Errorf("got\n%s\nwant\n%s", text, want)
	}
}

// A yes-or-no answer found at the end of a paragraph of about three
// sentences is read from the paragraph's start, which gives its reason.
func TestComposerYesNoWithItsReason(t *testing.T) {
	page := [3]string{"/widget/csp/", "Content Security Policy", `<h2 id="script-src">script-src</h2>
<p>The widget’s JavaScript ships pre-bundled with the module; Hugo fingerprints it and it loads as an external ES module from your origin, so <code>script-src 'self'</code> covers it. Its protocol core is a second such module, imported on the reader’s first intent and checked against its integrity. The page holds no inline script element at all, not even JSON data: the widget fetches its site config. Nothing needs a nonce or a hash, and neither <code>'unsafe-inline'</code> nor <code>'unsafe-eval'</code> is needed.</p>`}
	text := composeNow(t, "Does the widget need unsafe-inline in the Content Security Policy?", page)
	if !strings.HasPrefix(text, "The widget’s JavaScript ships pre-bundled") || !strings.Contains(text, "neither `'unsafe-inline'` nor `'unsafe-eval'` is needed.") {
		t.Errorf("got\n%s", text)
	}
}

// A sentence ending in ":" is kept only when what it announces follows.
func TestDropDangling(t *testing.T) {
	var c composed
	for _, d := range []string{"Links are:", "\n\nSet a value:", "\n\n```toml\nx = 1\n```", "\n\nSteps:", "\n\n1. Clone.", "\n\nThe end:"} {
		c.add(d, "r")
	}
	c.dropDangling()
	var b strings.Builder
	for _, d := range c.deltas {
		b.WriteString(d.Delta)
	}
	if want := "Set a value:\n\n```toml\nx = 1\n```\n\nSteps:\n\n1. Clone."; b.String() != want || c.size != len(want) {
		t.Errorf("got %q (%d bytes)\nwant %q", b.String(), c.size, want)
	}

	// Dropping a sub-item over nothing leaves its item over nothing.
	c = composed{}
	for _, d := range []string{"Run it locally.", "\n\n- Using Docker:", "\n   - Build the container:", "\n\nThen open the site."} {
		c.add(d, "r")
	}
	c.dropDangling()
	b.Reset()
	for _, d := range c.deltas {
		b.WriteString(d.Delta)
	}
	if want := "Run it locally.\n\nThen open the site."; b.String() != want || c.size != len(want) {
		t.Errorf("got %q (%d bytes)\nwant %q", b.String(), c.size, want)
	}
}

// A reader's "folder" and "repo" are the page's "directory" and
// "repository".
func TestStemNounSynonyms(t *testing.T) {
	for a, b := range map[string]string{"folders": "directories", "subfolder": "subdirectory", "repo": "repository"} {
		if stem(a) != stem(b) {
			t.Errorf("stem(%q) = %q, stem(%q) = %q", a, stem(a), b, stem(b))
		}
	}
}

// A comparison is answered by the list whose items each open by naming
// one side, with the sentence introducing it, not by a sentence that
// mentions both in passing.
func TestComposerCompareList(t *testing.T) {
	page := [3]string{"/docs/deployment/chrome/", "Chrome build modes", `<p>A docs site re-emits the same chrome on every page.</p>
<p>Use the <code>td.chrome</code> parameter to select one of two build modes:</p>
<ul><li><code>full</code> (default) emits each page’s chrome on the page itself.</li>
<li><code>shared</code> emits each region on one donor page and restores it in the browser.</li></ul>
<h2 id="caveats">Caveats</h2>
<p>A scoped sidebar can differ structurally from a full build, and shared mode is experimental.</p>`}
	text := composeNow(t, "difference between full and shared chrome build modes", page)
	want := "Use the `td.chrome` parameter to select one of two build modes:\n\n- `full` (default) emits each page’s chrome on the page itself.\n- `shared` emits"
	if !strings.HasPrefix(text, want) {
		t.Errorf("got\n%s\nwant\n%s", text, want)
	}
	c := &composer{terms: stemTerms("full or shared")}
	c.all = 1<<uint(len(c.terms)) - 1
	if !c.namesEachSide("- Full: one.\n- `shared` two.") || c.namesEachSide("- Full: one.\n- Full: again.") || c.namesEachSide("- Full: one.\n- Other: two.") {
		t.Error("namesEachSide")
	}
}

// Yes-or-no questions opening with "do", "are", "will", "has" are read as
// such, and a yes-or-no answer keeps the list of conditions its next
// sentence introduces ("Install PostCSS only if:").
func TestComposerYesNoConditions(t *testing.T) {
	c := &composer{}
	for _, q := range []string{"do I need PostCSS", "are streamed answers announced by screen readers", "will old links break", "has the widget a dark mode"} {
		if sh, _ := classify(q, c); sh != shapeWhy {
			t.Errorf("classify(%q) = %v, want a yes-or-no question", q, sh)
		}
	}
	page := [3]string{"/docs/prerequisites/", "Prerequisites", `<h2 id="install-postcss">Install PostCSS</h2>
<p>Docsy builds its CSS without PostCSS by default, so most sites don’t need it. Install PostCSS only if:</p>
<ul><li>Your site has a right-to-left language, or</li><li>You post-process your own CSS.</li></ul>`}
	text := composeNow(t, "do I need PostCSS", page)
	want := "Docsy builds its CSS without PostCSS by default, so most sites don’t need it. Install PostCSS only if:\n\n- Your site has a right-to-left language, or\n- You post-process your own CSS."
	if !strings.HasPrefix(text, want) {
		t.Errorf("got\n%s\nwant\n%s", text, want)
	}
}

// A setting's value asked by name and answered by how to set it says
// first what the value does, from the list item that names it.
func TestComposerValueMeaning(t *testing.T) {
	setting := [3]string{"/docs/chrome/", "Chrome build modes", `<p>Use the <code>td.chrome</code> parameter to select one of two build modes:</p>
<ul><li><code>full</code> (default) emits each page’s chrome on the page itself.</li>
<li><code>shared</code> emits each region on just one donor page and restores it in the browser.</li></ul>
<h2 id="setting-the-build-mode">Setting the build mode</h2>
<p>Set the <code>td.chrome</code> parameter to <code>shared</code> (the default is <code>full</code>):</p>
<pre><code class="language-yaml">params:
  td:
    chrome: shared</code></pre>`}
	text := composeNow(t, "td.chrome shared", setting)
	want := "`shared` emits each region on just one donor page and restores it in the browser.\n\nSet the `td.chrome` parameter to `shared` (the default is `full`):\n\n```yaml"
	if !strings.HasPrefix(text, want) {
		t.Errorf("got\n%s\nwant\n%s", text, want)
	}
}

// A parameter table too long to quote whole is quoted a row a line, each
// cell cut after its first sentence, and another section's code that is
// not about the lead's subject is not borrowed.
func TestComposerCompactParameterTable(t *testing.T) {
	var rows strings.Builder
	for _, p := range []string{"src", "width", "height", "style", "sandbox", "name", "id", "class", "sub"} {
		rows.WriteString("<tr><td>" + p + "</td><td>none</td><td>Sets the " + p + " of the frame. It is passed on to the iframe element as it is, without any change, so every value the HTML standard allows for it works here too.</td></tr>\n")
	}
	page := [3]string{"/docs/shortcodes/", "Docsy Shortcodes", `<h2 id="iframe">iframe</h2>
<p>With this shortcode you can embed external content into a page as an inline frame.</p>
<table><thead><tr><th>Parameter</th><th>Default</th><th>Description</th></tr></thead><tbody>
` + rows.String() + `</tbody></table>
<h2 id="card">Shortcode card: programming code</h2>
<p>If you want to display programming code on your card, set the named parameter <code>code</code> of the card to <code>true</code>:</p>
<pre><code class="language-go-html-template">{{< card code=true >}}puts("Hello");{{< /card >}}</code></pre>`}
	text := composeNow(t, "iframe shortcode parameters", page)
	want := "With this shortcode you can embed external content into a page as an inline frame.\n\n- src: none; Sets the src of the frame.\n- width: none; Sets the width of the frame."
	if !strings.HasPrefix(text, want) || !strings.Contains(text, "- sub: none; Sets the sub of the frame.") || strings.Contains(text, "card") {
		t.Errorf("got\n%s\nwant\n%s …", text, want)
	}
}

// A setting named among other words ("github_url front matter") is
// answered from the section whose heading is that setting, and a
// deprecation its note declares is said first, with what replaces it.
func TestComposerNamedSettingDeprecated(t *testing.T) {
	links := [3]string{"/docs/repository-links/", "Repository Links", `<h2 id="github_url-optional"><code>github_url</code> (optional)</h2>
<blockquote><p>[!WARNING] Deprecation note</p><p>This setting is deprecated. Use <code>path_base_for_github_subdir</code> instead.</p></blockquote>
<p>Specify a value for this in your page metadata to set a specific edit URL for this page, as in the following example:</p>
<pre><code class="language-toml">+++
github_url = "https://github.com/me/repo/edit/main/README.md"
+++</code></pre>`}
	content := [3]string{"/docs/adding-content/", "Adding Content", `<h2 id="page-front-matter">Page front matter</h2>
<p>The minimum front matter you need to provide is a title: everything else is up to you!</p>
<pre><code class="language-toml">+++
title = "About Docsy"
+++</code></pre>`}
	text := composeRanked(t, "github_url front matter", []string{"/docs/repository-links/", "/docs/adding-content/"}, links, content)
	want := "This setting is deprecated. Use `path_base_for_github_subdir` instead.\n\nSpecify a value for this in your page metadata to set a specific edit URL for this page, as in the following example:\n\n```toml"
	if !strings.HasPrefix(text, want) {
		t.Errorf("got\n%s\nwant\n%s", text, want)
	}
	if !namesSetting("github_url (optional)", "github_url front matter") || namesSetting("github_url (optional)", "github_url") || namesSetting("page front matter", "github_url front matter") {
		t.Error("namesSetting")
	}
}

// "resp." does not end a sentence, and "what's a …" names what it asks
// without the article.
func TestAbbreviationAndNamedArticle(t *testing.T) {
	got := sentences("It shows the terms of an article resp. page of your docs. Then it stops.")
	if len(got) != 2 || !strings.HasSuffix(got[0], "page of your docs.") {
		t.Errorf("sentences: %q", got)
	}
	page := [3]string{"/docs/taxonomy/", "Taxonomy", `<p>A taxonomy term is a key within the taxonomy, such as a tag.</p>`}
	pkg := evidence.NewIndex3(corpusOf(t, page)).Search("What's a taxonomy term?", evidence.Budget{})
	if c := newComposer("What's a taxonomy term?", &pkg, DefaultComposeBytes); c.named != "taxonomy term" {
		t.Errorf("named %q", c.named)
	}
}

// A setting's answer is read from its paragraph's start when what comes
// before the lead says the setting's default.
func TestComposerSettingWithItsDefault(t *testing.T) {
	page := [3]string{"/docs/feedback/", "User feedback", `<h2 id="setup">Setup</h2>
<p>By default, Docsy emits an event value of 100 when a user clicks “yes”. You can change this value by setting <code>params.ui.feedback.max_value</code> to a positive integer. Docsy uses 0 for “no” events.</p>`}
	text := composeNow(t, "params.ui.feedback.max_value", page)
	if !strings.HasPrefix(text, "By default, Docsy emits an event value of 100 when a user clicks “yes”. You can change this value") {
		t.Errorf("got\n%s", text)
	}
}

// An explanation found in a note is read from the note's start, as one
// found in a paragraph is, unless the note opens with a question.
func TestComposerWhyFromNote(t *testing.T) {
	page := [3]string{"/docs/navigation/", "Navigation", `<h2 id="scrollspy">Advanced ScrollSpy customization</h2>
<p>For advanced customization, override the scrollspy partial.</p>
<blockquote><p>[!NOTE]</p><p>ScrollSpy determines the active TOC entry using the browser’s IntersectionObserver API, including its rootMargin. Because of how these thresholds work, there can be brief moments while scrolling when no heading is highlighted.</p></blockquote>`}
	text := composeNow(t, "why does the table of contents sometimes highlight no heading while scrolling", page)
	if !strings.HasPrefix(text, "ScrollSpy determines the active TOC entry using the browser’s IntersectionObserver API") {
		t.Errorf("got\n%s", text)
	}
}

// A comparison whose lead names one side only gets the sentence of the
// same section that names the other, in the page's order.
func TestComposerCompareOtherSide(t *testing.T) {
	page := [3]string{"/docs/lookandfeel/", "Look and Feel", `<h2 id="site-colors">Site colors</h2>
<p>To customize your site’s colors, add SCSS variable overrides to <code>assets/scss/_variables_project.scss</code>.</p>
<p>Gradients are enabled by default.</p>
<p>To add colors to or modify Bootstrap’s color maps, use <code>assets/scss/_variables_project_after_bs.scss</code>.</p>`}
	text := composeNow(t, "_variables_project.scss vs _variables_project_after_bs.scss", page)
	a := strings.Index(text, "add SCSS variable overrides to `assets/scss/_variables_project.scss`")
	b := strings.Index(text, "use `assets/scss/_variables_project_after_bs.scss`")
	if a < 0 || b < 0 || a > b {
		t.Errorf("got\n%s", text)
	}
	if got := sides("difference between full and shared modes"); len(got) != 2 || got[0] != "full" || got[1] != "shared modes" {
		t.Errorf("sides: %q", got)
	}
}

// An entry the question names ("Create child page") is the answer, the
// whole list item, not the page's introduction to the list.
func TestComposerNamedEntry(t *testing.T) {
	page := [3]string{"/docs/repository-links/", "Repository Links", `<p>The Docsy docs and blog layouts include links for readers to edit the page or create issues. The current generated links for each page are:</p>
<ul><li>Edit this page: Brings the user to an editable version of the page content in their fork.</li>
<li>Create child page: Brings the user to a create new file form in their fork of your docs repo. The new file will be located as a child of the page they clicked the link on.</li></ul>`}
	text := composeNow(t, "What happens when a reader clicks Create child page?", page)
	if want := "Create child page: Brings the user to a create new file form in their fork of your docs repo. The new file will be located as a child of the page they clicked the link on."; text != want {
		t.Errorf("got\n%s\nwant\n%s", text, want)
	}
}

// A pronoun as a sentence's second or third word ("Docsy applies it
// when …") leans on the sentence before; "it can be useful" does not.
func TestAnaphoricPronoun(t *testing.T) {
	for l, want := range map[string]bool{
		"docsy applies it when rendering footer icon links.":   true,
		"you set them in the front matter.":                    true,
		"on some sites, it can be useful to print.":            false,
		"it is recommended to pin the version.":                false,
		"the same links are also added to your footer.":        false,
		"when it passes, the stream ends.":                     false,
		"when specified as above the limits last for the run.": true,
		"with the options shown above, it keeps a cache.":      true,
	} {
		if got := anaphoric(l); got != want {
			t.Errorf("anaphoric(%q) = %v", l, got)
		}
	}
}

// Code a reader quotes in backticks inside a longer question is what is
// compared with the pages: the section whose code holds it answers.
func TestComposerQuotedSnippet(t *testing.T) {
	upgrade := [3]string{"/blog/hugo-0.152/", "Hugo 0.152 upgrade guide", `<h2 id="yaml-actions">YAML actions</h2>
<p>Applies if your project has YAML with unquoted <code>yes</code>, <code>no</code>, <code>on</code>, <code>off</code> tokens. Update them to <code>true</code> or <code>false</code>.</p>
<pre><code class="language-yaml"># OLD (now broken)
enabled: yes

# NEW
enabled: true</code></pre>`}
	feedback := [3]string{"/docs/feedback/", "User feedback", `<h2 id="setup">Setup</h2>
<ol><li>Open your project’s Hugo configuration file.</li><li>Set the response text that users see after clicking Yes or No.</li><li>Save the file.</li></ol>`}
	text := composeRanked(t, "after a Hugo upgrade `enabled: yes` in my YAML no longer switches the feature on", []string{"/blog/hugo-0.152/", "/docs/feedback/"}, upgrade, feedback)
	if !strings.HasPrefix(text, "Applies if your project has YAML with unquoted `yes`") || !strings.Contains(text, "enabled: true") {
		t.Errorf("got\n%s", text)
	}
}

// A question asking for the steps reads sibling sections titled with
// -ing words ("Setting up site search", "Adding the search page") as the
// guide's steps; other questions do not.
func TestGerundSteps(t *testing.T) {
	for h, want := range map[string]sectionKind{"Setting up site search": stepSections, "Adding the search page": stepSections, "Creating pages": stepSections, "Something else": plainSections} {
		if got := headingKind(h, true); got != want {
			t.Errorf("headingKind(%q, steps) = %v", h, got)
		}
		if got := headingKind(h, false); got != plainSections {
			t.Errorf("headingKind(%q) = %v", h, got)
		}
	}
}

// A step's code labelled with the file it goes in keeps the file's name
// beside the step's heading.
func TestComposerStepCodeFile(t *testing.T) {
	if !filePath("layouts/_markup/render-passthrough.html") || !filePath("hugo.toml") || filePath("See the docs.") || filePath("a b/c.html") {
		t.Error("filePath")
	}
	page := [3]string{"/docs/katex/", "KaTeX", `<h2 id="activating">Activating KaTeX support</h2>
<h3 id="enable-passthrough-extension">Enable passthrough extension</h3>
<p>First you have to enable the goldmark passthrough extension.</p>
<pre><code class="language-toml">[markup.goldmark.extensions.passthrough]
enable = true</code></pre>
<h3 id="add-passthrough-render-hook">Add passthrough render hook</h3>
<p>Docsy uses Hugo’s render-passthrough hook. The content of this file has to be one single line only.</p>
<p>layouts/_markup/render-passthrough.html</p>
<pre><code class="language-go-html-template">{{ partial "scripts/math.html" . }}</code></pre>`}
	text := composeNow(t, "steps to enable KaTeX math formulas", page)
	if !strings.Contains(text, "Add passthrough render hook, `layouts/_markup/render-passthrough.html`:\n\n```go-html-template") {
		t.Errorf("got\n%s", text)
	}
}

// Code asked about inside a question's frame ("what does hidden: true
// do") is compared with the pages without the frame: the sentence that
// opens with it answers.
func TestComposerFramedCode(t *testing.T) {
	if got := unframed("what does hidden: true do"); got != "hidden: true" {
		t.Errorf("unframed: %q", got)
	}
	search := [3]string{"/docs/search/", "Search", `<h2 id="excluding-pages">Excluding pages</h2><p>Pages with <code>hidden: true</code> are left out of the index.</p>`}
	sidebar := [3]string{"/docs/sidebar/", "Sidebar", `<h2 id="hiding-a-page">Hiding a page</h2><p><code>hidden: true</code> removes a page from the sidebar and from search, but the page is still built and reachable by its URL.</p>`}
	text := composeRanked(t, "what does hidden: true do", []string{"/docs/search/", "/docs/sidebar/"}, search, sidebar)
	if !strings.HasPrefix(text, "`hidden: true` removes a page from the sidebar") {
		t.Errorf("got\n%s", text)
	}
}

// An answer whose only sentence ends in ":" keeps it rather than going
// empty, and an explanation ending by showing how ("like this:") shows
// the code and what it achieves.
func TestDropDanglingKeepsTheAnswer(t *testing.T) {
	var c composed
	c.add("Set it like this:", "r")
	c.add("\n\nSee also X.", "r0")
	c.dropDangling()
	if len(c.deltas) != 2 {
		t.Errorf("deltas %v", c.deltas)
	}
	page := [3]string{"/project/ci-cd/", "CI/CD", `<h2 id="workaround-for-i18n-files">Workaround for i18n files</h2>
<p>The translation files are formatted using Prettier, which removes the blank line before a comment.</p>
<p>We’ve worked around this bug by formatting the preceding entry in the YAML file to be a block scalar, like this:</p>
<pre><code class="language-yaml">community_guideline: >-
  Contribution Guidelines</code></pre>
<p>This ensures that the blank line is preserved.</p>`}
	text := composeNow(t, "why do the i18n yaml files use >- block scalars", page)
	if !strings.Contains(text, "like this:\n\n```yaml\ncommunity_guideline: >-") || !strings.Contains(text, "This ensures that the blank line is preserved.") {
		t.Errorf("got\n%s", text)
	}
}

// A comparison is answered by the rows of a table whose first cells are
// the two sides, those rows only.
func TestComposerCompareRows(t *testing.T) {
	page := [3]string{"/project/notes/", "Maintainer notes", `<h2 id="test-suites">Test suites</h2>
<p>From the repo root:</p>
<table><thead><tr><th>Script</th><th>Role</th></tr></thead><tbody>
<tr><td><code>test:repo</code></td><td>Fast, offline repo checks.</td></tr>
<tr><td><code>test:smoke</code></td><td>Slow, network-bound; builds a site several ways.</td></tr>
<tr><td><code>test:website</code></td><td>Full site checks.</td></tr>
</tbody></table>`}
	text := composeNow(t, "test:repo vs test:smoke", page)
	if want := "- `test:repo`: Fast, offline repo checks.\n- `test:smoke`: Slow, network-bound; builds a site several ways."; text != want {
		t.Errorf("got\n%s\nwant\n%s", text, want)
	}
}

// A reader describing a symptom ("… misbehave after migrating", "… no
// longer scroll to it") asks an error question.
func TestSymptomIsError(t *testing.T) {
	for _, q := range []string{"my responsive layouts misbehave after migrating to Bootstrap 5", "old links to that section no longer scroll to it", "the language dropdown is gone from the sidebar",
		"x509: certificate signed by unknown authority", "NOTICE: Config file not found - using defaults", "excludeFiles in my module mounts gives a deprecation warning"} {
		if !errorLike(q) {
			t.Errorf("errorLike(%q) = false", q)
		}
	}
	if errorLike("show a year range in the footer copyright notice") {
		t.Error("a how-to taken for an error")
	}
	if errorLike("kind: latest on a params.versions entry") {
		t.Error("a setting taken for a program's message")
	}
}

// "What is X in Y" asks what X is: the section named for X answers, not
// the one about Y.
func TestComposerDefineWithin(t *testing.T) {
	design := [3]string{"/project/semantic-classes/", "Semantic classes", `<h2 id="skins">Skins</h2>
<p>A skin binds the semantic classes to a styling source: in CSS only, never in markup.</p>`}
	guide := [3]string{"/docs/lookandfeel/", "Look and Feel", `<h2 id="semantic-classes">Semantic classes</h2>
<p>Chrome components that have adopted Docsy’s semantic classes emit theme-owned classes, with component state carried by semantic attributes rather than state classes.</p>`}
	text := composeRanked(t, "what is a skin in Docsy's semantic class design", []string{"/project/semantic-classes/", "/docs/lookandfeel/"}, design, guide)
	if !strings.HasPrefix(text, "A skin binds the semantic classes to a styling source") {
		t.Errorf("got\n%s", text)
	}
}

// A lead introducing bullets each with its code quotes every pair.
func TestComposerItemsWithCode(t *testing.T) {
	page := [3]string{"/blog/0.12/", "Upgrade to 0.12", `<h2 id="move-layouts">Move custom layout files and folders</h2>
<p>We recommend updating your project’s layout files and folders to match the new layout structure as follows:</p>
<ul><li>Move <code>_markup</code> one level up:</li></ul>
<pre><code class="language-text">layouts/_default/_markup/ → layouts/_markup/</code></pre>
<ul><li>Add underscore prefixes to subfolders:</li></ul>
<pre><code class="language-text">layouts/partials/ → layouts/_partials/</code></pre>`}
	text := composeNow(t, "move my custom layouts to the new folder structure", page)
	want := "structure as follows:\n\n- Move `_markup` one level up:\n\n```text\nlayouts/_default/_markup/ → layouts/_markup/\n```\n\n- Add underscore prefixes to subfolders:\n\n```text\nlayouts/partials/ → layouts/_partials/\n```"
	if !strings.Contains(text, want) {
		t.Errorf("got\n%s\nwant\n%s", text, want)
	}
}

// "ways to …" asks for several things: the list of the section that
// names them answers.
func TestComposerWaysToList(t *testing.T) {
	page := [3]string{"/docs/agent-support/", "AI-agent support", `<h2 id="llms-txt">Enable llms.txt</h2>
<p>Docsy generates the Markdown pages at the site root. To enable it, add LLMS to the outputs.</p>
<h2 id="customize-output">Customize output</h2>
<p>Docsy renders Markdown output via layouts/all.md. You can override these defaults at several levels:</p>
<ul><li>Per kind — Add templates such as <code>home.md</code> under <code>layouts/</code>.</li>
<li>Per shortcode — Add output-format-specific shortcode templates.</li>
<li>Per page — Provide page-specific content for high-value pages.</li></ul>`}
	text := composeNow(t, "ways to customise the Markdown pages Docsy generates", page)
	if !strings.Contains(text, "- Per kind — Add templates") || !strings.Contains(text, "- Per page — Provide page-specific content") {
		t.Errorf("got\n%s", text)
	}
}

// A yes-or-no answer keeps the short verdict its paragraph opens with.
func TestComposerVerdict(t *testing.T) {
	page := [3]string{"/docs/organizing/", "Organizing Your Content", `<h2 id="do-i-need-to-use-this-structure">Do I need to use this structure?</h2>
<p>Absolutely not! The site structure in the Example Site was created to meet the needs of large docsets with lots of features, tasks, and reference elements.</p>`}
	text := composeNow(t, "do I have to keep the example site's docs structure with concepts, tasks and reference sections?", page)
	if !strings.HasPrefix(text, "Absolutely not! The site structure") {
		t.Errorf("got\n%s", text)
	}
	if !verdict("Yes.") || !verdict("Not necessarily.") || verdict("Yesterday the build failed on every page.") {
		t.Error("verdict")
	}
}

// Question words found only in a sentence's parenthesized aside do not
// make it the answer.
func TestComposerParentheticalAside(t *testing.T) {
	if got := outsideParens("Docsy makes the navbar translucent (typically used for hero images) while visible."); got != "Docsy makes the navbar translucent  while visible." {
		t.Errorf("outsideParens: %q", got)
	}
	look := [3]string{"/docs/lookandfeel/", "Look and Feel", `<h2 id="over-cover">Translucent over cover images</h2>
<p>In addition, on desktop, when a page contains a blocks/cover (typically used for hero images on the home page), Docsy makes the navbar translucent while the cover is visible by adding the classes <code>td-navbar-cover td-navbar-transparent</code> to the navbar.</p>`}
	shortcodes := [3]string{"/docs/shortcodes/", "Shortcodes", `<h2 id="blocks-cover">blocks/cover</h2>
<p>To set the background image (also referred to as a hero image), place an image with the word “background” in the name in the page’s page bundle. For example, the background image in the home page’s cover block is featured-background.jpg, in the same directory.</p>`}
	text := composeRanked(t, "change the big hero image on my home page", []string{"/docs/lookandfeel/", "/docs/shortcodes/"}, look, shortcodes)
	if !strings.HasPrefix(text, "To set the background image") {
		t.Errorf("got\n%s", text)
	}
}

// An instruction that turns a thing the other way than asked ("To
// disable breadcrumbs …" for "show the breadcrumb …") does not lead.
func TestComposerOppositeInstruction(t *testing.T) {
	page := [3]string{"/docs/navigation/", "Navigation", `<h2 id="breadcrumb-navigation">Breadcrumb navigation</h2>
<p>Breadcrumb navigation links appear at the top of each page by default.</p>
<p>To disable breadcrumbs in a specific page or section set <code>ui.breadcrumb_disable</code> to true in the page or section-index front matter.</p>
<p>To also display single-element breadcrumb lists in index pages, add the following style override to your project:</p>
<pre><code class="language-scss">.td-breadcrumbs--single { display: inline !important; }</code></pre>`}
	text := composeNow(t, "how can I show the breadcrumb on section index pages too? it only shows a breadcrumb on normal pages", page)
	if !strings.HasPrefix(text, "To also display single-element breadcrumb lists in index pages") {
		t.Errorf("got\n%s", text)
	}
}

// A setting asked by name whose answer opens a short list quotes the
// whole list: its items are the cases of one instruction.
func TestComposerSettingListWhole(t *testing.T) {
	page := [3]string{"/blog/0.15/", "Release 0.15.0 upgrade guide", `<h2 id="community-footer-links-actions">Community and footer links: actions</h2>
<p>Applies if your multilingual site configures community or footer links with site-local paths.</p>
<ul><li>Review <code>params.links.user</code> and <code>params.links.developer</code> path values.</li>
<li>If the path should be site-relative, leave the path as is.</li>
<li>If the path should target the default-language site, add that prefix – for example <code>/en/community/</code>.</li></ul>`}
	text := composeNow(t, "params.links.user paths on a multilingual site after Docsy 0.15", page)
	if !strings.Contains(text, "- If the path should be site-relative, leave the path as is.") || !strings.Contains(text, "`/en/community/`") {
		t.Errorf("got\n%s", text)
	}
	if !shortList("- a\n- b", 600) || shortList("1. a\n2. b", 600) || shortList("- a", 600) {
		t.Error("shortList")
	}
}

// An upgrade guide's action opens by saying when it applies; the answer
// goes on to what to do, in the item's next paragraph, or as the list of
// actions after it, each action cut to its first sentence when the list
// is too long to quote whole.
func TestComposerPastScope(t *testing.T) {
	page := [3]string{"/blog/release-2/", "Release 2 upgrade guide", `<h2 id="anchors">Anchor class actions</h2>
<ul><li><p>Applies if your site uses <code>old-anchor</code>; for example, if you override <code>blocks/lead.html</code> or <code>blocks/section.html</code>.</p>
<p>Rename <code>old-anchor</code> to <code>new-anchor</code>. See the notes.</p></li>
<li><p>Scrolling: applies if you want smooth scrolling for in-page targets.</p></li></ul>`}
	text := composeNow(t, "our blocks/section.html override still uses old-anchor, what should it be now?", page)
	if !strings.Contains(text, "Rename `old-anchor` to `new-anchor`.") {
		t.Errorf("the action after the scope is missing:\n%s", text)
	}

	long := strings.Repeat(" This keeps the build reproducible on every machine the team uses.", 4)
	tools := [3]string{"/blog/tools/", "Tools upgrade guide", `<h2 id="node-actions">Node tools actions</h2>
<p>Applies if your site runs PostCSS or Tailwind during the build.</p>
<ul><li>Upgrade Node to the active LTS release.` + long + `</li>
<li>Build locally and check for permission errors.` + long + `</li>
<li>Install Tailwind as an npm package.` + long + `</li></ul>`}
	text = composeNow(t, "upgrading the build tools on a site that runs PostCSS and Tailwind, what do I need to do", tools)
	for _, want := range []string{"- Upgrade Node to the active LTS release.\n", "- Build locally and check for permission errors.\n", "- Install Tailwind as an npm package."} {
		if !strings.Contains(text, want) {
			t.Errorf("missing action %q:\n%s", want, text)
		}
	}
	if strings.Contains(text, "reproducible") {
		t.Errorf("actions not cut to their first sentence:\n%s", text)
	}
}

// When a question says it is asked ("for now", "may … later", "still")
// is not what it is about: a sentence sharing only those words does not
// lead.
func TestComposerWhenAskedWords(t *testing.T) {
	card := [3]string{"/docs/cards/", "Card: textual content", `<p>You may say now is the time, and later we will live as one.</p>`}
	lang := [3]string{"/docs/language/", "Multi-language support", `<p>If your site might be translated into other languages, consider putting your content in a language-specific subdirectory such as <code>content/en</code>.</p>`}
	text := composeRanked(t, "our site is English only for now but may be translated later, where should the content live?", []string{"/docs/cards/", "/docs/language/"}, card, lang)
	if !strings.HasPrefix(text, "If your site might be translated") {
		t.Errorf("lead:\n%s", text)
	}
}

// A how-to that tells its situation first ("my primary colour has poor
// contrast in dark mode, how do I get a lighter variant") is asked by
// its request: the sentence doing what is requested leads, not one
// naming the situation's first word.
func TestComposerRequestAfterSituation(t *testing.T) {
	page := [3]string{"/docs/colors/", "Colors", `<h2 id="contrast">Color contrast</h2>
<p>The primary color is used for links and buttons, and its contrast in dark mode matters.</p>
<p>To get a lighter variant automatically, set <code>$lighten-amount</code> in your project's variables file:</p>
<pre><code class="language-scss">$lighten-amount: 28%;</code></pre>`}
	text := composeNow(t, "my primary colour has poor contrast in dark mode, how do I get a lighter variant automatically", page)
	if !strings.HasPrefix(text, "To get a lighter variant") {
		t.Errorf("lead:\n%s", text)
	}
	for q, want := range map[string]string{
		"the TOC marks a heading too late while I scroll, can I make it switch earlier?": "switch earlier?",
		"docs pulled from a submodule, how do I make View page source go to that repo":   "View page source go to that repo",
		"how do I deploy the site": "how do I deploy the site",
	} {
		if got := request(q); got != want {
			t.Errorf("request(%q) = %q, want %q", q, got, want)
		}
	}
}

// A how-to opening with a verb that says nothing ("use a custom layout")
// is weighed by the word after it, and a reader's "top bar" is the
// page's navbar.
func TestComposerVagueVerbAndNavbar(t *testing.T) {
	for q, want := range map[string]string{
		"use a custom layout for one page": "custom",
		"make the navbar taller":           "navbar",
		"hide the sidebar":                 "hide",
		"the docs are in a submodule, how do I use a different repo for edit links": "different",
	} {
		pkg := v3(t, [3]string{"/docs/", "Docs", "<p>The docs use a custom layout, a navbar and a sidebar.</p>"}).Search(q, evidence.Budget{})
		c := newComposer(q, &pkg, DefaultComposeBytes)
		got := ""
		for i, term := range c.terms {
			if c.verb == 1<<uint(i) {
				got = term
			}
		}
		if got != want {
			t.Errorf("%q: doing word %q, want %q", q, got, want)
		}
	}
	search := [3]string{"/docs/search/", "Search", `<p>By default, the search box appears in the top navigation bar and at the top of the sidebar.</p>`}
	logo := [3]string{"/docs/logo/", "Logos", `<p>By default, the site shows the theme logo at the start of the navbar.</p>
<p>If you don't want a logo to appear in the navbar, set the site parameter <code>navbar_logo</code> to <code>false</code>.</p>`}
	text := composeRanked(t, "remove the logo from the top bar completely", []string{"/docs/search/", "/docs/logo/"}, search, logo)
	if !strings.Contains(text, "logo") || strings.Contains(text, "search box") {
		t.Errorf("top bar: %s", text)
	}
}

// How a guide ends ("Open http://localhost:1313 in your web browser to
// load the user guide", "Press Ctrl + C to stop") does not lead a how-to
// though it names what is asked; what the guide does does.
func TestComposerLastStepDoesNotLead(t *testing.T) {
	page := [3]string{"/docs/contributing/", "Contributing", `<h2 id="preview">Preview the user guide locally</h2>
<p>Docsy comes with a Dockerfile to run the server locally with Docker.</p>
<pre><code class="language-sh">docker build -t docsy/user-guide .</code></pre>
<pre><code class="language-sh">docker run -p 1313:1313 docsy/user-guide</code></pre>
<p>Open http://localhost:1313 in your web browser to load the docsy user guide.</p>
<p>Press Ctrl + C to stop the container.</p>`}
	text := composeNow(t, "preview my edits to the docsy user guide locally", page)
	if strings.HasPrefix(text, "Open http") || strings.HasPrefix(text, "Press Ctrl") {
		t.Errorf("a last step leads:\n%s", text)
	}
}

// "Stop … listing" is done by the instruction that hides ("To display no
// links at all, …"), in other words than the question's, not by the
// default it changes nor the instruction that shows another list.
func TestComposerStopIsDoneByHiding(t *testing.T) {
	page := [3]string{"/docs/content/", "Adding content", `<p>Docs are Markdown files.</p>
<h2 id="landing">Docs section landing pages</h2>
<p>By default a section landing page uses a layout that adds a formatted list of links to the pages in the section, with their descriptions.</p>
<p>To display a simple bulleted list of links to the section's pages instead, specify <code>simple_list: true</code> in the landing page's front matter.</p>
<p>To display no links at all, specify <code>no_list: true</code> in the landing page's front matter.</p>`}
	text := composeNow(t, "stop my section landing page from listing its child pages", page)
	if !strings.HasPrefix(text, "To display no links at all") {
		t.Errorf("lead:\n%s", text)
	}
}

// Steps whose headings carry their numbers ("1. Image fingerprints",
// "Step 2: Taxonomy files") are numbered once.
func TestComposerStepHeadingsNumberedOnce(t *testing.T) {
	for h, want := range map[string]string{
		"1. Image fingerprints": "Image fingerprints", "Step 2: Taxonomy files": "Taxonomy files",
		"10) Rename": "Rename", "2026 plans": "2026 plans", "3.5 GB limit": "3.5 GB limit", "Install": "Install",
	} {
		if got := unnumbered(h); got != want {
			t.Errorf("unnumbered(%q) = %q, want %q", h, got, want)
		}
	}
	page := [3]string{"/blog/upgrade/", "Upgrade guide", `<h2 id="changes">Check for required changes</h2>
<h3 id="one">1. Image fingerprints</h3><p>Skip this step if your styles use no cover images.</p>
<h3 id="two">2. Taxonomy files</h3><p>Move your taxonomy layouts.</p>
<h3 id="three">3. Layout rename</h3><p>Rename content.html.</p>`}
	text := composeNow(t, "what are the steps to check for required changes after the upgrade", page)
	if !strings.Contains(text, "1. Image fingerprints") || strings.Contains(text, "1. 1.") || strings.Contains(text, "2. 2.") {
		t.Errorf("steps:\n%s", text)
	}
}

// A step that introduces sub-steps ("In the Deploy settings page:") is
// followed by the one sub-step the question singles out (the build
// command for a site using the theme as a git submodule), not by none.
func TestComposerSubStepAsked(t *testing.T) {
	page := [3]string{"/docs/netlify/", "Deployment on Netlify", `<p>Netlify serves your site from your Git provider.</p>
<p>Once you're logged in:</p>
<ol><li>Click New site from Git.</li>
<li>Choose your site repo from your list of repos.</li>
<li>In the Deploy settings page:<ol>
<li>If you are using the theme as a Git submodule, specify <code>git submodule update -f --init &amp;&amp; hugo</code>. You need this so that Netlify gets the theme.</li>
<li>If you are using the theme as a Hugo module, you can just specify <code>hugo</code>.</li>
<li>Click Show advanced.</li></ol></li>
<li>Click Deploy site.</li></ol>`}
	text := composeNow(t, "steps to deploy my site on Netlify when the theme is a git submodule", page)
	want := "3. In the Deploy settings page:\n   - If you are using the theme as a Git submodule, specify `git submodule update -f --init && hugo`.\n4. Click Deploy site."
	if !strings.Contains(text, want) {
		t.Errorf("want %q in:\n%s", want, text)
	}
}

// "Should I A or B?" weighs two options: it is answered by what the docs
// say of choosing, not by the steps of one ("from scratch" does not make
// it a procedure).
func TestComposerShouldIAOrB(t *testing.T) {
	page := [3]string{"/docs/scratch/", "Start a site from scratch", `<p>The simplest approach to creating a site is copying our example site. However, if you're an experienced Hugo user, you may prefer to create a new site from scratch.</p>
<h2 id="skeleton">Create your new skeleton project</h2><p>Run <code>hugo new site my-site</code>.</p>
<h2 id="import">Import the theme module</h2><p>Run <code>hugo mod get</code>.</p>
<h2 id="preview">Preview your site</h2><p>Run <code>hugo server</code>.</p>`}
	text := composeNow(t, "should I start from the example site or from scratch?", page)
	if !strings.HasPrefix(text, "The simplest approach") || strings.Contains(text, "The steps") {
		t.Errorf("choice:\n%s", text)
	}
}

// A section that undoes the others ("Disabling search") is no step of
// doing it.
func TestComposerStepsWithoutUndoing(t *testing.T) {
	page := [3]string{"/docs/search/", "Search", `<h2 id="gcse">Configure search with a custom engine</h2><p>You can use a custom search engine.</p>
<h3 id="setting-up">Setting up site search</h3><p>Create a search engine on the engine's site.</p>
<h3 id="adding">Adding the search page</h3><p>Add a page with <code>layout: search</code>.</p>
<h3 id="disabling">Disabling the search</h3><p>Remove the engine ID from your config.</p>`}
	text := composeNow(t, "set up the custom search engine on my site, step by step", page)
	if !strings.Contains(text, "2. Adding the search page") || strings.Contains(text, "Disabling") {
		t.Errorf("steps:\n%s", text)
	}
}

// A question naming a release ("for the 0.16 upgrade") is answered from
// that release's notes ("Release 0.16.0 report and upgrade guide") over
// a guide that shares its other words.
func TestComposerNamedRelease(t *testing.T) {
	guide := [3]string{"/docs/install/", "Other setup options", `<p>When the theme lives in themes/theme as a Git submodule, add it as a theme in your hugo.yaml, for example with <code>theme: theme</code>.</p>`}
	release := [3]string{"/blog/0.16.0/", "Release 0.16.0 report and upgrade guide", `<p>Change the theme path in hugo.yaml: use <code>theme: theme/theme</code>.</p>`}
	text := composeRanked(t, "the theme lives in themes/theme as a git submodule, what do I change in hugo.yaml for the 0.16 upgrade", []string{"/docs/install/", "/blog/0.16.0/"}, guide, release)
	if !strings.HasPrefix(text, "Change the theme path") {
		t.Errorf("lead:\n%s", text)
	}
	for q, want := range map[string]string{"Docsy 0.13 site won't build with Hugo 0.152.1": "0.13", "since 0.14.2 the code blocks look different": "0.14.2", "how do I upgrade": ""} {
		if got := releaseIn(q); got != want {
			t.Errorf("releaseIn(%q) = %q, want %q", q, got, want)
		}
	}
}

// Of a section's lists, a "which …" question gets the one whose
// introduction says what is asked, not the first one.
func TestComposerListThatSpeaks(t *testing.T) {
	page := [3]string{"/docs/look/", "Look and feel", `<h2 id="code-styles">Light/dark code styles</h2>
<p>To enable code styles that are compatible with color modes, complete these setup steps:</p>
<ol><li>Ensure that <code>noClasses</code> is false in your project config.</li><li>Import the dark styles in your project file.</li></ol>
<p>The default Chroma styles for light and dark modes are:</p>
<ul><li>friendly for light mode</li><li>native for dark mode</li></ul>`}
	text := composeNow(t, "which Chroma styles does the theme use for code blocks in light and in dark mode?", page)
	if !strings.HasPrefix(text, "The default Chroma styles for light and dark modes are:\n\n- friendly for light mode\n- native for dark mode") {
		t.Errorf("list:\n%s", text)
	}
}

// A question that names its topic first ("site variants: which branch
// …") asks for several things as much as one opening with "which".
func TestComposerListingAfterTopic(t *testing.T) {
	page := [3]string{"/project/repo/", "Git repo", `<h2 id="published">Published sites</h2>
<p>Netlify publishes the following site variants:</p>
<table><thead><tr><th>Site variant</th><th>Publishing branch</th></tr></thead>
<tbody><tr><td>Latest release</td><td><code>deploy/prod</code></td></tr><tr><td>Next</td><td><code>main</code></td></tr></tbody></table>
<h2 id="release">Publishing a release</h2>
<ol><li>Change directory to your local repo and create a branch.</li><li>Update the changelog.</li><li>Publish each site.</li></ol>`}
	text := composeNow(t, "site variants: which branch does each one publish from?", page)
	if !strings.Contains(text, "deploy/prod") {
		t.Errorf("the table is missing:\n%s", text)
	}
}

// A question asking for the steps gets the guide whose own heading names
// more of its task ("Patch release workflow" for "steps for a patch
// release"), though the engine ranked another guide first.
func TestComposerGuideNamedByHeading(t *testing.T) {
	notes := [3]string{"/project/notes/", "Maintainer notes", `<h2 id="publishing">Publishing a release</h2>
<p>These steps are for creating a release, a patch release too, from a local copy of the repo.</p>
<ol><li>Change directory to your local repo.</li><li>Create a changelog entry for the release.</li><li>Run the full test suite.</li></ol>`}
	repo := [3]string{"/project/repo/", "Git repo", `<h2 id="patch">Patch release workflow</h2>
<p>For patches, prefer making the changes to main first.</p>
<ol><li>Cherry-pick relevant commits from main to release.</li><li>Create and merge a release PR.</li><li>Update deploy/prod from main.</li></ol>`}
	text := composeRanked(t, "steps for a patch release", []string{"/project/notes/", "/project/repo/"}, notes, repo)
	if !strings.Contains(text, "1. Cherry-pick relevant commits") {
		t.Errorf("steps:\n%s", text)
	}
}

// What a question sets aside ("options other than rootMargin, like
// threshold") is no reason to quote a sentence, its code or its
// support: the sentence about the other option leads.
func TestComposerSetAside(t *testing.T) {
	page := [3]string{"/docs/nav/", "Navigation", `<h2 id="scrollspy">Active TOC entry tracking with ScrollSpy</h2>
<p>To globally adjust when headings become active, set <code>ui.scrollSpy.rootMargin</code> in your site configuration.</p>
<pre><code class="language-toml">[params.ui.scrollSpy]
rootMargin = "0px 0px -15%"</code></pre>
<h3 id="advanced">Advanced ScrollSpy customization</h3>
<p>For advanced customization, such as adjusting <code>threshold</code>, override <code>layouts/_partials/td/scrollspy-attr.txt</code>.</p>`}
	text := composeNow(t, "where do I change ScrollSpy options other than rootMargin, like threshold?", page)
	if !strings.HasPrefix(text, "For advanced customization, such as adjusting `threshold`") || strings.Contains(text, "0px 0px -15%") {
		t.Errorf("answer:\n%s", text)
	}
	for q, want := range map[string]string{
		"where do I change ScrollSpy options other than rootMargin, like threshold?": "rootMargin",
		"besides docsy-example, is there another template I can start from?":         "docsy-example",
		"use a model instead of the extractive generator":                            "",
	} {
		if got := excludedIn(q); got != want {
			t.Errorf("excludedIn(%q) = %q, want %q", q, got, want)
		}
	}
}

// A sentence leaning on the one before it ("This prevents the title
// from appearing in a page's table of contents.") can answer a why, and
// is read from that one.
func TestComposerLeaningReadWithBefore(t *testing.T) {
	page := [3]string{"/docs/shortcodes/", "Shortcodes", `<h2 id="alert">alert</h2>
<p>Use the alert shortcode to display notices and warnings in your pages.</p>
<ul><li><code>title</code> (optional): a title for your alert. The title renders as an alert heading using the h4 class over a div rather than a heading element. This prevents the title from appearing in a page's table of contents.</li>
<li><code>color</code> (optional): one of the alert variants.</li></ul>`}
	text := composeNow(t, "why don't the titles of my alert shortcodes show up in the page's table of contents?", page)
	if !strings.HasPrefix(text, "The title renders as an alert heading using the h4 class over a div rather than a heading element. This prevents the title") {
		t.Errorf("answer:\n%s", text)
	}
}

// "What is X for?" asks what X is: a command reference page headed with
// its name opens with a one-line summary, then says more in its
// synopsis; both answer, before the synopsis's details of running it.
func TestComposerDefinitionOfACommand(t *testing.T) {
	page := [3]string{"/commands/tool_serve_docker/", "tool serve docker", `<h1 id="tool-serve-docker">tool serve docker</h1>
<p>Serve any remote on docker's volume plugin API.</p>
<h2 id="synopsis">Synopsis</h2>
<p>This command implements the Docker volume plugin API, so that docker can keep volumes on any remote tool reaches.</p>
<p>Running <code>tool serve docker</code> creates the socket docker listens on for volume requests; the tool serve docker command then serves docker's requests to create volumes, and we use sudo as the socket path is writable by root only.</p>`}
	text, _ := composeOver(t, "what is tool serve docker for?", page)
	want := "Serve any remote on docker's volume plugin API.\n\nThis command implements the Docker volume plugin API"
	if !strings.HasPrefix(text, want) {
		t.Errorf("got\n%s\nwant it to start\n%s", text, want)
	}
}

// A "which …" question led by a sentence that introduces code is
// answered by that code, not by some other list of the section slipped
// in between the sentence and its code.
func TestComposerListingIntroducedCode(t *testing.T) {
	page := [3]string{"/commands/tool_lsf/", "tool lsf", `<h2 id="synopsis">Synopsis</h2>
<p>List the contents of the source path in a form easy to parse by scripts.</p>
<p>Use the <code>--format</code> option to control what gets listed. By default this is just the path, but you can use these letters to control the output:</p>
<pre><code>p - path
s - size
t - modification time</code></pre>
<p>Other commands list in other forms:</p>
<ul><li><code>ls</code> lists the size and path of objects only</li><li><code>lsl</code> lists modification time, size and path</li><li><code>lsd</code> lists directories only</li></ul>`}
	text, _ := composeOver(t, "which letters can go in lsf --format? I need size and modification time as well as the name", page)
	if !strings.Contains(text, "control the output:\n\n```") {
		t.Errorf("got\n%s", text)
	}
}
