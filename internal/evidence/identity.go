package evidence

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"strconv"

	"github.com/gowebpki/jcs"
)

// hashPrefix spells both identities like corpus and artifact hashes.
const hashPrefix = "sha256:"

// placeholder has the length of a real identity, for measuring a package
// before it is sealed.
var placeholder = hashPrefix + "0000000000000000000000000000000000000000000000000000000000000000"

// seal computes ContextID, Budget.UsedBytes and Digest, in that order,
// each over the fields the previous step has fixed.
func (p *Package) seal() {
	p.ContextID, p.Digest, p.Budget.UsedBytes = "", "", 0
	p.ContextID = p.identity(true)
	// used_bytes counts its own digits: iterate to the fixpoint (two
	// rounds at most, since the length changes by a digit or two).
	p.Digest = placeholder
	for i := 0; i < 4; i++ {
		n := len(p.JSON())
		if n == p.Budget.UsedBytes {
			break
		}
		p.Budget.UsedBytes = n
	}
	p.Digest = ""
	p.Digest = p.identity(false)
}

// identity hashes the RFC 8785 (JCS) form of the package without digest
// and, for the context id, also without context_id and budget.used_bytes.
// Those keys are left out, not emptied, as OKF evidence packages do. The
// view below is the package minus digest, with the other two omissible;
// JCS then fixes key order, number and string spelling.
func (p *Package) identity(context bool) string {
	v := idView{
		Protocol: p.Protocol, Version: p.Version, SourceVersion: p.SourceVersion,
		Engine: p.Engine, Question: p.Question,
		Budget:  idBudget{MaxRecords: p.Budget.MaxRecords, MaxBytes: p.Budget.MaxBytes},
		Records: p.Records, Status: p.Status,
	}
	if !context {
		used := p.Budget.UsedBytes
		v.Budget.UsedBytes = &used
		v.ContextID = &p.ContextID
	}
	raw, err := json.Marshal(&v)
	if err != nil {
		panic("evidence: encoding a package: " + err.Error())
	}
	canon, err := jcs.Transform(raw)
	if err != nil {
		panic("evidence: canonicalizing a package: " + err.Error())
	}
	sum := sha256.Sum256(canon)
	return hashPrefix + hex.EncodeToString(sum[:])
}

// idView and idBudget mirror Package and Budget for hashing; a test
// checks they stay in step with the real types.
type idView struct {
	Protocol      string     `json:"protocol"`
	Version       int        `json:"version"`
	SourceVersion string     `json:"source_version"`
	Engine        string     `json:"engine"`
	Question      string     `json:"question"`
	Budget        idBudget   `json:"budget"`
	Records       []Selected `json:"records"`
	Status        Status     `json:"status"`
	ContextID     *string    `json:"context_id,omitempty"`
}

type idBudget struct {
	MaxRecords int  `json:"max_records"`
	MaxBytes   int  `json:"max_bytes"`
	UsedBytes  *int `json:"used_bytes,omitempty"`
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
