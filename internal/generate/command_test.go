package generate

import (
	"strings"
	"testing"
)

// A pasted command is answered from the section whose code runs it: the
// paragraph introducing the code, the code, and what the text after it
// says, not from a sentence elsewhere that names the command in passing.
func TestComposerPastedCommand(t *testing.T) {
	deploying := [3]string{"/deploying/", "Deploying", `<h2 id="checks">Every deployment runs the same checks</h2>
<p>Whatever the host, the build step is <code>hugo</code> followed by <code>askplane verify public/</code>.</p>`}
	quickstart := [3]string{"/quickstart/", "Quickstart", `<h2 id="build-and-check">Build and check</h2>
<p>Run <code>hugo</code> as usual. Then check the result with the Go verifier:</p>
<pre><code class="language-sh">askplane verify public/</code></pre>
<p>It recomputes every hash and explains each failure with the fact id and the file that declared it.</p>`}
	text := composeRanked(t, "askplane verify public/", []string{"/deploying/", "/quickstart/"}, deploying, quickstart)
	want := "Run `hugo` as usual. Then check the result with the Go verifier:\n\n```sh\naskplane verify public/\n```\n\nIt recomputes every hash and explains each failure with the fact id and the file that declared it."
	if !strings.HasPrefix(text, want) {
		t.Errorf("got\n%s\nwant\n%s", text, want)
	}
}

func TestCommandAsked(t *testing.T) {
	for q, want := range map[string]bool{
		"askplane verify public/":                   true,
		"hugo mod get github.com/askplane/askplane": true,
		"npm run install:theme-deps":                true,
		"static: true":                              false,
		"params.askplane.endpoint":                  false,
		"install github.com/x/y":                    false, // a request, worded as one
		"how to run hugo --gc":                      false,
	} {
		if got := commandAsked(plain(q)); got != want {
			t.Errorf("commandAsked(%q) = %v", q, got)
		}
	}
	for _, tc := range []struct {
		code, v string
		want    bool
	}{
		{"$ askplane verify public/", "askplane verify public/", true},
		{"hugo mod get github.com/askplane/askplane/hugo-module", "hugo mod get github.com/askplane/askplane", true},
		{"go run github.com/x/askplane@latest verify public/", "askplane verify public/", false},
		{"hugo mod get github.com/askplane/askplanes", "hugo mod get github.com/askplane/askplane", false},
	} {
		if got := runs(tc.code, tc.v); got != tc.want {
			t.Errorf("runs(%q, %q) = %v", tc.code, tc.v, got)
		}
	}
}

// A command's block alone is preferred to a script that runs it among
// others, and an introduction that is only a label ("For an npm package
// install:") is read with the paragraph before it.
func TestComposerCommandAloneAndLabelledIntro(t *testing.T) {
	scratch := [3]string{"/start/", "Start from scratch", `<h2 id="tldr">TL;DR</h2>
<p>At your command prompt, run the following:</p>
<pre><code class="language-sh">hugo new site my-site
cd my-site
hugo mod init github.com/me/my-site
hugo server</code></pre>
<h2 id="import">Import the theme module</h2>
<p>To turn your site into a Hugo Module, run:</p>
<pre><code class="language-sh">hugo mod init github.com/me/my-site</code></pre>
<p>This creates two new files, <code>go.mod</code> and <code>go.sum</code>.</p>`}
	text := composeNow(t, "hugo mod init github.com/me/my-site", scratch)
	if want := "To turn your site into a Hugo Module, run:\n\n```sh\nhugo mod init github.com/me/my-site\n```\n\nThis creates two new files"; !strings.HasPrefix(text, want) {
		t.Errorf("got\n%s\nwant\n%s", text, want)
	}
	favicons := [3]string{"/images/", "Logos and Images", `<h2 id="generate-favicons">Generate favicons</h2>
<p>If you have a source SVG and ImageMagick installed, Docsy ships a <code>gen-favicons</code> helper that generates the raster icons.</p>
<p>For an npm package install of Docsy:</p>
<pre><code class="language-sh">npx --no -- gen-favicons static/favicon.svg static/</code></pre>`}
	text = composeNow(t, "npx --no -- gen-favicons static/favicon.svg static/", favicons)
	if want := "If you have a source SVG and ImageMagick installed, Docsy ships a `gen-favicons` helper that generates the raster icons.\n\nFor an npm package install of Docsy:\n\n```sh\nnpx"; !strings.HasPrefix(text, want) {
		t.Errorf("got\n%s\nwant\n%s", text, want)
	}
}

// A command run by the last of a short list of steps is quoted with the
// steps and the paragraph introducing them.
func TestComposerCommandAfterSteps(t *testing.T) {
	page := [3]string{"/docs/docker/", "Docker", `<h2 id="cleanup">Cleanup</h2>
<p>To clean up your system and delete the container image, follow the next steps.</p>
<ol><li>Stop Docker Compose with Ctrl + C.</li><li>Remove the produced images</li></ol>
<pre><code class="language-bash">docker-compose rm</code></pre>`}
	text := composeNow(t, "docker-compose rm", page)
	want := "To clean up your system and delete the container image, follow the next steps.\n\n1. Stop Docker Compose with Ctrl + C.\n2. Remove the produced images\n\n```bash\ndocker-compose rm\n```"
	if text != want {
		t.Errorf("got\n%s\nwant\n%s", text, want)
	}
}
