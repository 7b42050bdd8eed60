package protocol

import (
	"unicode/utf8"

	"golang.org/x/net/idna"
	"golang.org/x/text/secure/bidirule"
	"golang.org/x/text/unicode/bidi"
)

// MaxHrefUnits is the longest href accepted, counted in UTF-16 code units
// because the TypeScript reference measures String.prototype.length.
const MaxHrefUnits = 2048

// ValidHref reports whether s is a SafeHref as defined by the AgentsKit Chat
// v1 protocol. It must give exactly the verdict of the TypeScript/zod
// reference, because a message the server accepts but the client rejects (or
// the other way round) breaks rendering on one side only. The rules are:
//
//  1. 1..2048 UTF-16 code units.
//  2. No C0 control, no U+007F and no backslash anywhere: browsers silently
//     drop tab/LF/CR and treat `\` as `/` in special URLs, which is how
//     "/\evil.example" turns into a protocol-relative link.
//  3. No leading "//" (protocol-relative URLs leave the origin).
//  4. Without a scheme (regexp ^[A-Za-z][A-Za-z0-9+.-]*:), only root-relative
//     paths ("/" not followed by "/") are allowed; document-relative forms
//     ("docs/x", "#f", "?q", "./x") resolve differently per page and are
//     refused. Nothing else is checked in that case.
//  5. With a scheme, `new URL(s)` must succeed, with protocol http: or https:
//     and an empty username and password (credentials in links are a
//     phishing vector).
//
// Step 5 is a hand-written port of the WHATWG URL parser restricted to the
// special schemes http and https. net/url is not used because it disagrees
// with browsers: it reads "https:example.com" as an opaque URL without a
// host, knows no IPv4 number forms such as "0x7f.1" and does no IDNA
// mapping. Only the parts that can fail are ported: the path, query and
// fragment of a special URL never make parsing fail, so they are not
// inspected.
//
// Known differences from a browser / Node (Ada) parser, all in Unicode host
// names handled by golang.org/x/net/idna:
//   - The IDNA tables follow Go's Unicode version (15.0 for Go 1.26), so code
//     points assigned or re-classified in later Unicode versions can get a
//     different verdict.
//   - The RFC 5893 Bidi rule is applied per right-to-left label, like
//     current Ada, not to every label of a Bidi domain as UTS #46 and
//     ICU-based browsers do ("http://1.\u05D0/" is accepted). Node 20's Ada
//     2.9 is laxer still: it skips the last character of a left-to-right
//     label and does not require an R/AL first character in a right-to-left
//     one, so it accepts hosts like "co\u0627.x" or "1\u0627.x" that are
//     rejected here.
//   - Joiner (ZWJ/ZWNJ) context rules are x/net/idna's RFC 5892
//     implementation; Ada has its own, which can differ in corner cases.
//   - x/net/idna does not apply the UTS #46 rule (revision 31+) that a
//     decoded "xn--" label must not itself start with "xn--", and refuses
//     to decode an "xn--" label into more than 1024 code points (a denial
//     of service guard), so such a host is rejected here.
//
// Invalid UTF-8 is rejected (a JavaScript string cannot carry it; Go's JSON
// decoder already replaces it with U+FFFD).
func ValidHref(s string) bool {
	if len(s) == 0 || len(s) > 3*MaxHrefUnits {
		// Every UTF-16 unit takes 1..3 UTF-8 bytes, so more than 3*max bytes
		// is always too long; this also bounds the scan below.
		return false
	}
	units := 0
	for i := 0; i < len(s); {
		c := s[i]
		if c < utf8.RuneSelf {
			if c < 0x20 || c == 0x7f || c == '\\' {
				return false
			}
			units++
			i++
			continue
		}
		r, size := utf8.DecodeRuneInString(s[i:])
		if r == utf8.RuneError && size == 1 {
			return false
		}
		if r > 0xFFFF {
			units += 2
		} else {
			units++
		}
		i += size
	}
	if units > MaxHrefUnits {
		return false
	}
	if s[0] == '/' {
		// Root-relative path; "//host" is protocol-relative and refused.
		return len(s) == 1 || s[1] != '/'
	}
	colon := schemeEnd(s)
	if colon < 0 {
		return false
	}
	scheme := s[:colon]
	if !asciiEqualFold(scheme, "http") && !asciiEqualFold(scheme, "https") {
		return false
	}
	// The WHATWG parser strips leading and trailing C0-control-or-space.
	// C0 controls are already refused and s starts with a letter, so only
	// trailing spaces remain: "https://example.com " is accepted.
	rest := s[colon+1:]
	for len(rest) > 0 && rest[len(rest)-1] == ' ' {
		rest = rest[:len(rest)-1]
	}
	return validSpecialAuthority(rest)
}

