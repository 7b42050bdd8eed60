package limit

import (
	"errors"
	"net/http"
	"net/netip"
	"strings"
	"testing"
)

func TestClientAddr(t *testing.T) {
	const proxy = "10.0.0.1:5555" // the trusted proxy's own address
	long := strings.Repeat("192.0.2.1, ", 100) + "198.51.100.9"
	for _, c := range []struct {
		name, header string
		remote       string
		values       []string // of the header named below, or X-Forwarded-For
		named        string   // header the request carries; "" means X-Forwarded-For
		want         string
	}{
		{name: "default is RemoteAddr", remote: "192.0.2.7:1234", want: "192.0.2.7/32"},
		{name: "default ignores XFF", remote: "192.0.2.7:1234", values: []string{"203.0.113.5"}, want: "192.0.2.7/32"},
		{name: "RemoteAddr IPv6", remote: "[2001:db8:1:2:3::4]:80", want: "2001:db8:1:2::/64"},
		{name: "RemoteAddr without port", remote: "192.0.2.7", want: "192.0.2.7/32"},
		{name: "RemoteAddr unparsable", remote: "@pipe", want: "unknown"},
		{name: "RemoteAddr mapped", remote: "[::ffff:192.0.2.7]:80", want: "192.0.2.7/32"},

		{name: "XFF one entry", header: "X-Forwarded-For", remote: proxy, values: []string{"203.0.113.5"}, want: "203.0.113.5/32"},
		{name: "XFF rightmost, spoofed leftmost ignored", header: "X-Forwarded-For", remote: proxy,
			values: []string{"1.2.3.4, 5.6.7.8, 203.0.113.5"}, want: "203.0.113.5/32"},
		{name: "XFF last line", header: "X-Forwarded-For", remote: proxy,
			values: []string{"1.2.3.4", "5.6.7.8,203.0.113.5"}, want: "203.0.113.5/32"},
		{name: "XFF tabs and spaces", header: "X-Forwarded-For", remote: proxy, values: []string{"1.2.3.4 ,\t203.0.113.5 \t"}, want: "203.0.113.5/32"},
		{name: "XFF configured lower case", header: "x-forwarded-for", remote: proxy, values: []string{"203.0.113.5"}, want: "203.0.113.5/32"},
		{name: "XFF absent", header: "X-Forwarded-For", remote: proxy, want: "10.0.0.1/32"},
		{name: "XFF empty", header: "X-Forwarded-For", remote: proxy, values: []string{""}, want: "10.0.0.1/32"},
		{name: "XFF garbage", header: "X-Forwarded-For", remote: proxy, values: []string{"not-an-address"}, want: "10.0.0.1/32"},
		{name: "XFF trailing comma", header: "X-Forwarded-For", remote: proxy, values: []string{"203.0.113.5, "}, want: "10.0.0.1/32"},
		{name: "XFF rightmost bad, leftmost good", header: "X-Forwarded-For", remote: proxy, values: []string{"203.0.113.5, unknown"}, want: "10.0.0.1/32"},
		{name: "XFF IPv4 leading zero", header: "X-Forwarded-For", remote: proxy, values: []string{"203.0.113.05"}, want: "10.0.0.1/32"},
		{name: "XFF over the bound", header: "X-Forwarded-For", remote: proxy, values: []string{long}, want: "10.0.0.1/32"},
		{name: "XFF at the bound", header: "X-Forwarded-For", remote: proxy,
			values: []string{strings.Repeat(" ", MaxAddrHeaderBytes-len("198.51.100.9")) + "198.51.100.9"}, want: "198.51.100.9/32"},
		{name: "XFF with port", header: "X-Forwarded-For", remote: proxy, values: []string{"203.0.113.5:443"}, want: "203.0.113.5/32"},
		{name: "XFF IPv6 with port", header: "X-Forwarded-For", remote: proxy, values: []string{"[2001:db8::1]:443"}, want: "2001:db8::/64"},
		{name: "XFF IPv6 bracketed", header: "X-Forwarded-For", remote: proxy, values: []string{"[2001:db8::1]"}, want: "2001:db8::/64"},
		{name: "XFF IPv4 bracketed", header: "X-Forwarded-For", remote: proxy, values: []string{"[203.0.113.5]"}, want: "10.0.0.1/32"},
		{name: "XFF zone dropped", header: "X-Forwarded-For", remote: proxy, values: []string{"fe80::1%eth0"}, want: "fe80::/64"},
		{name: "XFF mapped", header: "X-Forwarded-For", remote: proxy, values: []string{"::ffff:203.0.113.5"}, want: "203.0.113.5/32"},

		{name: "CF IPv6 /64", header: "CF-Connecting-IP", named: "Cf-Connecting-Ip", remote: proxy,
			values: []string{"2001:db8:aa:bb:1:2:3:4"}, want: "2001:db8:aa:bb::/64"},
		{name: "Fly", header: "Fly-Client-IP", named: "Fly-Client-IP", remote: proxy, values: []string{"203.0.113.5"}, want: "203.0.113.5/32"},
		{name: "X-Real-IP", header: "X-Real-IP", named: "X-Real-IP", remote: proxy, values: []string{"203.0.113.5"}, want: "203.0.113.5/32"},
		{name: "other header ignored", header: "X-Real-IP", remote: proxy, values: []string{"203.0.113.5"}, want: "10.0.0.1/32"},
		{name: "header bad, RemoteAddr bad", header: "X-Real-IP", named: "X-Real-IP", remote: "", values: []string{"x"}, want: "unknown"},
	} {
		t.Run(c.name, func(t *testing.T) {
			ca := ClientAddr{Header: c.header}
			if err := ca.Validate(); err != nil {
				t.Fatal(err)
			}
			r := &http.Request{RemoteAddr: c.remote, Header: http.Header{}}
			named := c.named
			if named == "" {
				named = "X-Forwarded-For"
			}
			for _, v := range c.values {
				r.Header.Add(named, v)
			}
			if got := ca.Key(r); got != c.want {
				t.Fatalf("Key %q, want %q", got, c.want)
			}
		})
	}
}

