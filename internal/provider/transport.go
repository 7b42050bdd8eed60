package provider

import (
	"bytes"
	"context"
	"crypto/tls"
	"encoding/json"
	"errors"
	"io"
	"log/slog"
	"mime"
	"net"
	"net/http"
	"net/url"
	"time"
)

// TransportOptions are what an adapter fixes for its provider: where it
// lives by default, how the key travels, static headers and which
// response headers carry the provider's request id.
type TransportOptions struct {
	DefaultBaseURL   string
	Auth             Auth
	Header           http.Header
	RequestIDHeaders []string
}

// Transport is the shared transport control every adapter calls through.
// It owns the rules the adapters must not each re-implement: HTTPS (or a
// literal loopback IP), no redirects, no retries of any kind, bounded
// request and response bytes, a monotonic deadline on every wait with
// cancellation reported first, the credential added to exactly one
// request, and public-safe errors and logs.
type Transport struct {
	provider string
	model    string
	base     *url.URL
	client   *http.Client
	limits   Limits
	timeout  time.Duration
	cred     Credential
	auth     Auth
	header   http.Header
	idHeader []string
	log      *slog.Logger
}

// NewTransport validates cfg and the endpoint (cfg.BaseURL or the default)
// before anything can dial.
func NewTransport(cfg Config, opt TransportOptions) (*Transport, error) {
	if err := cfg.Validate(); err != nil {
		return nil, err
	}
	raw := cfg.BaseURL
	if raw == "" {
		raw = opt.DefaultBaseURL
	}
	base, err := ParseEndpoint(raw)
	if err != nil {
		return nil, err
	}
	if !opt.Auth.valid() {
		return nil, NewError(CodeConfigInvalid, "adapter auth header is invalid")
	}
	if !cfg.Credential.IsSet() && cfg.Provider != NameOpenAICompatible {
		return nil, NewError(CodeCredentialMissing, "no API key was loaded for this provider (Config.WithCredential)")
	}
	lim := cfg.Limits.WithDefaults()
	dialer := &net.Dialer{Timeout: lim.ConnectTimeout, KeepAlive: 30 * time.Second}
	rt := &http.Transport{
		Proxy:                  nil, // a proxy would see the key; none is configured implicitly
		DialContext:            dialer.DialContext,
		TLSHandshakeTimeout:    lim.ConnectTimeout,
		MaxIdleConnsPerHost:    8,
		IdleConnTimeout:        90 * time.Second,
		MaxResponseHeaderBytes: 64 << 10,
		DisableCompression:     true, // byte limits count what the provider sent
		// An empty, non-nil TLSNextProto disables HTTP/2, whose transport
		// may transparently re-send a request after GOAWAY; HTTP/1.1 never
		// replays a POST that has no GetBody.
		TLSNextProto: map[string]func(string, *tls.Conn) http.RoundTripper{},
	}
	client := &http.Client{
		Transport: rt,
		// Never follow: a redirect could move the key or the prompt to
		// another origin. The 3xx comes back and becomes an *Error.
		CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse },
	}
	h := http.Header{}
	for k, vs := range opt.Header {
		for _, v := range vs {
			h.Add(k, v)
		}
	}
	return &Transport{
		provider: cfg.Provider,
		model:    cfg.Model,
		base:     base,
		client:   client,
		limits:   lim,
		timeout:  cfg.EffectiveTimeout(),
		cred:     cfg.Credential,
		auth:     opt.Auth,
		header:   h,
		idHeader: opt.RequestIDHeaders,
		log:      cfg.logger(),
	}, nil
}

// Limits returns the effective limits.
func (t *Transport) Limits() Limits { return t.limits }

// Call is one POST: Path is relative to the base URL ("responses").
type Call struct {
	Path   string
	Body   any
	Stream bool
}

// attempt is the per-call state shared by Complete and Stream.
type attempt struct {
	t        *Transport
	parent   context.Context
	ctx      context.Context
	cancel   context.CancelFunc
	deadline time.Time
	start    time.Time
	call     Call
	status   int
	reqID    string
}

func (t *Transport) begin(parent context.Context, call Call) *attempt {
	start := time.Now() // carries the monotonic clock reading
	deadline := start.Add(t.timeout)
	ctx, cancel := context.WithDeadline(parent, deadline)
	return &attempt{t: t, parent: parent, ctx: ctx, cancel: cancel, deadline: deadline, start: start, call: call}
}

