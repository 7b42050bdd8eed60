package generate

import "strings"

// propertyKeys open the lines of an option reference's properties list,
// as rclone's backend pages write one under each option ("Properties:"
// then "- Config: hash_type", "- Env Var: RCLONE_…", "- Type: string",
// "- Default: "auto"").
var propertyKeys = []string{"config: ", "env var: ", "type: ", "default: ", "required: ", "provider: ", "advanced: "}

// propertyLine: s (a list line) is one property of an option.
func propertyLine(s string) bool {
	l := strings.TrimLeft(s, "- ")
	for _, k := range propertyKeys {
		if len(l) >= len(k) && strings.EqualFold(l[:len(k)], k) {
			return true
		}
	}
	return false
}

// propertyAsked: l (lower case) asks for a property itself: the
// default, the type, the environment variable.
func propertyAsked(l string) bool {
	for _, w := range []string{"default", "env", "environment", "type of", "what type", "required"} {
		if strings.Contains(l, w) {
			return true
		}
	}
	return false
}

// namesProperty: a list block's property lines name setting v (plain)
// as the option's config key or flag.
func namesProperty(list, v string) bool {
	for _, line := range strings.Split(list, "\n") {
		if propertyLine(line) && hasWord(plain(line), v) {
			return true
		}
	}
	return false
}

// properties: a list block opens with property lines (an option's
// properties list; its examples may follow).
func properties(list string) bool {
	first, _, _ := strings.Cut(list, "\n")
	return propertyLine(first)
}
