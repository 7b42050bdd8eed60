package evidence

// appendCanonical appends the RFC 8785 (JCS) form of the package without
// digest and, unless withIDs, also without context_id and
// budget.used_bytes: the text the identities hash. Those keys are left
// out, not emptied, as OKF evidence packages do. JCS orders members by
// their UTF-16 code units; all keys here are ASCII, so the order below is
// plain byte order.
func (p *Package) appendCanonical(b []byte, withIDs bool) []byte {
	return p.appendCanonicalBody(p.appendCanonicalHead(b, withIDs))
}

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
		b = appendJCSString(b, p.ContextID)
	} else {
		b = append(b, '}')
	}
	return b
}

// appendCanonicalBody writes the members after context_id, which both
// identities share, and closes the object.
func (p *Package) appendCanonicalBody(b []byte) []byte {
	b = append(b, `,"engine":`...)
	b = appendJCSString(b, p.Engine)
	b = append(b, `,"protocol":`...)
	b = appendJCSString(b, p.Protocol)
	b = append(b, `,"question":`...)
	b = appendJCSString(b, p.Question)
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
	b = appendJCSString(b, p.SourceVersion)
	b = append(b, `,"status":`...)
	b = appendJCSString(b, string(p.Status))
	b = append(b, `,"version":`...)
	b = appendJCSInt(b, p.Version)
	return append(b, '}')
}

func (s *Selected) appendCanonical(b []byte) []byte {
	b = append(b, `{"anchor":`...)
	b = appendJCSString(b, s.Anchor)
	b = append(b, `,"excerpt":`...)
	b = appendJCSString(b, s.Excerpt)
	b = append(b, `,"headings":`...)
	b = appendStrings(b, s.Headings, appendJCSString)
	b = append(b, `,"id":`...)
	b = appendJCSString(b, s.ID)
	b = append(b, `,"reasons":`...)
	b = appendStrings(b, s.Reasons, appendJCSString)
	b = append(b, `,"score":`...)
	b = appendJCSString(b, s.Score)
	b = append(b, `,"title":`...)
	b = appendJCSString(b, s.Title)
	b = append(b, `,"url":`...)
	b = appendJCSString(b, s.URL)
	return append(b, '}')
}
