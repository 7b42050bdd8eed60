package protocol

import (
	"strings"
	"testing"
	"unicode/utf16"
	"unicode/utf8"

	"github.com/askplane/askplane/internal/conformance"
)

// hrefVector is one case of testdata/conformance/hrefs.json, shared with the
// TypeScript reference so both implementations are held to the same verdicts.
type hrefVector struct {
	Href   string `json:"href"`
	Valid  bool   `json:"valid"`
	Note   string `json:"note"`
	Repeat *struct {
		Prefix string `json:"prefix"`
		Unit   string `json:"unit"`
		Count  int    `json:"count"`
		Suffix string `json:"suffix"`
	} `json:"repeat"`
}

// value expands the optional "repeat" generator documented in the file's
// description.
func (v hrefVector) value() string {
	if v.Repeat == nil {
		return v.Href
	}
	return v.Repeat.Prefix + strings.Repeat(v.Repeat.Unit, v.Repeat.Count) + v.Repeat.Suffix
}

func loadHrefVectors(t testing.TB) []hrefVector {
	t.Helper()
	var doc struct {
		Description string       `json:"description"`
		Cases       []hrefVector `json:"cases"`
	}
	conformance.Load(t, "hrefs.json", &doc)
	if len(doc.Cases) < 60 {
		t.Fatalf("only %d href vectors", len(doc.Cases))
	}
	return doc.Cases
}

func TestValidHrefConformance(t *testing.T) {
	for _, c := range loadHrefVectors(t) {
		s := c.value()
		if got := ValidHref(s); got != c.Valid {
			t.Errorf("ValidHref(%q) = %v, want %v (%s)", abbreviate(s), got, c.Valid, c.Note)
		}
	}
}

func TestValidHrefEdgeCases(t *testing.T) {
	tests := []struct {
		in   string
		want bool
	}{
		{"/\xff", false}, // invalid UTF-8
		{"https://example.com/\xc3", false},
		{"/\u0080", true},    // C1 controls are not refused by rule 2
		{"/a\u001fb", false}, // unit separator
		{"https://example.com/\x00", false},
		{"https://example.com\\@evil", false},
		{"https://example.com  ", true}, // several trailing spaces
		{"https://  ", false},
		{"https://a:b:c/", false},
		{"https://[::1]:80]/", false},
		{"https://x[::1]/", false},
		{"https://[:80/", false},
		{"http://./", true}, // "." is a domain, not a number
		{"http://1../", true},
		{"http://a..b/", true},
		{"http://0/", true},
		{"http://00/", true},
		{"http://1.0x100/", true}, // 1.0.1.0
		{"http://99999999999999999999999/", false},
		{"http://0x000000000000000000000001/", true},
		{"http://%30x7f.1/", true}, // percent-decoded before the number check
		{"http://xn--/", false},
		{"http://a.\uff58\uff4e\uff0d\uff0d/", false}, // fullwidth "xn--": empty Punycode label
		{"http://a.xn--.b/", false},
		{"http://a.\u00ad.b/", true},                       // a label of ignored code points is just empty
		{"http://" + strings.Repeat("\u00e9", 2040), true}, // no DNS length limit in WHATWG
		{"http://" + strings.Repeat("\u05d0", 2040), true},
		{"http://\u2135.com/", true}, // maps to Hebrew alef: a right-to-left label
		{"http://\u2135a.com/", false},
		{"http://[::1.2.3]/", false},
		{"http://[::1.2.3.4.5]/", false},
		{"http://[::256.1.1.1]/", false},
		{"http://[1:2:3:4:5:6:1.2.3.4]/", true},
		{"http://[1:2:3:4:5:6:7:1.2.3.4]/", false},
		{"http://[::1:2:3:4:5:6:7]/", true},
		{"http://[::1:2:3:4:5:6:7:8]/", false},
		{"http://[1:2:3:4:5:6:7:8::]/", false},
		{"http://[12345::]/", false},
		{"http://[:1]/", false},
		{"http://[1:]/", false},
		{"http://[::FFFF:abcd]/", true},
		{"HTTP://EXAMPLE.COM:0/", true},
		{"hTTpS:example.com", true},
		{"httpss://example.com", false},
		{"http", false},
		{"http:", false},
		{"a", false},
		{"/" + strings.Repeat("\U0001F600", 1023) + "a", true},
		{"/" + strings.Repeat("\U0001F600", 1023) + "ab", false},
		{"/" + strings.Repeat("\u20ac", 2047), true}, // 3-byte runes, 6142 bytes
		{"/" + strings.Repeat("\u20ac", 2048), false},
	}
	for _, tt := range tests {
		if got := ValidHref(tt.in); got != tt.want {
			t.Errorf("ValidHref(%q) = %v, want %v", abbreviate(tt.in), got, tt.want)
		}
	}
}

