package insights

import (
	"encoding/csv"
	"fmt"
	"io"
	"strconv"
	"strings"
	"time"
)

// CSVHeader is the first row of WriteCSV: one table for every part of
// the report, told apart by its first column.
var CSVHeader = []string{"section", "rank", "label", "questions", "readers", "answered", "exact", "rate", "detail"}

// WriteCSV writes rep as one CSV table (RFC 4180, CRLF) a spreadsheet
// opens: a "total" row, then "gap" and "top" rows (label: the cluster's
// terms; detail: its outcomes, and for a gap the closest pages), "page"
// rows (questions: how many answers cited it), "least_cited" rows (the
// same, the pages cited least), "uncited" rows (a page no answer
// cited), "not_helpful" rows (a
// page, and how many answers judged not helpful cited it) and "week" rows (label:
// the week's Monday). A cell that a spreadsheet would read as a formula
// (starting with =, +, -, @, a tab or a carriage return) is prefixed
// with an apostrophe.
func (rep *Report) WriteCSV(w io.Writer) error {
	cw := csv.NewWriter(w)
	cw.UseCRLF = true
	row := func(cells ...string) {
		for i, c := range cells {
			cells[i] = cell(c)
		}
		cw.Write(cells)
	}
	itoa, pct := strconv.Itoa, func(f float64) string { return strconv.FormatFloat(f, 'f', 3, 64) }
	row(CSVHeader...)
	row("total", "", rep.Site, itoa(rep.Questions), itoa(rep.Readers), itoa(int(rep.AnswerRate*float64(rep.Questions)+0.5)),
		itoa(rep.Exact), pct(rep.AnswerRate), fmt.Sprintf("last %d days since %s; rare terms %d; helpful %d, not helpful %d",
			rep.Days, rep.Since.Format(time.RFC3339), rep.RareTerms, rep.Helpful, rep.NotHelpful))
	clusters := func(section string, cs []Cluster) {
		for i, c := range cs {
			detail := outcomes(c.Outcomes)
			if section == "gap" && len(c.Pages) > 0 {
				detail += "; closest: " + strings.Join(c.Pages, " ")
			}
			row(section, itoa(i+1), terms(c), itoa(c.Questions), itoa(c.Readers), itoa(c.Outcomes["answered"]), "0", pct(c.AnswerRate), detail)
		}
	}
	clusters("gap", rep.Gaps)
	clusters("top", rep.Top)
	for i, p := range rep.Pages {
		row("page", itoa(i+1), p.Page, itoa(p.Cited), "", "", "", "", "")
	}
	for i, p := range rep.LeastPages {
		row("least_cited", itoa(i+1), p.Page, itoa(p.Cited), "", "", "", "", "")
	}
	for i, p := range rep.Uncited {
		row("uncited", itoa(i+1), p, "0", "", "", "", "", "")
	}
	for i, p := range rep.NotHelpfulPages {
		row("not_helpful", itoa(i+1), p.Page, itoa(p.Cited), "", "", "", "", "")
	}
	for i, wk := range rep.Weeks {
		rate := ""
		if wk.Questions > 0 {
			rate = pct(float64(wk.Answered+wk.Exact) / float64(wk.Questions))
		}
		row("week", itoa(i+1), wk.Start.Format(time.DateOnly), itoa(wk.Questions), "", itoa(wk.Answered), itoa(wk.Exact), rate, "")
	}
	cw.Flush()
	return cw.Error()
}

// cell defuses a value a spreadsheet would evaluate.
func cell(s string) string {
	if s != "" && strings.ContainsRune("=+-@\t\r", rune(s[0])) {
		return "'" + s
	}
	return s
}