func TestClientAddrIPv6Grouping(t *testing.T) {
	ca := ClientAddr{}
	key := func(remote string) string { return ca.Key(&http.Request{RemoteAddr: remote}) }
	a, b := key("[2001:db8:1:2::1]:1"), key("[2001:db8:1:2:ffff:ffff:ffff:ffff]:2")
	if a != b {
		t.Fatalf("one /64 gave two keys: %s %s", a, b)
	}
	if c := key("[2001:db8:1:3::1]:1"); c == a {
		t.Fatalf("two /64s gave one key %s", c)
	}
	if key("192.0.2.1:1") == key("192.0.2.2:1") {
		t.Fatal("two IPv4 addresses gave one key")
	}
	if p := ca.Prefix(&http.Request{RemoteAddr: "[2001:db8:1:2::1]:1"}); p != netip.MustParsePrefix("2001:db8:1:2::/64") {
		t.Fatalf("Prefix %v", p)
	}
}

func TestGroup(t *testing.T) {
	for in, want := range map[string]string{
		"192.0.2.7":          "192.0.2.7/32",
		"::ffff:192.0.2.7":   "192.0.2.7/32",
		"2001:db8::1":        "2001:db8::/64",
		"fe80::1%eth0":       "fe80::/64",
		"::1":                "::/64",
		"2001:db8:0:0:8::ff": "2001:db8::/64",
	} {
		if got := Group(netip.MustParseAddr(in)); got.String() != want {
			t.Errorf("Group(%s) = %s, want %s", in, got, want)
		}
	}
	if Group(netip.Addr{}).IsValid() {
		t.Error("Group of the zero Addr is valid")
	}
}

func TestClientAddrValidate(t *testing.T) {
	for _, h := range []string{"", "X-Forwarded-For", "CF-Connecting-IP", "fly-client-ip", "X-Real-IP", "X_Custom~1"} {
		if err := (ClientAddr{Header: h}).Validate(); err != nil {
			t.Errorf("%q: %v", h, err)
		}
	}
	for _, h := range []string{"Forwarded", "forwarded", "X Forwarded", "X-Forwarded-For:", "X-Ä", "(x)", "a\nb"} {
		err := (ClientAddr{Header: h}).Validate()
		var e *Error
		if !errors.Is(err, ErrHeader) || !errors.As(err, &e) || e.Code != CodeConfig {
			t.Errorf("%q: err %v, want ErrHeader", h, err)
		}
	}
}
