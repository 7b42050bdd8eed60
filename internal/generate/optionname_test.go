package generate

import (
	"strings"
	"testing"
)

// An answer quoted from an option's description names the option: the
// flag its section is headed with and the config key its properties
// give, since the description ("Kerberos service principal name for the
// namenode.") never says what to set.
func TestComposerNamesTheOption(t *testing.T) {
	page := [3]string{"/hdfs/", "HDFS", `<h4 id="hdfs-service-principal-name">--hdfs-service-principal-name</h4>
<p>Kerberos service principal name for the namenode.</p>
<p>Enables KERBEROS authentication. Specifies the Service Principal Name (SERVICE/FQDN) for the namenode.</p>
<p>Properties:</p>
<ul><li>Config: service_principal_name</li><li>Env Var: RCLONE_HDFS_SERVICE_PRINCIPAL_NAME</li><li>Type: string</li><li>Required: false</li></ul>`}
	text, _ := composeOver(t, "our hadoop cluster uses kerberos, what do I set on the rclone hdfs remote", page)
	if !strings.HasPrefix(text, "`--hdfs-service-principal-name` (config `service_principal_name`): Kerberos service principal name") {
		t.Errorf("got\n%s", text)
	}
	// A question naming the flag already knows it.
	text, _ = composeOver(t, "what is --hdfs-service-principal-name for", page)
	if strings.Count(text, "--hdfs-service-principal-name") > 0 && strings.HasPrefix(text, "`--hdfs") {
		t.Errorf("named twice:\n%s", text)
	}
}

func TestOptionFlag(t *testing.T) {
	for h, want := range map[string]string{
		"--hdfs-namenode":          "--hdfs-namenode",
		"--bwlimit=BANDWIDTH_SPEC": "--bwlimit",
		"--checksum, -c":           "--checksum",
		"--min-age - Don't transfer any file younger than this": "--min-age",
		"Configuration": "",
		"---":           "",
		"--- Notes":     "",
		"-v":            "",
	} {
		if got := optionFlag(h); got != want {
			t.Errorf("optionFlag(%q) = %q, want %q", h, got, want)
		}
	}
}
