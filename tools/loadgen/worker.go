package loadgen

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"io"
	"net/http"
	"strconv"
	"time"

	"github.com/askplane/askplane/internal/protocol"
)

// Bounds of one response, so a misbehaving server cannot make the load
// generator buffer without limit.
const (
	maxStreamBytes = 1 << 20  // a whole NDJSON answer
	maxErrorBytes  = 16 << 10 // an error body
	maxLineBytes   = 64 << 10 // one NDJSON line is read in pieces past this
	maxCookies     = 8        // cookies a worker keeps
)

// worker is one simulated browser: it keeps the cookies the server sets
// (so it stays one subject), and asks TurnsPerSession questions per
// conversation under one sessionId before starting the next.
type worker struct {
	id      int
	url     string
	origin  string
	client  *http.Client
	turns   int
	timeout time.Duration

	cookies  []*http.Cookie
	session  string
	asked    int
	sessions int
	body     bytes.Buffer
	reader   *bufio.Reader
}

// nextSession returns the sessionId for the next question, starting a new
// conversation every w.turns questions ("" when sessions are off).
func (w *worker) nextSession() string {
	if w.turns <= 0 {
		return ""
	}
	if w.asked%w.turns == 0 {
		w.sessions++
		w.session = "load-w" + strconv.Itoa(w.id) + "-s" + strconv.Itoa(w.sessions)
	}
	w.asked++
	return w.session
}

// ask sends q and measures the answer. start is when the request should
// have started (its scheduled arrival in an open loop, now otherwise).
func (w *worker) ask(ctx context.Context, q Question, start time.Time) Sample {
	s := Sample{Unanswerable: q.Unanswerable, Lag: max(time.Since(start), 0)}
	req := protocol.AskRequest{
		SessionID: w.nextSession(),
		Messages:  []protocol.AskMessage{{Role: protocol.RoleUser, Content: q.Text}},
	}
	payload, err := req.MarshalJSON()
	if err != nil {
		s.Outcome = Transport
		return s
	}
	if w.timeout > 0 {
		var cancel context.CancelFunc
		ctx, cancel = context.WithTimeout(ctx, w.timeout)
		defer cancel()
	}
	hr, err := http.NewRequestWithContext(ctx, http.MethodPost, w.url, bytes.NewReader(payload))
	if err != nil {
		s.Outcome = Transport
		return s
	}
	hr.Header.Set("Content-Type", "application/json")
	hr.Header.Set("Accept", "application/x-ndjson")
	if w.origin != "" {
		hr.Header.Set("Origin", w.origin)
	}
	for _, c := range w.cookies {
		hr.AddCookie(c)
	}
	resp, err := w.client.Do(hr)
	if err != nil {
		s.Outcome, s.Total = Transport, time.Since(start)
		return s
	}
	defer resp.Body.Close()
	w.keepCookies(resp)
	s.Status = resp.StatusCode
	if resp.StatusCode != http.StatusOK {
		s.Code = errorCode(resp.Body)
		s.Total = time.Since(start)
		switch {
		case resp.StatusCode == http.StatusTooManyRequests && s.Code == string(protocol.CodeAskRateLimited):
			s.Outcome = RateLimited
		case resp.StatusCode == http.StatusUnprocessableEntity && s.Code == string(protocol.CodeAskNoGroundedSources):
			s.Outcome = NoSources
		default:
			s.Outcome = HTTPStatus
		}
		return s
	}
	w.readStream(resp.Body, start, &s)
	return s
}

// readStream reads a 200 NDJSON body line by line: the first line's
// arrival is the first event, and the last event says how it ended.
func (w *worker) readStream(body io.Reader, start time.Time, s *Sample) {
	lr := &io.LimitedReader{R: body, N: maxStreamBytes}
	if w.reader == nil {
		w.reader = bufio.NewReaderSize(lr, 4096)
	} else {
		w.reader.Reset(lr)
	}
	defer w.reader.Reset(nil) // drop the body
	var last Outcome = Incomplete
	for {
		line, err := w.readLine()
		if len(bytes.TrimSpace(line)) > 0 {
			if s.FirstEvent == 0 {
				s.FirstEvent = time.Since(start)
			}
			last = Incomplete
			switch eventType(line) {
			case protocol.AskEventDone:
				last = Answered
			case protocol.AskEventError:
				last, s.Code = StreamError, eventCode(line)
			}
		}
		if err != nil {
			if !errors.Is(err, io.EOF) {
				last = Transport
			}
			break
		}
	}
	s.Total = time.Since(start)
	s.Outcome = last
	if last == Transport || lr.N <= 0 {
		s.Outcome = Transport
	}
}

// readLine returns the next line (without its newline), keeping at most
// maxLineBytes of a longer one; only the type prefix matters here.
func (w *worker) readLine() ([]byte, error) {
	w.body.Reset()
	for {
		frag, err := w.reader.ReadSlice('\n')
		if w.body.Len() < maxLineBytes {
			w.body.Write(frag[:min(len(frag), maxLineBytes-w.body.Len())])
		}
		if errors.Is(err, bufio.ErrBufferFull) {
			continue
		}
		return bytes.TrimSuffix(w.body.Bytes(), []byte("\n")), err
	}
}

// eventType reads an event's type. The server writes "type" first, so the
// common case needs no JSON decoding; anything else is decoded.
func eventType(line []byte) string {
	const prefix = `{"type":"`
	if bytes.HasPrefix(line, []byte(prefix)) {
		rest := line[len(prefix):]
		if i := bytes.IndexByte(rest, '"'); i > 0 {
			return string(rest[:i])
		}
	}
	var ev struct {
		Type string `json:"type"`
	}
	if json.Unmarshal(line, &ev) != nil {
		return ""
	}
	return ev.Type
}

// eventCode reads an error event's code.
func eventCode(line []byte) string {
	var ev struct {
		Code string `json:"code"`
	}
	json.Unmarshal(line, &ev)
	return safeCode(ev.Code)
}

// errorCode reads the code of a {"error":{"code":…}} body and drains the
// rest (up to maxErrorBytes) so the connection can be reused.
func errorCode(body io.Reader) string {
	data, _ := io.ReadAll(io.LimitReader(body, maxErrorBytes))
	var e struct {
		Error struct {
			Code string `json:"code"`
		} `json:"error"`
	}
	json.Unmarshal(data, &e)
	return safeCode(e.Error.Code)
}

// safeCode keeps only codes shaped like protocol codes (upper case,
// digits, underscores, at most 64 bytes), so a report never carries
// arbitrary server text.
func safeCode(c string) string {
	if len(c) == 0 || len(c) > 64 {
		return ""
	}
	for i := 0; i < len(c); i++ {
		if b := c[i]; (b < 'A' || b > 'Z') && (b < '0' || b > '9') && b != '_' {
			return ""
		}
	}
	return c
}

// keepCookies stores the cookies the server set, replacing any of the same
// name, so the worker is one subject for the whole run.
func (w *worker) keepCookies(resp *http.Response) {
	for _, c := range resp.Cookies() {
		if c.Name == "" || c.Value == "" {
			continue
		}
		replaced := false
		for i, old := range w.cookies {
			if old.Name == c.Name {
				w.cookies[i], replaced = &http.Cookie{Name: c.Name, Value: c.Value}, true
			}
		}
		if !replaced && len(w.cookies) < maxCookies {
			w.cookies = append(w.cookies, &http.Cookie{Name: c.Name, Value: c.Value})
		}
	}
}
