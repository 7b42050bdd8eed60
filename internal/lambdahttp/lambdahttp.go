// Package lambdahttp serves an http.Handler from API Gateway v2 / Lambda
// Function URL events (payload format 2.0), the shape Netlify's Go
// functions and AWS Lambda's HTTP front doors deliver. The request's
// method, path, query, headers, cookies, body and client address pass
// through as net/http would see them; the response comes back whole,
// since these platforms buffer it: an NDJSON stream arrives complete, in
// one response. Nothing here knows about askplane.
package lambdahttp

import (
	"bytes"
	"context"
	"encoding/base64"
	"errors"
	"net"
	"net/http"
	"net/url"
	"strings"
	"unicode/utf8"

	"github.com/aws/aws-lambda-go/events"
)

// Bounds of one invocation. The platform's own limit on a synchronous
// response is 6 MB, base64 included.
const (
	MaxRequestBodyBytes  = 1 << 20
	MaxResponseBodyBytes = 4 << 20
)

// Errors of an event the handler cannot serve; the platform answers them
// with its own 502. They never carry the event.
var (
	ErrEvent            = errors.New("lambdahttp: the event is not an HTTP request of payload format 2.0")
	ErrRequestTooLarge  = errors.New("lambdahttp: the request body is over MaxRequestBodyBytes")
	ErrResponseTooLarge = errors.New("lambdahttp: the response body is over MaxResponseBodyBytes")
)

// Handler returns the Lambda handler that serves h.
func Handler(h http.Handler) func(context.Context, events.APIGatewayV2HTTPRequest) (events.APIGatewayV2HTTPResponse, error) {
	return func(ctx context.Context, ev events.APIGatewayV2HTTPRequest) (events.APIGatewayV2HTTPResponse, error) {
		r, err := Request(ctx, ev)
		if err != nil {
			if errors.Is(err, ErrRequestTooLarge) {
				return plain(http.StatusRequestEntityTooLarge, "request body too large\n"), nil
			}
			return events.APIGatewayV2HTTPResponse{}, err
		}
		w := newRecorder()
		h.ServeHTTP(w, r)
		return w.response()
	}
}

// Request builds the http.Request an event describes.
func Request(ctx context.Context, ev events.APIGatewayV2HTTPRequest) (*http.Request, error) {
	method := ev.RequestContext.HTTP.Method
	path := ev.RawPath
	if method == "" || !strings.HasPrefix(path, "/") {
		return nil, ErrEvent
	}
	body := []byte(ev.Body)
	if ev.IsBase64Encoded {
		b, err := base64.StdEncoding.DecodeString(ev.Body)
		if err != nil {
			return nil, ErrEvent
		}
		body = b
	}
	if len(body) > MaxRequestBodyBytes {
		return nil, ErrRequestTooLarge
	}
	u := &url.URL{Path: path, RawQuery: ev.RawQueryString}
	if p, err := url.PathUnescape(path); err == nil && p != path {
		u.Path, u.RawPath = p, path
	}
	r, err := http.NewRequestWithContext(ctx, method, u.String(), bytes.NewReader(body))
	if err != nil {
		return nil, ErrEvent
	}
	r.RequestURI = u.RequestURI()
	for k, v := range ev.Headers {
		// Format 2.0 joins repeated headers with commas; only Cookie
		// comes apart (in Cookies). Set-Cookie never arrives in a request.
		r.Header.Set(k, v)
	}
	r.Header.Del("Cookie")
	if len(ev.Cookies) > 0 {
		r.Header.Set("Cookie", strings.Join(ev.Cookies, "; "))
	}
	r.Host = r.Header.Get("Host")
	if r.Host == "" {
		r.Host = ev.RequestContext.DomainName
	}
	r.ContentLength = int64(len(body))
	if ip := ev.RequestContext.HTTP.SourceIP; ip != "" {
		r.RemoteAddr = net.JoinHostPort(ip, "0")
	}
	return r, nil
}

// recorder is the buffered ResponseWriter of one invocation. Flush is
// accepted and does nothing: the platform sends the response whole.
type recorder struct {
	header http.Header
	status int
	body   bytes.Buffer
	over   bool
}

func newRecorder() *recorder { return &recorder{header: http.Header{}} }

func (w *recorder) Header() http.Header { return w.header }

func (w *recorder) WriteHeader(status int) {
	if w.status == 0 {
		w.status = status
	}
}

func (w *recorder) Write(p []byte) (int, error) {
	w.WriteHeader(http.StatusOK)
	if w.body.Len()+len(p) > MaxResponseBodyBytes {
		w.over = true
		return 0, ErrResponseTooLarge
	}
	return w.body.Write(p)
}

func (w *recorder) Flush() {}

func (w *recorder) response() (events.APIGatewayV2HTTPResponse, error) {
	if w.over {
		return events.APIGatewayV2HTTPResponse{}, ErrResponseTooLarge
	}
	if w.status == 0 {
		w.status = http.StatusOK
	}
	res := events.APIGatewayV2HTTPResponse{StatusCode: w.status, Headers: map[string]string{}}
	for k, vs := range w.header {
		if k == "Set-Cookie" {
			res.Cookies = append(res.Cookies, vs...)
			continue
		}
		res.Headers[k] = strings.Join(vs, ", ")
	}
	if text(w.header.Get("Content-Type")) && utf8.Valid(w.body.Bytes()) {
		res.Body = w.body.String()
	} else {
		res.Body, res.IsBase64Encoded = base64.StdEncoding.EncodeToString(w.body.Bytes()), true
	}
	return res, nil
}

// text reports whether a body of this type passes as a string: JSON,
// NDJSON, HTML, CSS, JavaScript and other text, when UTF-8.
func text(contentType string) bool {
	t := strings.ToLower(contentType)
	return strings.HasPrefix(t, "text/") || strings.Contains(t, "json") || strings.Contains(t, "javascript") || strings.Contains(t, "+xml") || strings.HasPrefix(t, "application/xml")
}

func plain(status int, body string) events.APIGatewayV2HTTPResponse {
	return events.APIGatewayV2HTTPResponse{StatusCode: status, Headers: map[string]string{"Content-Type": "text/plain; charset=utf-8"}, Body: body}
}