// TestValidIPv6 checks the hand-ported WHATWG
// IPv6 parser on forms where its verdict is well known.
func TestValidIPv6(t *testing.T) {
	good := []string{"::", "::1", "1::", "1:2:3:4:5:6:7:8", "1::8", "::ffff:192.168.0.1",
		"0:0:0:0:0:0:0:0", "fFfF::", "1:2:3:4:5:6::7", "1:2:3:4:5::1.2.3.4", "::0.0.0.0"}
	bad := []string{"", ":", ":::", "1", "1:2:3:4:5:6:7", "1:2:3:4:5:6:7:8:9", "::1::", "1:::2",
		"12345::", "::g", "::1.2.3.4:5", "::01.2.3.4", "::1.2.3.", "::.1.2.3", "1.2.3.4", "::1%eth0",
		"1:2:3:4:5:6:7:8::", "::1:2:3:4:5:6:7:8", "::1.2.3.4.5", "1:", ":1"}
	for _, s := range good {
		if !validIPv6(s) {
			t.Errorf("validIPv6(%q) = false", s)
		}
	}
	for _, s := range bad {
		if validIPv6(s) {
			t.Errorf("validIPv6(%q) = true", s)
		}
	}
}

func abbreviate(s string) string {
	if len(s) > 80 {
		return s[:40] + "..." + s[len(s)-20:]
	}
	return s
}

func FuzzValidHref(f *testing.F) {
	for _, c := range loadHrefVectors(f) {
		f.Add(c.value())
	}
	f.Fuzz(func(t *testing.T, s string) {
		if !ValidHref(s) {
			return
		}
		if !utf8.ValidString(s) {
			t.Fatalf("accepted invalid UTF-8 %q", s)
		}
		if n := len(utf16.Encode([]rune(s))); n < 1 || n > MaxHrefUnits {
			t.Fatalf("accepted %d UTF-16 units", n)
		}
		if strings.HasPrefix(s, "//") {
			t.Fatalf("accepted protocol-relative %q", s)
		}
		for _, r := range s {
			if r < 0x20 || r == 0x7f || r == '\\' {
				t.Fatalf("accepted %q containing %U", s, r)
			}
		}
		if schemeEnd(s) < 0 {
			if s[0] != '/' || len(s) > 1 && s[1] == '/' {
				t.Fatalf("accepted scheme-less %q", s)
			}
		} else if l := strings.ToLower(s); !strings.HasPrefix(l, "http:") && !strings.HasPrefix(l, "https:") {
			t.Fatalf("accepted scheme of %q", s)
		}
	})
}

func BenchmarkValidHref(b *testing.B) {
	inputs := []string{
		"/docs/getting-started#install",
		"https://example.com/path/to/page?q=1&r=2#frag",
		"http://127.0.0.1:8080/",
		"https://b\u00fccher.example/",
		"javascript:alert(1)",
	}
	b.ReportAllocs()
	for i := 0; b.Loop(); i++ {
		ValidHref(inputs[i%len(inputs)])
	}
}