// schemeEnd returns the index of the ':' ending a leading
// [A-Za-z][A-Za-z0-9+.-]* scheme, or -1 when s has no scheme. This is both
// the reference regexp and the WHATWG scheme state.
func schemeEnd(s string) int {
	if len(s) == 0 || !isASCIIAlpha(s[0]) {
		return -1
	}
	for i := 1; i < len(s); i++ {
		c := s[i]
		switch {
		case c == ':':
			return i
		case isASCIIAlpha(c), isASCIIDigit(c), c == '+', c == '-', c == '.':
		default:
			return -1
		}
	}
	return -1
}

// validSpecialAuthority checks what follows "http:" or "https:" the way the
// WHATWG "special authority ignore slashes", "authority", "host" and "port"
// states do, returning false exactly where they return failure.
func validSpecialAuthority(rest string) bool {
	// Special schemes skip any number of slashes ("https:example.com" and
	// "https:////example.com" both mean https://example.com/).
	for len(rest) > 0 && rest[0] == '/' {
		rest = rest[1:]
	}
	end := len(rest)
	for i := 0; i < len(rest); i++ {
		if c := rest[i]; c == '/' || c == '?' || c == '#' {
			end = i
			break
		}
	}
	auth := rest[:end]
	// Userinfo is everything before the last '@'. The username is the part
	// before its first ':', the password the rest (earlier '@'s become %40
	// inside them), so both are empty only for "" and ":".
	for i := len(auth) - 1; i >= 0; i-- {
		if auth[i] == '@' {
			if ui := auth[:i]; ui != "" && ui != ":" {
				return false
			}
			auth = auth[i+1:]
			break
		}
	}
	// The host ends at the first ':' outside brackets.
	hostEnd := len(auth)
	inBrackets := false
	for i := 0; i < len(auth); i++ {
		switch auth[i] {
		case '[':
			inBrackets = true
		case ']':
			inBrackets = false
		case ':':
			if !inBrackets {
				hostEnd = i
				i = len(auth)
			}
		}
	}
	host := auth[:hostEnd]
	if host == "" {
		return false
	}
	if hostEnd < len(auth) && !validPort(auth[hostEnd+1:]) {
		return false
	}
	return validHost(host)
}

// validPort accepts an empty port or ASCII digits whose value is at most
// 65535 (leading zeros allowed, as in WHATWG).
func validPort(p string) bool {
	v := 0
	for i := 0; i < len(p); i++ {
		c := p[i]
		if !isASCIIDigit(c) {
			return false
		}
		v = v*10 + int(c-'0')
		if v > 65535 {
			return false
		}
	}
	return true
}

// hostProfile is the x/net/idna configuration closest to the WHATWG
// "domain to ASCII" call of UTS #46 ToASCII (CheckHyphens=false,
// CheckJoiners=true, UseSTD3ASCIIRules=false, Transitional_Processing=false,
// VerifyDnsLength=false). MapForLookup turns on STD3 rules and hyphen checks,
// so they are switched back off after it (later options win).
//
// CheckBidi is not delegated to idna.BidiRule, which applies RFC 5893 to
// every label of a domain that has a right-to-left label (as UTS #46 says).
// The reference parser, Ada (Node's URL implementation), applies the rule
// only to labels that themselves contain an R, AL or AN character, so
// "http://1.\u05D0/" is a valid URL in Node; see bidiLabelsOK.
var hostProfile = idna.New(
	idna.MapForLookup(),
	idna.Transitional(false),
	idna.StrictDomainName(false),
	idna.CheckHyphens(false),
	idna.CheckJoiners(true),
	idna.VerifyDNSLength(false),
	idna.RemoveLeadingDots(false),
)

