package generate

import "strings"

// Tables in answers. A table block (chunk.Table) is kept in the corpus as
// a small markdown table; an answer quotes it row by row, each row a line
// "first cell: second cell; third cell" with the cells verbatim, because
// a row of a reference table ("baseURL | the site's absolute URL") is
// often the whole answer, and the widget shows lines, not tables.
const (
	maxTableRows     = 8   // a longer table is quoted by the rows that match, never whole
	maxTableRowBytes = 400 // a longer row is not quoted
)

// tableRows is the data rows of a markdown table block (the header and
// its "---" separator left out), each row's cells trimmed and unescaped.
func tableRows(text string) [][]string {
	lines := strings.Split(text, "\n")
	if len(lines) > 1 && isSeparator(lines[1]) {
		lines = lines[2:]
	}
	var rows [][]string
	for _, l := range lines {
		if cells := tableCells(l); len(cells) > 0 {
			rows = append(rows, cells)
		}
	}
	return rows
}

func isSeparator(line string) bool {
	cells := tableCells(line)
	for _, c := range cells {
		if strings.Trim(c, "-: ") != "" {
			return false
		}
	}
	return len(cells) > 0
}

// tableCells splits "| a | b \| c |" into "a", "b | c".
func tableCells(line string) []string {
	l := strings.TrimSpace(line)
	l = strings.TrimPrefix(strings.TrimSuffix(l, "|"), "|")
	if strings.TrimSpace(l) == "" {
		return nil
	}
	var cells []string
	var b strings.Builder
	for i := 0; i < len(l); i++ {
		switch {
		case l[i] == '\\' && i+1 < len(l) && l[i+1] == '|':
			b.WriteByte('|')
			i++
		case l[i] == '|':
			cells = append(cells, strings.TrimSpace(b.String()))
			b.Reset()
		default:
			b.WriteByte(l[i])
		}
	}
	return append(cells, strings.TrimSpace(b.String()))
}

// rowText is a row as one quotable line: "first: second; third", empty
// cells left out; "" when the row has no text.
func rowText(cells []string) string {
	var rest []string
	for _, c := range cells[1:] {
		if c != "" {
			rest = append(rest, c)
		}
	}
	switch {
	case cells[0] == "" && len(rest) == 0:
		return ""
	case cells[0] == "":
		return strings.Join(rest, "; ")
	case len(rest) == 0:
		return cells[0]
	}
	return cells[0] + ": " + strings.Join(rest, "; ")
}

// compactRows is a reference table too long to quote whole, a row a
// line, each cell after the name cut after its first sentence ("tryautoheight: true; If true the
// shortcode tries to calculate the needed height …, see details."): the
// names, defaults and gist of every parameter, which is what a reader
// asking for a shortcode's parameters wants, in the space of a few
// whole rows. n is the bytes the lines take as list items.
func compactRows(text string) (lines []string, n int) {
	for _, cells := range tableRows(text) {
		for i := 1; i < len(cells); i++ {
			if ss := sentences(cells[i]); len(ss) > 0 {
				cells[i] = ss[0]
			}
		}
		t := rowText(cells)
		if t == "" || !quotable(t) || len(t) > maxTableRowBytes {
			continue
		}
		lines = append(lines, t)
		n += 3 + len(t)
	}
	return lines, n
}
