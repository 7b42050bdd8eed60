package generate

import (
	"strings"
	"testing"
)

// "What are the ways to …" is answered with the sections under the
// heading that names what they are ways to, whatever their own headings
// say, not with one of them or a section elsewhere that shares words.
func TestComposerWaysUnderAParent(t *testing.T) {
	page := [3]string{"/install/", "Install", `<h2 id="windows">Windows installation</h2>
<h3 id="windows-binary">Precompiled binary</h3><p>Fetch the binary for your processor from the downloads page and unzip it.</p>
<h3 id="windows-winget">Windows package manager (Winget)</h3><p>Winget comes with recent versions of Windows.</p><pre><code>winget install Tool.Tool</code></pre>
<h3 id="windows-choco">Chocolatey package manager</h3><p>With Chocolatey installed, run:</p><pre><code>choco install tool</code></pre>
<h2 id="autostart">Autostart on Windows</h2>
<h3 id="task-scheduler">Start from Task Scheduler</h3><p>Task Scheduler is built into Windows and can start tool on a schedule, at log on or when Windows starts, to install nothing more.</p>`}
	text, _ := composeOver(t, "what are the ways to install tool on windows?", page)
	if !strings.HasPrefix(text, "There are three ways (Windows installation):") || !strings.Contains(text, "Chocolatey package manager") || strings.Contains(text, "Task Scheduler") {
		t.Errorf("got\n%s", text)
	}
}

// "What does --flag accept" is answered by the flag's own section, from
// its first sentence, with the list of what it accepts even when the
// list is longer than a table may be, as long as it fits.
func TestComposerFlagAccepts(t *testing.T) {
	var items strings.Builder
	for _, o := range []string{"date", "time", "micro", "utc", "longfile", "shortfile", "pid", "nolevel", "json"} {
		items.WriteString("<li><code>" + o + "</code> - Adds the " + o + " field to each log line.</li>")
	}
	page := [3]string{"/docs/", "Usage", `<h3 id="log-format">--log-format string</h3>
<p>Comma separated list of log format options. The accepted options are:</p><ul>` + items.String() + `</ul>
<p>They are added to the log line in the order above.</p>
<p>The default log format is <code>"date,time"</code>.</p>`}
	text, _ := composeOver(t, "what does --log-format accept", page)
	if !strings.HasPrefix(text, "Comma separated list of log format options. The accepted options are:\n\n- `date`") || !strings.Contains(text, "- `json` - Adds") {
		t.Errorf("got\n%s", text)
	}
}
