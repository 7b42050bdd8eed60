package generate

import (
	"slices"
	"strings"
	"testing"
)

// A pasted error message is answered by its entry's cause and fix, not
// by the entry's quote of the message: the reader already has it.
func TestComposerErrorCauseThenFix(t *testing.T) {
	faq := [3]string{"/faq/", "FAQ", `<h2 id="auth-port">Login helper cannot listen on Windows</h2>
<pre><code class="language-text">Error: token refresh failed: cannot start login helper: listen tcp 127.0.0.1:53682: bind: access to the socket was refused by its permissions.</code></pre>
<p>The Host Network Service sometimes holds the port the helper needs.</p>
<p>A simple solution may be restarting that service with eg. PowerShell</p>
<pre><code class="language-powershell">Restart-Service hns</code></pre>`}
	other := [3]string{"/docs/", "Usage", `<h2 id="login">Logging in</h2><p>The login helper listens on port 53682 while your browser signs in.</p>`}
	text, _ := composeOver(t, "Error: token refresh failed: cannot start login helper: listen tcp 127.0.0.1:53682: bind: access to the socket was refused by its permissions.", faq, other)
	want := "The Host Network Service sometimes holds the port the helper needs.\n\nA simple solution may be restarting that service with eg. PowerShell\n\n```powershell\nRestart-Service hns\n```"
	if !strings.HasPrefix(text, want) || strings.Contains(text, "bind: access") {
		t.Errorf("got\n%s\nwant it to start\n%s", text, want)
	}
}

// An entry that explains two messages starts at the one pasted; a cause
// that introduces the message keeps it when short, then gives the fix.
func TestComposerErrorPastedMessage(t *testing.T) {
	faq := [3]string{"/faq/", "FAQ", `<h2 id="x509">Certificate errors</h2>
<p><code>x509: failed to load system roots</code> means the program finds no root certificates at all.</p>
<p><code>x509: certificate signed by unknown authority</code> may occur on old systems whose root certificates are out of date.</p>
<p>The program reads them from these files:</p>
<pre><code>/etc/ssl/certs/ca-certificates.crt</code></pre>
<p>So fetching a fresh bundle like this should fix the problem.</p>
<pre><code class="language-console">curl -o /etc/ssl/certs/ca-certificates.crt https://example.org/ca-bundle.crt</code></pre>`}
	text, _ := composeOver(t, "x509: certificate signed by unknown authority", faq)
	if !strings.HasPrefix(text, "`x509: certificate signed by unknown authority` may occur") ||
		!strings.Contains(text, "So fetching a fresh bundle like this should fix the problem.\n\n```console\ncurl -o") {
		t.Errorf("got\n%s", text)
	}

	install := [3]string{"/install/", "Install", `<h2 id="macos-web">macOS, from a web browser</h2>
<p>A browser marks what it downloads as quarantined. Starting from Catalina, running the program then shows a pop-up saying:</p>
<pre><code class="language-text">"tool" cannot be opened because the developer cannot be verified.</code></pre>
<p>The simplest fix is to run</p>
<pre><code class="language-console">xattr -d com.apple.quarantine tool</code></pre>`}
	text, _ = composeOver(t, `mac says "tool" cannot be opened because the developer cannot be verified`, install)
	if !strings.Contains(text, "a pop-up saying:\n\n```text\n\"tool\" cannot be opened") ||
		!strings.HasSuffix(strings.TrimSpace(text), "The simplest fix is to run\n\n```console\nxattr -d com.apple.quarantine tool\n```") {
		t.Errorf("got\n%s", text)
	}
}

// A message quoted inside a sentence is not cut at its own stops.
func TestSentencesKeepQuotes(t *testing.T) {
	got := sentences(`Via the wizard you will get the following error: "The folder you entered does not appear to be valid. Please choose another". However, you still can connect.`)
	want := []string{`Via the wizard you will get the following error: "The folder you entered does not appear to be valid. Please choose another".`, "However, you still can connect."}
	if !slices.Equal(got, want) {
		t.Errorf("got %q\nwant %q", got, want)
	}
}

// "For example, to …" names the task it shows and leans on nothing;
// "For example, …" alone leans on what it exemplifies.
func TestLeansExampleWithItsTask(t *testing.T) {
	if leans("For example, to delete all files bigger than 100 MiB, check first.") {
		t.Error("an example naming its own task leans")
	}
	if !leans("For example, the site keeps its logs there.") {
		t.Error("a bare example does not lean")
	}
}

// A message quoted as a note (a block quote) is no answer either, though
// it holds every word the reader pasted: the sentence after it is.
func TestComposerErrorQuotedAsNote(t *testing.T) {
	page := [3]string{"/commands/tool_mount/", "tool mount", `<h2 id="linux">Mounting on Linux</h2>
<p>On newer versions of Ubuntu, you may encounter the following error when running <code>tool mount</code>:</p>
<blockquote><p>NOTICE: mount helper error: fusermount3: mount failed: Permission denied CRITICAL: Fatal error: failed to mount FUSE fs: fusermount: exit status 1</p></blockquote>
<p>This may be due to newer AppArmor restrictions, which can be disabled with <code>sudo aa-disable /usr/bin/fusermount3</code>.</p>`}
	text, _ := composeOver(t, "NOTICE: mount helper error: fusermount3: mount failed: Permission denied  CRITICAL: Fatal error: failed to mount FUSE fs: fusermount: exit status 1", page)
	if !strings.Contains(text, "sudo aa-disable /usr/bin/fusermount3") || strings.HasPrefix(text, "NOTICE") {
		t.Errorf("got\n%s", text)
	}
}

// The sentence that quotes words of the pasted message ("If it fails
// with the message `unknown command "selfupdate"` then …") says when it
// is given, and leads the answer.
func TestComposerErrorQuotedInASentence(t *testing.T) {
	page := [3]string{"/commands/tool_selfupdate/", "tool selfupdate", `<h2 id="synopsis">Synopsis</h2>
<p>This command downloads the latest release of tool and replaces the currently running binary.</p>
<p>If used without flags, this command will install the latest stable release. In such cases you should run the command with the <code>--beta</code> flag, i.e. <code>tool selfupdate --beta</code>.</p>
<p>The tool mount command may or may not support extended FUSE options depending on the build and OS.</p>
<p>Note: Windows forbids deletion of a currently running executable so this command will rename the old executable.</p>
<p>Please note that this command was not available before tool version 1.55. If it fails for you with the message <code>unknown command "selfupdate"</code> then you will need to update manually following the install documentation.</p>
<pre><code>tool selfupdate [flags]</code></pre>`}
	text, _ := composeOver(t, `Error: unknown command "selfupdate" for "tool"`, page)
	if !strings.Contains(text, "update manually following the install documentation") {
		t.Errorf("got\n%s", text)
	}
}