// mapProfile only applies the UTS #46 mapping; see hasEmptyACELabel.
var mapProfile = idna.New(
	idna.MapForLookup(),
	idna.Transitional(false),
	idna.StrictDomainName(false),
	idna.ValidateLabels(false),
)

// validHost is the WHATWG host parser for a special (non-opaque) host.
func validHost(host string) bool {
	if host[0] == '[' {
		if host[len(host)-1] != ']' {
			return false
		}
		return validIPv6(host[1 : len(host)-1])
	}
	domain := host
	if indexByte(host, '%') >= 0 {
		domain = percentDecode(host)
	}
	if needsIDNA(domain) {
		if !utf8.ValidString(domain) {
			// WHATWG decodes invalid UTF-8 to U+FFFD, which UTS #46
			// disallows; x/net/idna lets some invalid bytes through.
			return false
		}
		ascii, err := hostProfile.ToASCII(domain)
		if err != nil || ascii == "" {
			return false
		}
		if hasEmptyLabel(ascii) && hasEmptyACELabel(domain) {
			return false
		}
		if !bidiLabelsOK(domain) {
			return false
		}
		domain = ascii
	}
	// Otherwise WHATWG's fast path only ASCII-lowercases the domain; every
	// check below is case-insensitive, so the copy is skipped.
	for i := 0; i < len(domain); i++ {
		if isForbiddenDomainByte(domain[i]) {
			return false
		}
	}
	if endsInNumber(domain) {
		return validIPv4(domain)
	}
	return true
}

// hasEmptyLabel reports whether d has an empty dot-separated label.
func hasEmptyLabel(d string) bool {
	if d == "" || d[0] == '.' || d[len(d)-1] == '.' {
		return true
	}
	for i := 1; i < len(d); i++ {
		if d[i] == '.' && d[i-1] == '.' {
			return true
		}
	}
	return false
}

// hasEmptyACELabel reports whether a label of d maps to exactly "xn--".
// UTS #46 (and Node) reject such a label because its Punycode part is
// empty, but x/net/idna silently turns it into an empty label. That is only
// possible when ToASCII's result has an empty label, so this slow path
// (one mapping call per non-ASCII rune) runs only then. The per-rune mapping
// equals the whole-string mapping here: normalization cannot create or
// remove the ASCII letters of "xn--".
func hasEmptyACELabel(d string) bool {
	var m []byte
	for _, r := range d {
		switch {
		case r >= utf8.RuneSelf:
			u, _ := mapProfile.ToUnicode(string(r))
			m = append(m, u...)
		case r >= 'A' && r <= 'Z':
			m = append(m, byte(r)+('a'-'A'))
		default:
			m = append(m, byte(r))
		}
	}
	start := 0
	for i := 0; i <= len(m); i++ {
		if i == len(m) || m[i] == '.' {
			if string(m[start:i]) == "xn--" {
				return true
			}
			start = i + 1
		}
	}
	return false
}

// bidiLabelsOK applies the RFC 5893 Bidi rule the way Ada does: to each
// label (in Unicode form) that contains a right-to-left or Arabic number
// character, independently of the other labels. The Unicode labels are
// taken from the mapped input rather than by decoding ToASCII's output,
// because x/net/idna refuses to decode Punycode longer than 1024 runes.
func bidiLabelsOK(domain string) bool {
	u, err := hostProfile.ToUnicode(domain)
	if err != nil {
		return false
	}
	for len(u) > 0 {
		label := u
		if i := indexByte(u, '.'); i >= 0 {
			label, u = u[:i], u[i+1:]
		} else {
			u = ""
		}
		if hasRTL(label) && !bidirule.ValidString(label) {
			return false
		}
	}
	return true
}

