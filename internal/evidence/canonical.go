package evidence

import "github.com/askplane/askplane/internal/ecmajson"

// appendCanonicalHead and appendCanonicalBody together write the RFC 8785
// (JCS) form of the package without digest and, unless withIDs, also
// without context_id and budget.used_bytes: the text the identities hash.
// Those keys are left out, not emptied, as OKF evidence packages do. JCS
// orders members by their UTF-16 code units; all keys here are ASCII, so
// the order below is plain byte order.
//
// appendCanonicalHead writes the members the two identities differ in:
// budget, and context_id when withIDs.
func (p *Package) appendCanonicalHead(b []byte, withIDs bool) []byte {
	b = append(b, `{"budget":{"max_bytes":`...)
	b = appendJCSInt(b, p.Budget.MaxBytes)
	b = append(b, `,"max_records":`...)
	b = appendJCSInt(b, p.Budget.MaxRecords)
	if withIDs {
		b = append(b, `,"used_bytes":`...)
		b = appendJCSInt(b, p.Budget.UsedBytes)
		b = append(b, `},"context_id":`...)
		b = ecmajson.AppendString(b, p.ContextID)
	} else {
		b = append(b, '}')
	}
	return b
}

// appendCanonicalBody writes the members after context_id, which both
// identities share, and closes the object.
func (p *Package) appendCanonicalBody(b []byte) []byte {
	b = append(b, `,"engine":`...)
	b = ecmajson.AppendString(b, p.Engine)
	b = append(b, `,"protocol":`...)
	b = ecmajson.AppendString(b, p.Protocol)
	b = append(b, `,"question":`...)
	b = ecmajson.AppendString(b, p.Question)
	b = append(b, `,"records":`...)
	if p.Records == nil {
		b = append(b, "null"...)
	} else {
		b = append(b, '[')
		for i := range p.Records {
			if i > 0 {
				b = append(b, ',')
			}
			b = p.Records[i].appendCanonical(b)
		}
		b = append(b, ']')
	}
	b = append(b, `,"source_version":`...)
	b = ecmajson.AppendString(b, p.SourceVersion)
	b = append(b, `,"status":`...)
	b = ecmajson.AppendString(b, string(p.Status))
	b = append(b, `,"version":`...)
	b = appendJCSInt(b, p.Version)
	return append(b, '}')
}

func (s *Selected) appendCanonical(b []byte) []byte {
	b = append(b, `{"anchor":`...)
	b = ecmajson.AppendString(b, s.Anchor)
	b = append(b, `,"excerpt":`...)
	b = ecmajson.AppendString(b, s.Excerpt)
	b = append(b, `,"headings":`...)
	b = appendStrings(b, s.Headings, ecmajson.AppendString)
	b = append(b, `,"id":`...)
	b = ecmajson.AppendString(b, s.ID)
	b = append(b, `,"reasons":`...)
	b = appendStrings(b, s.Reasons, ecmajson.AppendString)
	b = append(b, `,"score":`...)
	b = ecmajson.AppendString(b, s.Score)
	b = append(b, `,"title":`...)
	b = ecmajson.AppendString(b, s.Title)
	b = append(b, `,"url":`...)
	b = ecmajson.AppendString(b, s.URL)
	return append(b, '}')
}
