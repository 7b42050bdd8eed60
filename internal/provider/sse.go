package provider

import (
	"bytes"
	"errors"
	"io"
	"unicode/utf8"
)

// Event is one dispatched server-sent event. Data is only valid until the
// next call to Next: accumulators parse it immediately.
type Event struct {
	Name string // the "event" field, or "message" when absent
	Data []byte // the "data" lines joined by "\n"
}

// SSEReader decodes text/event-stream (WHATWG HTML §9.2) incrementally
// from a body, with every size bounded: a line, an event's data, and the
// whole stream. It handles CRLF, CR and LF line ends (including a CRLF
// split across reads), a leading BOM, comments and multi-line data. Only
// the "event" and "data" fields mean anything to the adapters; "id" and
// "retry" are read and ignored because a provider call is never resumed.
// At EOF a partly received event is discarded, as the spec says: it is the
// accumulator's job to notice the terminal event never came.
type SSEReader struct {
	r          io.Reader
	buf        []byte
	start, end int
	line       []byte // a line that spans reads
	skipLF     bool   // the previous line ended in CR: a leading LF belongs to it
	eof        bool
	bomDone    bool
	total      int64
	lim        Limits
	name       []byte
	data       []byte
	hasData    bool
}

// NewSSEReader reads from r within lim (zero fields take the defaults).
func NewSSEReader(r io.Reader, lim Limits) *SSEReader {
	return &SSEReader{r: r, buf: make([]byte, 32<<10), lim: lim.WithDefaults()}
}

// SSE decoding errors; the transport maps them to stable codes.
var (
	ErrSSELineTooLarge   = errors.New("sse: line too large")
	ErrSSEEventTooLarge  = errors.New("sse: event too large")
	ErrSSEStreamTooLarge = errors.New("sse: stream too large")
	ErrSSEInvalidUTF8    = errors.New("sse: invalid UTF-8")
)

// readLine returns the next line without its terminator, or io.EOF.
func (d *SSEReader) readLine() ([]byte, error) {
	for {
		if d.start < d.end {
			if d.skipLF {
				d.skipLF = false
				if d.buf[d.start] == '\n' {
					d.start++
					continue
				}
			}
			chunk := d.buf[d.start:d.end]
			i := indexEOL(chunk)
			if i >= 0 {
				if int64(len(d.line)+i) > d.lim.MaxSSELineBytes {
					return nil, ErrSSELineTooLarge
				}
				d.skipLF = chunk[i] == '\r'
				d.start += i + 1
				if len(d.line) > 0 {
					d.line = append(d.line, chunk[:i]...)
					l := d.line
					d.line = d.line[:0]
					return l, nil
				}
				return chunk[:i], nil
			}
			if int64(len(d.line)+len(chunk)) > d.lim.MaxSSELineBytes {
				return nil, ErrSSELineTooLarge
			}
			d.line = append(d.line, chunk...)
			d.start = d.end
		}
		if d.eof {
			if len(d.line) > 0 {
				l := d.line
				d.line = d.line[:0]
				return l, nil
			}
			return nil, io.EOF
		}
		n, err := d.r.Read(d.buf)
		d.start, d.end = 0, n
		d.total += int64(n)
		if d.total > d.lim.MaxStreamBytes {
			return nil, ErrSSEStreamTooLarge
		}
		if err == io.EOF {
			d.eof = true
		} else if err != nil {
			return nil, err
		}
	}
}

// indexEOL finds the first CR or LF.
func indexEOL(b []byte) int {
	i := bytes.IndexByte(b, '\n')
	lim := b
	if i >= 0 {
		lim = b[:i]
	}
	if j := bytes.IndexByte(lim, '\r'); j >= 0 {
		return j
	}
	return i
}

// Next returns the next event, or io.EOF at the end of the stream.
func (d *SSEReader) Next() (Event, error) {
	for {
		line, err := d.readLine()
		if err != nil {
			// At EOF a pending, undispatched event is discarded.
			return Event{}, err
		}
		if !d.bomDone {
			d.bomDone = true
			line = bytes.TrimPrefix(line, []byte("\xEF\xBB\xBF"))
		}
		if len(line) == 0 {
			if !d.hasData {
				d.name = d.name[:0]
				continue
			}
			ev := Event{Name: "message", Data: d.data[:len(d.data)-1]}
			if len(d.name) > 0 {
				ev.Name = string(d.name)
			}
			d.name, d.data, d.hasData = d.name[:0], d.data[:0], false
			if !utf8.Valid(ev.Data) || !utf8.ValidString(ev.Name) {
				return Event{}, ErrSSEInvalidUTF8
			}
			return ev, nil
		}
		if line[0] == ':' {
			continue // comment (keep-alive)
		}
		field, value := line, []byte(nil)
		if i := bytes.IndexByte(line, ':'); i >= 0 {
			field, value = line[:i], line[i+1:]
			if len(value) > 0 && value[0] == ' ' {
				value = value[1:]
			}
		}
		switch string(field) {
		case "event":
			d.name = append(d.name[:0], value...)
		case "data":
			d.data = append(d.data, value...)
			d.data = append(d.data, '\n')
			d.hasData = true
		default:
			continue // id, retry and unknown fields
		}
		if int64(len(d.data)+len(d.name)) > d.lim.MaxSSEEventBytes {
			return Event{}, ErrSSEEventTooLarge
		}
	}
}
