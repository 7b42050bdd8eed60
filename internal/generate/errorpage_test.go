package generate

import (
	"strings"
	"testing"
)

// An error pasted with the name of the page's subject ("boxcloud: …
// invalid_grant") is answered from that page, not from another page's
// troubleshooting entry for the same message.
func TestComposerErrorOfNamedPage(t *testing.T) {
	box := [3]string{"/boxcloud/", "Boxcloud", `<h2 id="token-refresh">Token refresh and invalid_grant</h2>
<p>Boxcloud invalidates a refresh token once it is used. If you create a Boxcloud remote on one machine and copy the configuration file to a second one, both soon fail with the "invalid_grant" error.</p>
<p>To fix it, run <code>tool config reconnect remote:</code> on each machine that needs the remote.</p>`}
	other := [3]string{"/othercloud/", "Othercloud", `<h2 id="troubleshooting">Troubleshooting</h2>
<h3 id="invalid-grant">invalid_grant</h3>
<p>If you see the invalid_grant error after enabling two-factor login, refresh your token: run <code>tool config</code> and edit your Othercloud remote.</p>`}
	text := composeRanked(t, "boxcloud: couldn't fetch token: invalid_grant, started after I copied the config to my second pc",
		[]string{"/boxcloud/", "/othercloud/"}, box, other)
	if !strings.Contains(text, "copy the configuration file to a second one") || strings.Contains(text, "two-factor") {
		t.Errorf("not answered from the page the question names:\n%s", text)
	}
}