// stopped reports why the attempt must stop, if it must. Cancellation of
// the caller's context wins over any deadline, so a client that went away
// is never logged as a slow provider.
func (a *attempt) stopped() *Error {
	if err := a.parent.Err(); err != nil {
		if errors.Is(err, context.Canceled) {
			return NewError(CodeCancelled, "the call was cancelled").withCause(err)
		}
		return NewError(CodeDeadlineExceeded, "the caller's deadline passed").withCause(err)
	}
	if a.ctx.Err() != nil || !time.Now().Before(a.deadline) {
		return NewError(CodeDeadlineExceeded, "the provider call exceeded its timeout").withCause(context.DeadlineExceeded)
	}
	return nil
}

// fail classifies an I/O error: a stop reason first, then the fallback.
func (a *attempt) fail(err error, fallback *Error) *Error {
	if s := a.stopped(); s != nil {
		return s
	}
	var pe *Error
	if errors.As(err, &pe) {
		return pe
	}
	return fallback.withCause(err)
}

// send marshals the body within the request limit, checks for a stop
// before dialing, and makes exactly one HTTP round trip.
func (a *attempt) send() (*http.Response, *Error) {
	t := a.t
	if s := a.stopped(); s != nil {
		return nil, s
	}
	var buf bytes.Buffer
	enc := json.NewEncoder(&limitedWriter{w: &buf, n: t.limits.MaxRequestBytes})
	enc.SetEscapeHTML(false)
	if err := enc.Encode(a.call.Body); err != nil {
		if errors.Is(err, errRequestTooLarge) {
			return nil, NewError(CodeRequestTooLarge, "the request body is larger than maxRequestBytes")
		}
		return nil, NewError(CodeRequestInvalid, "the request could not be encoded")
	}
	target := t.base.ResolveReference(&url.URL{Path: a.call.Path})
	req, err := http.NewRequestWithContext(a.ctx, http.MethodPost, target.String(), bytes.NewReader(buf.Bytes()))
	if err != nil {
		return nil, NewError(CodeRequestInvalid, "the request could not be built")
	}
	req.GetBody = nil // nothing below may replay the body
	for k, vs := range t.header {
		req.Header[k] = append([]string(nil), vs...)
	}
	req.Header.Set("Content-Type", "application/json")
	if a.call.Stream {
		req.Header.Set("Accept", "text/event-stream")
	} else {
		req.Header.Set("Accept", "application/json")
	}
	req.Header.Set("User-Agent", "askplane-provider/1")
	t.cred.apply(req.Header, t.auth) // this request only
	resp, err := t.client.Do(req)
	if err != nil {
		return nil, a.fail(err, NewError(CodeTransport, "the provider could not be reached"))
	}
	a.status = resp.StatusCode
	a.reqID = t.requestID(resp.Header)
	if resp.StatusCode < 200 || resp.StatusCode > 299 {
		// Drain a little so the connection can be reused, never read it.
		_, _ = io.CopyN(io.Discard, resp.Body, 64<<10)
		resp.Body.Close()
		return nil, statusError(resp.StatusCode, t.retryAfter(resp.Header))
	}
	return resp, nil
}

// Complete makes one non-streaming call and returns the bounded JSON body
// and the provider's request id.
func (t *Transport) Complete(ctx context.Context, call Call) (body []byte, requestID string, err error) {
	a := t.begin(ctx, call)
	defer a.cancel()
	body, perr := a.complete()
	t.logCall(a, len(body), perr)
	if perr != nil {
		return nil, a.reqID, perr
	}
	return body, a.reqID, nil
}

// CompleteAs is an adapter's unary call: it decodes the checked body into
// the provider's wire response W, reporting a body that does not fit as
// malformed in the adapter's words (what: "the response is not …"),
// converts it with toResponse and records the request id.
func CompleteAs[W any](ctx context.Context, t *Transport, call Call, what string, toResponse func(*W) (Response, error)) (Response, error) {
	body, requestID, err := t.Complete(ctx, call)
	if err != nil {
		return Response{}, err
	}
	var w W
	if json.Unmarshal(body, &w) != nil {
		return Response{}, Malformed(what)
	}
	out, err := toResponse(&w)
	if err != nil {
		return Response{}, err
	}
	out.RequestID = requestID
	out.Model = t.scrub(out.Model)
	return out, nil
}

