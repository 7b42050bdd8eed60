package provider

import (
	"fmt"
)

// FormatClient prints an adapter for every fmt verb as its profile and
// model only, so %v, %+v and %#v of a client never walk into the
// transport (and its credential) by reflection.
func FormatClient(f fmt.State, verb rune, p Profile, model string) {
	if verb == 'v' && f.Flag('#') {
		fmt.Fprintf(f, "provider.Client{Profile:%q, Model:%q, Credential:%s}", p.Name, model, redacted)
		return
	}
	fmt.Fprintf(f, "%s(%s)", p.Name, model)
}
