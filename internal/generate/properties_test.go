package generate

import (
	"strings"
	"testing"
)

// An option's section answers what the option does with its description,
// not with its properties list (config key, environment variable, type),
// which names the setting asked about but says only where it is set.
func TestComposerOptionProperties(t *testing.T) {
	page := [3]string{"/crypt/", "Crypt", `<h4 id="crypt-directory-name-encryption">--crypt-directory-name-encryption</h4>
<p>Option to either encrypt directory names or leave them intact.</p>
<p>NB If filename_encryption is "off" then this option will do nothing.</p>
<p>Properties:</p>
<ul><li>Config: directory_name_encryption</li><li>Env Var: RCLONE_CRYPT_DIRECTORY_NAME_ENCRYPTION</li><li>Type: bool</li><li>Default: true</li>
<li>Examples:<ul><li>"true"<ul><li>Encrypt directory names.</li></ul></li><li>"false"<ul><li>Don't encrypt directory names, leave them intact.</li></ul></li></ul></li></ul>`}
	text, _ := composeOver(t, "what does directory_name_encryption = false do in a crypt config", page)
	if !strings.HasPrefix(text, "Option to either encrypt directory names or leave them intact.") || strings.Contains(text, "Config:") || strings.Contains(text, "Env Var:") || strings.Contains(text, "\n\"false\"") {
		t.Errorf("got\n%s", text)
	}
}

// Nor does a question asking "which …" get the properties list as the
// list it asks for.
func TestComposerWhichNotProperties(t *testing.T) {
	page := [3]string{"/onedrive/", "OneDrive", `<h4 id="onedrive-hash-type">--onedrive-hash-type</h4>
<p>Specify the hash in use for the backend.</p>
<p>Before version 1.62 a SHA1 hash was the default. From 1.62 the default hash is QuickXorHash for every account type.</p>
<p>Properties:</p>
<ul><li>Config: hash_type</li><li>Env Var: RCLONE_ONEDRIVE_HASH_TYPE</li><li>Type: string</li><li>Default: "auto"</li></ul>`}
	text, _ := composeOver(t, "which hash does onedrive use now, is it still sha1?", page)
	if strings.Contains(text, "Config:") || strings.Contains(text, "Env Var:") || !strings.Contains(text, "SHA1") {
		t.Errorf("got\n%s", text)
	}
}
