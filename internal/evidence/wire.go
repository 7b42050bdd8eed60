package evidence

import (
	"strconv"

	"github.com/askplane/askplane/internal/ecmajson"
)

// appendJSON appends the package's wire JSON (see JSON).
func (p *Package) appendJSON(b []byte) []byte {
	b = p.appendHead(b)
	if p.Records == nil {
		b = append(b, "null"...)
	} else {
		b = append(b, '[')
		for i := range p.Records {
			if i > 0 {
				b = append(b, ',')
			}
			b = p.Records[i].appendJSON(b)
		}
		b = append(b, ']')
	}
	return p.appendTail(b)
}

// appendHead writes every member before the records' value, so fit can
// measure a package from its parts.
func (p *Package) appendHead(b []byte) []byte {
	b = append(b, `{"protocol":`...)
	b = ecmajson.AppendGoString(b, p.Protocol)
	b = append(b, `,"version":`...)
	b = strconv.AppendInt(b, int64(p.Version), 10)
	b = append(b, `,"source_version":`...)
	b = ecmajson.AppendGoString(b, p.SourceVersion)
	b = append(b, `,"engine":`...)
	b = ecmajson.AppendGoString(b, p.Engine)
	b = append(b, `,"question":`...)
	b = ecmajson.AppendGoString(b, p.Question)
	b = append(b, `,"budget":{"max_records":`...)
	b = strconv.AppendInt(b, int64(p.Budget.MaxRecords), 10)
	b = append(b, `,"max_bytes":`...)
	b = strconv.AppendInt(b, int64(p.Budget.MaxBytes), 10)
	b = append(b, `,"used_bytes":`...)
	b = strconv.AppendInt(b, int64(p.Budget.UsedBytes), 10)
	return append(b, `},"records":`...)
}

// appendTail writes every member after the records' value.
func (p *Package) appendTail(b []byte) []byte {
	b = append(b, `,"status":`...)
	b = ecmajson.AppendGoString(b, string(p.Status))
	b = append(b, `,"context_id":`...)
	b = ecmajson.AppendGoString(b, p.ContextID)
	b = append(b, `,"digest":`...)
	b = ecmajson.AppendGoString(b, p.Digest)
	return append(b, '}')
}

// appendJSON appends the record's wire JSON, fields in declaration order.
func (s *Selected) appendJSON(b []byte) []byte {
	b = append(b, `{"id":`...)
	b = ecmajson.AppendGoString(b, s.ID)
	b = append(b, `,"url":`...)
	b = ecmajson.AppendGoString(b, s.URL)
	b = append(b, `,"anchor":`...)
	b = ecmajson.AppendGoString(b, s.Anchor)
	b = append(b, `,"title":`...)
	b = ecmajson.AppendGoString(b, s.Title)
	b = append(b, `,"headings":`...)
	b = appendStrings(b, s.Headings, ecmajson.AppendGoString)
	b = append(b, `,"excerpt":`...)
	b = ecmajson.AppendGoString(b, s.Excerpt)
	b = append(b, `,"score":`...)
	b = ecmajson.AppendGoString(b, s.Score)
	b = append(b, `,"reasons":`...)
	b = appendStrings(b, s.Reasons, ecmajson.AppendGoString)
	return append(b, '}')
}
