package generate

import (
	"strings"
	"testing"
)

// A sentence added to support the answer is read from the start of its
// short paragraph: "If you want local time …" says little without "Note
// that the value of `--timestamp` is in UTC."
func TestComposerSupportReadsItsParagraph(t *testing.T) {
	page := [3]string{"/commands/tool_touch/", "tool touch", `<h2 id="synopsis">Synopsis</h2>
<p>Set the modification time on file(s) as specified by remote:path to have the current time.</p>
<p>If <code>--timestamp</code> is used then sets the modification time to that time instead of the current time.</p>
<p>Note that the value of <code>--timestamp</code> is in UTC. If you want local time then add the <code>--localtime</code> flag.</p>`}
	text, _ := composeOver(t, "tool touch with a date instead of now, is it local time?", page)
	if !strings.Contains(text, "Note that the value of `--timestamp` is in UTC. If you want local time") {
		t.Errorf("got\n%s", text)
	}
}

// A command line asked about is answered by the sentence that quotes its
// flag and value as they are ("`--type box` also matches `dropbox`"),
// not by one that only shares its words.
func TestComposerQuotesTheAskedFlag(t *testing.T) {
	page := [3]string{"/commands/tool_listremotes/", "tool listremotes", `<h2 id="synopsis">Synopsis</h2>
<p>Lists all the available remotes from the config file, or the remotes matching an optional filter.</p>
<p>Prints the result in human-readable format by default, and as a simple list of remote names, or if used with flag <code>--long</code> a tabular format including the remote names, types and descriptions.</p>
<p>Result can be filtered by a filter argument which applies to all attributes.</p>
<p>By default filtering uses non-anchored matching, so <code>--type box</code> also matches <code>dropbox</code>. Use <code>--exact</code> to match complete values only.</p>`}
	text, _ := composeOver(t, "tool listremotes --type box   -> also prints my dropbox remote", page)
	if !strings.HasPrefix(text, "By default filtering uses non-anchored matching") || !strings.Contains(text, "--exact") {
		t.Errorf("got\n%s", text)
	}
}

// A support sentence goes on with the sentences after it that lean on
// it: "Hooks can be defined on a per-type basis." says which file only
// in "This can be achieved by creating …".
func TestComposerSupportGoesOnWithWhatLeansOnIt(t *testing.T) {
	page := [3]string{"/docs/print/", "Print support", `<h2 id="layout-hooks">Layout hooks</h2>
<p>A number of layout partials and hooks are defined that can be used to customize the printed format. These can be found in <code>layouts/_partials/print</code>.</p>
<p>Hooks can be defined on a per-type basis. For example, you may want to customize the layouts of heading for blog pages vs docs. This can be achieved by creating <code>layouts/_partials/print/page-heading-&lt;type&gt;.html</code>.</p>
<p>Similarly, the formatting for each page can be customized by creating <code>layouts/_partials/print/content-&lt;type&gt;.html</code>.</p>`}
	text, _ := composeOver(t, "print partials I can override per content type", page)
	if !strings.Contains(text, "page-heading-<type>.html") {
		t.Errorf("got\n%s", text)
	}
}

// "What does X do? …" asks what X is, whatever the reader adds after
// the question: the page titled X answers.
func TestComposerDefinitionBeforeMore(t *testing.T) {
	info := [3]string{"/commands/tool_test_info/", "tool test info", `<h2 id="tool-test-info">tool test info</h2>
<p>Discovers file name or other limitations for paths.</p>
<h2 id="synopsis">Synopsis</h2>
<p>Discovers what filenames and upload methods are possible to write to the paths passed in and how long they can be.</p>
<p>NB this can create undeletable files and other hazards - use with care!</p>`}
	sync := [3]string{"/bisync/", "Bisync", `<h2 id="testing">Testing</h2>
<p><code>bisync [options]</code> Runs bisync against <code>-remote</code> and <code>-remote2</code>.</p>
<p>Runs the bisync integration tests.</p>`}
	text := composeRanked(t, "what does tool test info do? someone on the forum told me to run it against my remote", []string{"/commands/tool_test_info/", "/commands/tool_test_info/", "/bisync/"}, info, sync)
	if !strings.HasPrefix(text, "Discovers file name or other limitations") {
		t.Errorf("got\n%s", text)
	}
}