func (a *attempt) complete() ([]byte, *Error) {
	resp, perr := a.send()
	if perr != nil {
		return nil, perr
	}
	defer resp.Body.Close()
	if !mediaType(resp.Header.Get("Content-Type"), "application/json") {
		return nil, &Error{Code: CodeResponseMalformed, Message: "the response is not application/json", Status: resp.StatusCode}
	}
	max := a.t.limits.MaxResponseBytes
	if resp.ContentLength > max {
		return nil, &Error{Code: CodeResponseTooLarge, Message: "the response is larger than maxResponseBytes", Status: resp.StatusCode}
	}
	body, err := io.ReadAll(io.LimitReader(resp.Body, max+1))
	if err != nil {
		return nil, a.fail(err, NewError(CodeTransport, "the response body was interrupted"))
	}
	if int64(len(body)) > max {
		return nil, &Error{Code: CodeResponseTooLarge, Message: "the response is larger than maxResponseBytes", Status: resp.StatusCode}
	}
	if err := CheckJSON(body); err != nil {
		return nil, &Error{Code: CodeResponseMalformed, Message: "the response is not one JSON value with unique member names", Status: resp.StatusCode}
	}
	return body, nil
}

// MaxRequestIDBytes bounds a provider request id kept for logs and
// Response.RequestID; a longer value is not a request id.
const MaxRequestIDBytes = 128

// requestID returns the first of the adapter's request id headers whose
// value is 1–MaxRequestIDBytes bytes of [A-Za-z0-9._:-]; any other value
// is skipped. One that carries the key (Credential.leaks) becomes the
// redaction marker, so the operator sees that the provider echoed it.
func (t *Transport) requestID(h http.Header) string {
	for _, name := range t.idHeader {
		v := h.Get(name)
		if v == "" || len(v) > MaxRequestIDBytes || !requestIDChars(v) {
			continue
		}
		if t.cred.leaks(v) {
			return redacted
		}
		return v
	}
	return ""
}

func requestIDChars(s string) bool {
	for i := 0; i < len(s); i++ {
		c := s[i]
		if !('a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' || '0' <= c && c <= '9' || c == '-' || c == '_' || c == '.' || c == ':') {
			return false
		}
	}
	return true
}

// retryAfter is the Retry-After advice, or none when the value carries the
// key: ParseRetryAfter already bounds it to a duration of at most a day,
// and a value echoing the key is not advice worth trusting.
func (t *Transport) retryAfter(h http.Header) time.Duration {
	v := h.Get("Retry-After")
	if t.cred.leaks(v) {
		return 0
	}
	return ParseRetryAfter(v, time.Now())
}

// scrub returns a provider-supplied string that may be logged or shown
// (the response's model name) as is, or the redaction marker when it
// carries the key.
func (t *Transport) scrub(v string) string {
	if t.cred.leaks(v) {
		return redacted
	}
	return v
}

// logCall writes one record per call: who, how long, what status and
// code. Never the key, the prompt, the output or any body.
func (t *Transport) logCall(a *attempt, n int, err *Error) {
	attrs := []slog.Attr{
		slog.String("provider", t.provider),
		slog.String("model", t.model),
		slog.Bool("stream", a.call.Stream),
		slog.Int("status", a.status),
		slog.String("request_id", a.reqID),
		slog.Duration("duration", time.Since(a.start)),
		slog.Int("bytes", n),
	}
	level := slog.LevelInfo
	if err != nil {
		level = slog.LevelWarn
		attrs = append(attrs, slog.String("code", err.Code))
		if err.RetryAfter > 0 {
			attrs = append(attrs, slog.Duration("retry_after", err.RetryAfter))
		}
	}
	t.log.LogAttrs(context.Background(), level, "provider call", attrs...)
}

func mediaType(header, want string) bool {
	mt, _, err := mime.ParseMediaType(header)
	return err == nil && mt == want
}

var errRequestTooLarge = errors.New("request too large")

// limitedWriter fails once more than n bytes are written, so an oversize
// request is refused before anything is sent.
type limitedWriter struct {
	w io.Writer
	n int64
}

func (l *limitedWriter) Write(p []byte) (int, error) {
	if int64(len(p)) > l.n {
		return 0, errRequestTooLarge
	}
	l.n -= int64(len(p))
	return l.w.Write(p)
}
