package evidence

import "github.com/askplane/askplane/internal/protocol"

// maxLabelUnits is the Ask protocol's bound on a source title, in UTF-16
// code units.
const maxLabelUnits = 256

// Label is a citation title for the record that always fits the Ask
// protocol's source title (trimmed, 1–256 UTF-16 units): the page title,
// then " › " and the section heading when the record is a section, cut on
// a character boundary; the URL when the page has no title. A source that
// failed that bound would be dropped by the handler, losing a citation.
func (s *Selected) Label() string {
	label := protocol.Trim(s.Title)
	if n := len(s.Headings); s.Anchor != "" && n > 0 {
		if h := protocol.Trim(s.Headings[n-1]); h != "" && h != label {
			if label == "" {
				label = h
			} else {
				label += " › " + h
			}
		}
	}
	if label == "" {
		label = s.URL
	}
	units := 0
	for i, r := range label {
		u := 1
		if r > 0xFFFF {
			u = 2
		}
		if units+u > maxLabelUnits {
			return protocol.Trim(label[:i])
		}
		units += u
	}
	return label
}
