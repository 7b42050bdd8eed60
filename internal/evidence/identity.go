package evidence

import (
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"strconv"
)

// hashPrefix spells both identities like corpus and artifact hashes.
const hashPrefix = "sha256:"

// placeholder has the length of a real identity, for measuring a package
// before it is sealed.
var placeholder = hashPrefix + "0000000000000000000000000000000000000000000000000000000000000000"

// seal computes ContextID, Budget.UsedBytes and Digest, in that order,
// each over the fields the previous step has fixed.
func (p *Package) seal() { p.sealMeasured(-1) }

// sealMeasured is seal given rest: the length of the package's JSON
// without the digits of used_bytes, once context_id and digest are set
// (both always have the same length), or -1 to measure it here. fit has
// just measured it, so Search need not encode the package again.
func (p *Package) sealMeasured(rest int) {
	p.ContextID, p.Digest, p.Budget.UsedBytes = "", "", 0
	buf := getBuf()
	defer putBuf(buf)
	// The identities hash the same members after context_id; write them
	// once, with each identity's head in a small array of its own.
	body := p.appendCanonicalBody((*buf)[:0])
	var head [256]byte
	p.ContextID = hashID(p.appendCanonicalHead(head[:0], false), body)
	// used_bytes counts its own digits. Find the fixpoint by arithmetic
	// over the length without them: the rounds are the ones re-encoding
	// the package each time used to take (two at most, since the length
	// changes by a digit or two), so the result is the same number.
	if rest < 0 {
		p.Digest = placeholder
		rest = len(p.appendJSON(body[len(body):])) - intLen(p.Budget.UsedBytes)
	}
	for i := 0; i < 4; i++ {
		n := rest + intLen(p.Budget.UsedBytes)
		if n == p.Budget.UsedBytes {
			break
		}
		p.Budget.UsedBytes = n
	}
	p.Digest = ""
	p.Digest = hashID(p.appendCanonicalHead(head[:0], true), body)
	*buf = body[:0]
}

// hashID spells the SHA-256 of head followed by body as an identity.
func hashID(head, body []byte) string {
	h := sha256.New()
	h.Write(head)
	h.Write(body)
	var sum [sha256.Size]byte
	var out [len(hashPrefix) + 2*sha256.Size]byte
	copy(out[:], hashPrefix)
	hex.Encode(out[len(hashPrefix):], h.Sum(sum[:0]))
	return string(out[:])
}

// ErrIdentity is returned by Check for a package whose context_id,
// used_bytes or digest does not match its content.
var ErrIdentity = errors.New("evidence.identity.mismatch: the package's context_id, used_bytes or digest does not match its content")

// Check recomputes a package's identities, for a stored or replayed
// package, and reports whether they are the ones it carries.
func Check(p *Package) error {
	q := *p
	q.seal()
	if q.ContextID != p.ContextID || q.Digest != p.Digest || q.Budget.UsedBytes != p.Budget.UsedBytes {
		return ErrIdentity
	}
	return nil
}

// formatScore prints micro-units as a decimal with six places.
func formatScore(micro int64) string {
	s := strconv.FormatInt(micro, 10)
	for len(s) < 7 {
		s = "0" + s
	}
	return s[:len(s)-6] + "." + s[len(s)-6:]
}
