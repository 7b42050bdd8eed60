package provider

import (
	"net/http"
	"strconv"
	"strings"
	"time"
)

// maxRetryAfter caps advice: a provider asking for more than a day is
// treated as giving no usable advice.
const maxRetryAfter = 24 * time.Hour

// ParseRetryAfter reads a Retry-After value (RFC 9110 §10.2.3): either
// delay-seconds or an HTTP-date, measured from now. It returns 0 when the
// header is absent, malformed, in the past or longer than a day. The
// adapter never sleeps on it: it is advice for the caller.
func ParseRetryAfter(v string, now time.Time) time.Duration {
	v = strings.TrimSpace(v)
	if v == "" || len(v) > 64 {
		return 0
	}
	if v[0] >= '0' && v[0] <= '9' {
		n, err := strconv.ParseInt(v, 10, 64)
		if err != nil || n < 0 || n > int64(maxRetryAfter/time.Second) {
			return 0
		}
		return time.Duration(n) * time.Second
	}
	t, err := http.ParseTime(v)
	if err != nil {
		return 0
	}
	d := t.Sub(now)
	if d <= 0 || d > maxRetryAfter {
		return 0
	}
	return d.Round(time.Second)
}