// hasRTL reports whether s contains a character of Bidi class R, AL or AN.
func hasRTL(s string) bool {
	for i := 0; i < len(s); {
		if s[i] < utf8.RuneSelf {
			i++ // ASCII has no R, AL or AN characters
			continue
		}
		p, size := bidi.LookupString(s[i:])
		switch p.Class() {
		case bidi.R, bidi.AL, bidi.AN:
			return true
		}
		if size == 0 {
			size = 1
		}
		i += size
	}
	return false
}

// needsIDNA reports whether WHATWG runs full UTS #46 processing on d: it
// does unless d is ASCII with no label starting with "xn--" (any case).
func needsIDNA(d string) bool {
	labelStart := 0
	for i := 0; i < len(d); i++ {
		c := d[i]
		if c >= utf8.RuneSelf {
			return true
		}
		if c == '.' {
			labelStart = i + 1
			continue
		}
		if i == labelStart+3 && c == '-' && d[i-1] == '-' &&
			d[i-2]|0x20 == 'n' && d[i-3]|0x20 == 'x' {
			return true
		}
	}
	return false
}

// percentDecode decodes %XX sequences; malformed ones are kept verbatim,
// as in the WHATWG percent-decode algorithm.
func percentDecode(s string) string {
	b := make([]byte, 0, len(s))
	for i := 0; i < len(s); i++ {
		c := s[i]
		if c == '%' && i+2 < len(s) {
			h, ok1 := unhex(s[i+1])
			l, ok2 := unhex(s[i+2])
			if ok1 && ok2 {
				b = append(b, h<<4|l)
				i += 2
				continue
			}
		}
		b = append(b, c)
	}
	return string(b)
}

// isForbiddenDomainByte reports the WHATWG forbidden domain code points
// (all ASCII): C0 controls, space, # % / : < > ? @ [ \ ] ^ | and U+007F.
func isForbiddenDomainByte(c byte) bool {
	if c <= 0x20 || c == 0x7f {
		return true
	}
	switch c {
	case '#', '%', '/', ':', '<', '>', '?', '@', '[', '\\', ']', '^', '|':
		return true
	}
	return false
}

// endsInNumber is the WHATWG "ends in a number checker": a host whose last
// label (ignoring one trailing dot) is decimal digits or a valid IPv4
// number ("0x1f", "0x", "017") must be an IPv4 address.
func endsInNumber(d string) bool {
	if len(d) > 0 && d[len(d)-1] == '.' {
		d = d[:len(d)-1]
	}
	last := d
	for i := len(d) - 1; i >= 0; i-- {
		if d[i] == '.' {
			last = d[i+1:]
			break
		}
	}
	if last == "" {
		return false
	}
	allDigits := true
	for i := 0; i < len(last); i++ {
		if !isASCIIDigit(last[i]) {
			allDigits = false
			break
		}
	}
	if allDigits {
		return true
	}
	_, ok := parseIPv4Number(last)
	return ok
}

// ipv4Overflow is larger than any valid part; values saturate there.
const ipv4Overflow = 1 << 33

// parseIPv4Number is the WHATWG IPv4 number parser: "0x"/"0X" prefix means
// hex (an empty rest is 0), another leading "0" means octal, else decimal.
func parseIPv4Number(s string) (uint64, bool) {
	if s == "" {
		return 0, false
	}
	radix := uint64(10)
	if len(s) >= 2 && s[0] == '0' && (s[1] == 'x' || s[1] == 'X') {
		s, radix = s[2:], 16
	} else if len(s) >= 2 && s[0] == '0' {
		s, radix = s[1:], 8
	}
	var v uint64
	for i := 0; i < len(s); i++ {
		d, ok := unhex(s[i])
		if !ok || uint64(d) >= radix {
			return 0, false
		}
		if v < ipv4Overflow {
			v = v*radix + uint64(d)
		}
	}
	return v, true
}

