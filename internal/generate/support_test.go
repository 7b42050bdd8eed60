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
