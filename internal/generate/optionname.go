package generate

import (
	"strings"

	"github.com/askplane/askplane/internal/chunk"
)

// nameOption opens an answer quoted from an option's section with the
// option's name when nothing written names it: rclone's reference pages
// head each option with its flag ("--hdfs-service-principal-name") and
// describe it in words that never repeat it ("Kerberos service principal
// name for the namenode."), so the description alone tells a reader what
// the setting does but not what to set. The flag comes from the
// section's own heading, and the config key from its properties list
// ("Config: service_principal_name") when it has one. A question that
// names either already knows it.
func (c *composer) nameOption() {
	if len(c.out.deltas) == 0 || c.out.unsure || len(c.out.deltas[0].Sources) == 0 {
		return
	}
	ri := -1
	for i := range c.pkg.Records {
		if c.pkg.Records[i].ID == c.out.deltas[0].Sources[0] {
			ri = i
			break
		}
	}
	if ri < 0 {
		return
	}
	r := &c.pkg.Records[ri]
	if len(r.Headings) == 0 {
		return
	}
	flag := optionFlag(r.Headings[len(r.Headings)-1])
	if flag == "" || strings.Contains(c.plain, flag) {
		return
	}
	key := ""
	for _, b := range r.Blocks {
		if b.Kind == chunk.List && properties(b.Text) {
			key = configKey(b.Text)
			break
		}
	}
	if key != "" && hasWord(c.plain, key) {
		return
	}
	for _, ev := range c.out.deltas {
		l := strings.ToLower(ev.Delta)
		if strings.Contains(l, flag) || key != "" && hasWord(l, key) {
			return
		}
	}
	name := "`" + flag + "`"
	if key != "" {
		name += " (config `" + key + "`)"
	}
	first := &c.out.deltas[0]
	if fenced(first.Delta) || strings.HasPrefix(first.Delta, "- ") || strings.HasPrefix(first.Delta, "1. ") || strings.HasPrefix(first.Delta, "|") {
		c.out.prepend(name+":\n\n", r.ID)
		return
	}
	first.Delta = name + ": " + first.Delta
	c.out.size += len(name) + 2
}

// optionFlag is the flag an option's heading names ("--hdfs-namenode",
// "--min-age - Don't transfer any file younger than this", "--checksum,
// -c"), lower case, or "" when the heading is not an option's.
func optionFlag(heading string) string {
	f, _, _ := strings.Cut(plain(heading), " ")
	f = strings.TrimRight(f, ",:")
	f, _, _ = strings.Cut(f, "=")
	if len(f) < 4 || !strings.HasPrefix(f, "--") || f[2] == '-' {
		return ""
	}
	for _, r := range f[2:] {
		if !(r == '-' || r == '_' || r >= 'a' && r <= 'z' || r >= '0' && r <= '9') {
			return ""
		}
	}
	return f
}

// configKey is the key a properties list gives the option in a config
// file ("- Config: service_principal_name"), or "".
func configKey(list string) string {
	for _, line := range strings.Split(list, "\n") {
		l := strings.TrimLeft(line, "- ")
		if len(l) > len("config: ") && strings.EqualFold(l[:len("config: ")], "config: ") {
			k := strings.TrimSpace(l[len("config: "):])
			if k != "" && !strings.Contains(k, " ") {
				return k
			}
		}
	}
	return ""
}
