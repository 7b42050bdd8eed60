// Package baseurl is askplane's one rule for the base URLs it reaches out
// to over HTTP: a model provider's API (internal/provider) and a published
// site's corpus (internal/corpus). Both carry something worth protecting
// (an API key; the trust in a corpus), so both get the same check.
package baseurl

import (
	"errors"
	"net/netip"
	"net/url"
	"strings"
)

// MaxLen bounds a base URL.
const MaxLen = 2048

// Parse checks a base URL and returns it normalized to end in "/".
//
// HTTPS is required. Plain HTTP is allowed only to a literal loopback IP
// (127.0.0.0/8 or ::1), for tests and local servers such as Ollama. The
// name "localhost" is refused on purpose: it goes through the resolver
// (/etc/hosts, DNS), so it is not a proof that the traffic stays on the
// machine, while a literal loopback address is. Userinfo, query and
// fragment are refused because they would carry data the config did not
// mean to send. Errors say what is wrong without quoting the URL.
func Parse(raw string) (*url.URL, error) {
	if raw == "" || len(raw) > MaxLen {
		return nil, errors.New("must be 1-2048 bytes")
	}
	u, err := url.Parse(raw)
	if err != nil {
		return nil, errors.New("is not a valid URL")
	}
	if u.User != nil {
		return nil, errors.New("must not embed credentials")
	}
	if u.RawQuery != "" || u.Fragment != "" || u.ForceQuery || strings.Contains(raw, "#") {
		return nil, errors.New("must not have a query or fragment")
	}
	if u.Opaque != "" || u.Hostname() == "" {
		return nil, errors.New("needs a host")
	}
	switch u.Scheme {
	case "https":
	case "http":
		addr, err := netip.ParseAddr(u.Hostname())
		if err != nil || !addr.Unmap().IsLoopback() {
			return nil, errors.New("may be plain http only to a literal loopback IP (127.0.0.0/8 or ::1); use https")
		}
	default:
		return nil, errors.New("scheme must be https")
	}
	if !strings.HasSuffix(u.Path, "/") {
		u.Path += "/"
		if u.RawPath != "" {
			u.RawPath += "/"
		}
	}
	return u, nil
}
