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
