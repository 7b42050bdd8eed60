package generate

import (
	"strings"
	"testing"
)

// A question that asks of a key of a long example in its own words ("why
// fetch-depth: 0 in the workflow") is answered by the comment the example
// gives that key, though the question names no one setting.
func TestComposerKeyCommentInWords(t *testing.T) {
	page := [3]string{"/docs/deploy/pages/", "Deploy on Pages", `<p>If your repo is hosted on a forge, a simple option is to serve your site from its pages service, which comes with continuous deployment.</p>
<p>Open the workflow file in an editor, paste in the code below, and save it:</p>
<pre><code class="language-yaml">name: Deploy to Pages
on:
  push:
    branches:
      - main
jobs:
  deploy:
    steps:
      - uses: actions/checkout@v4
        with:
          fetch-depth: 0 # Fetch all history for the last-modified dates
      - run: npm ci
</code></pre>`}
	text := composeNow(t, "why fetch-depth: 0 in the pages workflow", page)
	if !strings.Contains(text, "Fetch all history for the last-modified dates") {
		t.Errorf("the key's comment is missing:\n%s", text)
	}
	text = composeNow(t, "why does the pages workflow need history", page)
	if strings.Contains(text, "`jobs.deploy.steps.with.fetch-depth`") {
		t.Errorf("a key the question does not name was quoted as an entry:\n%s", text)
	}
}
