package store

import (
	"cmp"
	"context"
	"errors"
	"net/url"
	"slices"
	"strings"
)

// redactedMark replaces a secret in text.
const redactedMark = "xxxxx"

// Redacted returns dsn with its password replaced, for logs and config
// dumps. A URL DSN it cannot parse is reduced to its scheme.
func Redacted(dsn string) string {
	if len(dsn) > MaxDSNLen {
		return "(DSN too long)"
	}
	if i := strings.Index(dsn, "://"); i > 0 {
		if _, err := url.Parse(dsn); err != nil {
			return dsn[:i] + "://(unparsable, redacted)"
		}
	}
	return scrub(dsn, secrets(dsn))
}

// secrets lists every form a DSN's password may take in a message: as
// written in the URL's userinfo or a password= parameter, and
// percent-decoded.
func secrets(dsn string) []string {
	var out []string
	add := func(s string) {
		if s == "" {
			return
		}
		out = append(out, s)
		if d, err := url.PathUnescape(s); err == nil && d != s {
			out = append(out, d)
		}
		if d, err := url.QueryUnescape(s); err == nil && d != s {
			out = append(out, d)
		}
	}
	if i := strings.Index(dsn, "://"); i >= 0 {
		host := dsn[i+3:]
		if j := strings.IndexAny(host, "/?#"); j >= 0 {
			host = host[:j]
		}
		if at := strings.LastIndex(host, "@"); at >= 0 {
			if _, pw, ok := strings.Cut(host[:at], ":"); ok {
				add(pw)
			}
		}
	}
	for _, field := range strings.FieldsFunc(dsn, func(r rune) bool { return r == '?' || r == '&' || r == ' ' || r == '#' }) {
		if v, ok := strings.CutPrefix(field, "password="); ok {
			add(strings.Trim(v, "'"))
		}
	}
	return out
}

// scrub replaces every secret in text in one pass, longest first, so a
// secret that contains another is replaced whole and the mark itself is
// never scanned again.
func scrub(text string, secrets []string) string {
	if len(secrets) == 0 {
		return text
	}
	secrets = slices.Clone(secrets)
	slices.SortFunc(secrets, func(a, b string) int { return cmp.Compare(len(b), len(a)) })
	pairs := make([]string, 0, 2*len(secrets))
	for _, s := range secrets {
		pairs = append(pairs, s, redactedMark)
	}
	return strings.NewReplacer(pairs...).Replace(text)
}

// safeCause returns err with every secret removed from its text. The
// original error is dropped, because its chain could still hold the DSN
// (net/url errors quote it); only a context error survives, so deadlines
// stay detectable with errors.Is.
func safeCause(err error, secrets []string) error {
	if err == nil {
		return nil
	}
	s := &scrubbed{text: scrub(err.Error(), secrets)}
	switch {
	case errors.Is(err, context.DeadlineExceeded):
		s.ctx = context.DeadlineExceeded
	case errors.Is(err, context.Canceled):
		s.ctx = context.Canceled
	}
	return s
}

// scrubbed is a cause whose text had its secrets removed.
type scrubbed struct {
	text string
	ctx  error
}

func (e *scrubbed) Error() string { return e.text }
func (e *scrubbed) Unwrap() error { return e.ctx }
