package limit

import (
	"net/http"
	"net/netip"
	"strings"
)

// ClientAddr finds the client address that per-address limits are keyed
// by. By default it is the connection's peer, r.RemoteAddr, which the
// client cannot forge. Behind a reverse proxy every peer is the proxy, so
// the operator may name the header the proxy puts the client's address
// in: "X-Forwarded-For", "Fly-Client-IP", "CF-Connecting-IP",
// "X-Real-IP". Only name one when the sidecar is reachable through that
// proxy alone; otherwise any client can write the header and pick its own
// key.
//
// The address is taken from the header's last line, rightmost
// comma-separated entry. For X-Forwarded-For that entry is the one the
// trusted proxy appended, the address it saw the request come from;
// every entry to its left was sent by the client (or by proxies the
// operator does not run) and can be anything, so taking the leftmost
// would let each request choose a fresh key. The single-address headers
// are set by the proxy, so for them the rule only matters when a client
// sent a copy the proxy appended to rather than replaced. With proxies
// chained (a CDN in front of a load balancer), the rightmost
// X-Forwarded-For entry is the outer proxy's address: name the header
// the outermost proxy sets instead (CF-Connecting-IP behind Cloudflare).
//
// When the header is absent, longer than MaxAddrHeaderBytes or its entry
// is not an address, RemoteAddr is used: such requests all share the
// proxy's key, which the client cannot vary, so falling back never hands
// out a fresh budget.
type ClientAddr struct {
	// Header is the trusted proxy header; empty (the default) means
	// r.RemoteAddr only.
	Header string
}

// MaxAddrHeaderBytes bounds the header line ClientAddr reads; a longer
// one is ignored (RemoteAddr is used).
const MaxAddrHeaderBytes = 1024

// Validate returns ErrHeader unless Header is empty or a header field
// name. Forwarded (RFC 7239) is refused: its syntax is not an address
// list, and every request would silently fall back to RemoteAddr.
func (c ClientAddr) Validate() error {
	if c.Header == "" {
		return nil
	}
	if !validFieldName(c.Header) || strings.EqualFold(c.Header, "Forwarded") {
		return ErrHeader
	}
	return nil
}

// Prefix returns the client's address grouped as per-address limits count
// it (see Group), or the zero Prefix when neither the header nor
// RemoteAddr holds an address.
func (c ClientAddr) Prefix(r *http.Request) netip.Prefix {
	if c.Header != "" {
		if v := r.Header.Values(c.Header); len(v) > 0 {
			if a, ok := rightmost(v[len(v)-1]); ok {
				return Group(a)
			}
		}
	}
	a, ok := parseAddr(r.RemoteAddr)
	if !ok {
		return netip.Prefix{}
	}
	return Group(a)
}

// Key returns Prefix as a Keyed key, such as "192.0.2.7/32" or
// "2001:db8:1:2::/64", or "unknown" for the zero Prefix (which then is
// one shared key).
func (c ClientAddr) Key(r *http.Request) string {
	p := c.Prefix(r)
	if !p.IsValid() {
		return "unknown"
	}
	return p.String()
}

// Group returns the unit an address is limited as: an IPv4 address alone
// (a /32), an IPv6 address's /64, since one subscriber or host is given a
// whole /64 and can use any address in it. IPv4-mapped IPv6 addresses
// count as the IPv4 address, and zones are dropped. The zero Addr gives
// the zero Prefix.
func Group(a netip.Addr) netip.Prefix {
	if !a.IsValid() {
		return netip.Prefix{}
	}
	a = a.Unmap().WithZone("")
	if a.Is4() {
		return netip.PrefixFrom(a, 32)
	}
	p, _ := a.Prefix(64)
	return p
}

// rightmost parses the last comma-separated entry of a header line.
func rightmost(line string) (netip.Addr, bool) {
	if len(line) > MaxAddrHeaderBytes {
		return netip.Addr{}, false
	}
	return parseAddr(strings.Trim(line[strings.LastIndexByte(line, ',')+1:], " \t"))
}

// parseAddr parses an address alone ("192.0.2.7", "2001:db8::1",
// "[2001:db8::1]") or with a port ("192.0.2.7:443", "[2001:db8::1]:443"),
// as RemoteAddr and some proxies write it.
func parseAddr(s string) (netip.Addr, bool) {
	if a, err := netip.ParseAddr(s); err == nil {
		return a, true
	}
	if ap, err := netip.ParseAddrPort(s); err == nil {
		return ap.Addr(), true
	}
	if len(s) > 2 && s[0] == '[' && s[len(s)-1] == ']' {
		if a, err := netip.ParseAddr(s[1 : len(s)-1]); err == nil && a.Is6() {
			return a, true
		}
	}
	return netip.Addr{}, false
}

// validFieldName reports whether s is an RFC 9110 token.
func validFieldName(s string) bool {
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case 'a' <= c && c <= 'z', 'A' <= c && c <= 'Z', '0' <= c && c <= '9':
		case strings.IndexByte("!#$%&'*+-.^_`|~", c) >= 0:
		default:
			return false
		}
	}
	return len(s) > 0
}
