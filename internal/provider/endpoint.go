package provider

import (
	"net/netip"
	"net/url"
	"strings"
)

// ParseEndpoint checks a base URL and returns it normalized to end in "/".
//
// HTTPS is required. Plain HTTP is allowed only to a literal loopback IP
// (127.0.0.0/8 or ::1), for tests and local servers such as Ollama. The
// name "localhost" is refused on purpose: it goes through the resolver
// (/etc/hosts, DNS), so it is not a proof that the key stays on the
// machine, while a literal loopback address is. Userinfo, query and
// fragment are refused because they would carry data the config did not
// mean to send.
func ParseEndpoint(raw string) (*url.URL, error) {
	bad := func(msg string) (*url.URL, error) { return nil, NewError(CodeEndpointRefused, msg) }
	if raw == "" || len(raw) > 2048 {
		return bad("baseURL must be 1-2048 bytes")
	}
	u, err := url.Parse(raw)
	if err != nil {
		return bad("baseURL is not a valid URL")
	}
	if u.User != nil {
		return bad("baseURL must not embed credentials")
	}
	if u.RawQuery != "" || u.Fragment != "" || u.ForceQuery || strings.Contains(raw, "#") {
		return bad("baseURL must not have a query or fragment")
	}
	if u.Opaque != "" || u.Hostname() == "" {
		return bad("baseURL needs a host")
	}
	switch u.Scheme {
	case "https":
	case "http":
		addr, err := netip.ParseAddr(u.Hostname())
		if err != nil || !addr.Unmap().IsLoopback() {
			return bad("plain http is allowed only to a literal loopback IP (127.0.0.0/8 or ::1); use https")
		}
	default:
		return bad("baseURL scheme must be https")
	}
	if !strings.HasSuffix(u.Path, "/") {
		u.Path += "/"
		if u.RawPath != "" {
			u.RawPath += "/"
		}
	}
	return u, nil
}
