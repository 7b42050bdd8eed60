package provider

import (
	"strconv"
	"strings"
)

// Error builds a public-safe message: the code, the message, the status and
// any retry advice. It never includes a payload because none is stored.
func (e *Error) Error() string {
	var b strings.Builder
	b.WriteString("provider: ")
	b.WriteString(e.Code)
	if e.Message != "" {
		b.WriteString(": ")
		b.WriteString(e.Message)
	}
	if e.Status != 0 {
		b.WriteString(" (HTTP ")
		b.WriteString(strconv.Itoa(e.Status))
		b.WriteString(")")
	}
	if e.RetryAfter > 0 {
		b.WriteString("; retry after ")
		b.WriteString(e.RetryAfter.String())
	}
	return b.String()
}
