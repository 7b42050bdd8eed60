package chunk

import "strings"

// maxAnnotationLines bounds the lines one code block's comments give.
const maxAnnotationLines = 64

// annotate turns the # comments of a TOML or YAML code block into its
// Notes, or "" when none annotates a setting (or the block is in another
// language). Each comment, with the comment lines right above it joined
// to it, annotates:
//
//   - the setting on its line (a trailing comment) or on the next line
//     that is one: "`key`: text", with " in `[table]`" (TOML) or " in
//     `parent.key`" (YAML, by indentation) when the key is inside one;
//   - in TOML, the table header on the next line: "`[table]`: text";
//   - nothing, when a blank line, the end or anything else comes first:
//     then it gives no line (its words are in the code already).
//
// A setting is a line "key = …" (TOML) or "key: …" (YAML), key bare or
// quoted. Comments are read simply: a '#' starts one at a line's start,
// or after a space outside quotes.
func annotate(lang, code string) string {
	var yaml bool
	switch strings.ToLower(lang) {
	case "toml":
	case "yaml", "yml":
		yaml = true
	default:
		return ""
	}
	if !strings.Contains(code, "#") {
		return ""
	}
	var out []string
	var pending []string // comment lines waiting for what they annotate
	table := ""          // TOML: the current table header
	type parent struct {
		indent int
		key    string
	}
	var parents []parent // YAML: open mappings by indentation
	alone := func() { pending = pending[:0] }
	for line := range strings.Lines(code) {
		if len(out) >= maxAnnotationLines {
			break
		}
		line = strings.TrimRight(line, " \t\r\n")
		body := strings.TrimLeft(line, " \t")
		indent := len(line) - len(body)
		switch {
		case body == "":
			alone()
			continue
		case body[0] == '#':
			if t := strings.TrimSpace(strings.TrimLeft(body, "#")); t != "" {
				pending = append(pending, t)
			}
			continue
		}
		body, comment := cutComment(body)
		if comment != "" {
			pending = append(pending, comment)
		}
		if !yaml && strings.HasPrefix(body, "[") {
			table = strings.TrimSpace(body)
			if len(pending) > 0 {
				out = append(out, "`"+table+"`: "+strings.Join(pending, " "))
				pending = pending[:0]
			}
			continue
		}
		var key string
		if yaml {
			if strings.HasPrefix(body, "- ") || body == "-" || body == "---" {
				alone()
				continue
			}
			key = settingKey(body, ':')
			for len(parents) > 0 && parents[len(parents)-1].indent >= indent {
				parents = parents[:len(parents)-1]
			}
		} else {
			key = settingKey(body, '=')
		}
		if key == "" {
			alone()
			continue
		}
		where := ""
		switch {
		case yaml && len(parents) > 0:
			names := make([]string, len(parents))
			for i, p := range parents {
				names[i] = p.key
			}
			where = " in `" + strings.Join(names, ".") + "`"
		case !yaml && table != "":
			where = " in `" + table + "`"
		}
		if len(pending) > 0 {
			out = append(out, "`"+key+"`"+where+": "+strings.Join(pending, " "))
			pending = pending[:0]
		}
		if yaml {
			if v := strings.TrimSpace(body[strings.IndexByte(body, ':')+1:]); v == "" {
				parents = append(parents, parent{indent, key})
			}
		}
	}
	alone()
	return strings.Join(out, "\n")
}

// cutComment splits a line into what comes before a # comment (trimmed)
// and the comment's text: the '#' must follow a space, outside quotes.
func cutComment(s string) (string, string) {
	var quote byte
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case quote != 0:
			if c == '\\' && quote == '"' {
				i++
			} else if c == quote {
				quote = 0
			}
		case c == '"' || c == '\'':
			quote = c
		case c == '#' && i > 0 && (s[i-1] == ' ' || s[i-1] == '\t'):
			return strings.TrimSpace(s[:i]), strings.TrimSpace(strings.TrimLeft(s[i:], "#"))
		}
	}
	return s, ""
}

// settingKey is the key of a "key = value" (sep '=') or "key: value"
// (sep ':') line, quotes removed, or "" when the line is not one.
func settingKey(s string, sep byte) string {
	i := strings.IndexByte(s, sep)
	if i <= 0 {
		return ""
	}
	if sep == ':' && i+1 < len(s) && s[i+1] != ' ' && s[i+1] != '\t' {
		return "" // "http://…", not a mapping
	}
	key := strings.TrimSpace(s[:i])
	if len(key) >= 2 && (key[0] == '"' || key[0] == '\'') && key[len(key)-1] == key[0] {
		key = key[1 : len(key)-1]
	}
	if key == "" || len(key) > 128 {
		return ""
	}
	for _, r := range key {
		if r == '`' || r == ' ' && sep == ':' || r == '{' || r == '[' || r == '"' {
			return ""
		}
	}
	return key
}