// validIPv4 is the WHATWG IPv4 parser (failure cases only).
func validIPv4(d string) bool {
	if len(d) > 0 && d[len(d)-1] == '.' {
		d = d[:len(d)-1] // one trailing empty part is ignored
	}
	var nums [4]uint64
	n := 0
	for start := 0; ; {
		end := start
		for end < len(d) && d[end] != '.' {
			end++
		}
		if n == 4 {
			return false // more than four parts
		}
		v, ok := parseIPv4Number(d[start:end])
		if !ok {
			return false
		}
		nums[n] = v
		n++
		if end == len(d) {
			break
		}
		start = end + 1
	}
	for i := 0; i < n-1; i++ {
		if nums[i] > 255 {
			return false
		}
	}
	return nums[n-1] < uint64(1)<<(8*(5-n))
}

// validIPv6 is a port of the WHATWG IPv6 parser (failure cases only). It is
// used instead of net/netip so that the accepted syntax is the browser's by
// construction (e.g. no zone identifiers, embedded IPv4 only as four
// decimal parts without leading zeros).
func validIPv6(s string) bool {
	pieceIndex := 0
	compress := -1
	p := 0
	if p < len(s) && s[p] == ':' {
		if p+1 >= len(s) || s[p+1] != ':' {
			return false
		}
		p += 2
		pieceIndex++
		compress = pieceIndex
	}
	for p < len(s) {
		if pieceIndex == 8 {
			return false
		}
		if s[p] == ':' {
			if compress >= 0 {
				return false
			}
			p++
			pieceIndex++
			compress = pieceIndex
			continue
		}
		length := 0
		for length < 4 && p < len(s) && isASCIIHex(s[p]) {
			p++
			length++
		}
		if p < len(s) && s[p] == '.' {
			if length == 0 {
				return false
			}
			p -= length
			if pieceIndex > 6 {
				return false
			}
			numbersSeen := 0
			for p < len(s) {
				if numbersSeen > 0 {
					if s[p] == '.' && numbersSeen < 4 {
						p++
					} else {
						return false
					}
				}
				if p >= len(s) || !isASCIIDigit(s[p]) {
					return false
				}
				piece := -1
				for p < len(s) && isASCIIDigit(s[p]) {
					num := int(s[p] - '0')
					switch piece {
					case -1:
						piece = num
					case 0:
						return false // leading zero
					default:
						piece = piece*10 + num
					}
					if piece > 255 {
						return false
					}
					p++
				}
				numbersSeen++
				if numbersSeen == 2 || numbersSeen == 4 {
					pieceIndex++
				}
			}
			if numbersSeen != 4 {
				return false
			}
			break
		} else if p < len(s) && s[p] == ':' {
			p++
			if p >= len(s) {
				return false
			}
		} else if p < len(s) {
			return false
		}
		pieceIndex++
	}
	return compress >= 0 || pieceIndex == 8
}

func isASCIIAlpha(c byte) bool { return c|0x20 >= 'a' && c|0x20 <= 'z' }
func isASCIIDigit(c byte) bool { return c >= '0' && c <= '9' }
func isASCIIHex(c byte) bool {
	return isASCIIDigit(c) || c|0x20 >= 'a' && c|0x20 <= 'f'
}

func unhex(c byte) (byte, bool) {
	switch {
	case isASCIIDigit(c):
		return c - '0', true
	case c|0x20 >= 'a' && c|0x20 <= 'f':
		return c | 0x20 - 'a' + 10, true
	}
	return 0, false
}

func indexByte(s string, c byte) int {
	for i := 0; i < len(s); i++ {
		if s[i] == c {
			return i
		}
	}
	return -1
}

// asciiEqualFold compares s with a lowercase ASCII word, ignoring ASCII case.
func asciiEqualFold(s, lower string) bool {
	if len(s) != len(lower) {
		return false
	}
	for i := 0; i < len(s); i++ {
		if s[i]|0x20 != lower[i] || !isASCIIAlpha(s[i]) {
			return false
		}
	}
	return true
}
