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
	"encoding/json"
	"errors"
	"net"
	"net/http"
	"net/url"
	"regexp"
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

// netlifyPrefix is the path Netlify gives a function's events: its own
// route, which a rewrite (a 200 redirect of /v1/* to
// /.netlify/functions/<name>/v1/:splat) puts in front of the path the
// sidecar serves.
var netlifyPrefix = regexp.MustCompile(`^/\.netlify/functions/[^/]+`)

// AnyHandler returns the Lambda handler that serves h from either event
// shape: payload format 2.0 (API Gateway v2, Function URLs) answered in
// kind, or the REST-API shape (API Gateway v1, which Netlify's Go
// functions get) answered in kind, with the /.netlify/functions/<name>
// prefix taken off the path.
func AnyHandler(h http.Handler) func(context.Context, json.RawMessage) (any, error) {
	v2 := Handler(h)
	return func(ctx context.Context, raw json.RawMessage) (any, error) {
		var probe struct {
			Version    string `json:"version"`
			HTTPMethod string `json:"httpMethod"`
		}
		if err := json.Unmarshal(raw, &probe); err != nil {
			return nil, ErrEvent
		}
		if probe.Version == "2.0" || probe.HTTPMethod == "" {
			var ev events.APIGatewayV2HTTPRequest
			if err := json.Unmarshal(raw, &ev); err != nil {
				return nil, ErrEvent
			}
			return v2(ctx, ev)
		}
		var ev events.APIGatewayProxyRequest
		if err := json.Unmarshal(raw, &ev); err != nil {
			return nil, ErrEvent
		}
		res, err := v2(ctx, fromV1(ev))
		if err != nil {
			return nil, err
		}
		return toV1(res), nil
	}
}

// fromV1 is the payload-2.0 event a REST-API event describes.
func fromV1(ev events.APIGatewayProxyRequest) events.APIGatewayV2HTTPRequest {
	out := events.APIGatewayV2HTTPRequest{
		Version: "2.0", RawPath: netlifyPrefix.ReplaceAllString(ev.Path, ""), Body: ev.Body, IsBase64Encoded: ev.IsBase64Encoded,
		Headers: map[string]string{},
	}
	if out.RawPath == "" {
		out.RawPath = "/"
	}
	for k, v := range ev.Headers {
		out.Headers[k] = v
	}
	for k, vs := range ev.MultiValueHeaders {
		out.Headers[k] = strings.Join(vs, ", ")
	}
	if c, ok := out.Headers["cookie"]; ok {
		out.Cookies = strings.Split(c, "; ")
	}
	q := url.Values{}
	for k, vs := range ev.MultiValueQueryStringParameters {
		q[k] = vs
	}
	for k, v := range ev.QueryStringParameters {
		if _, ok := q[k]; !ok {
			q.Set(k, v)
		}
	}
	out.RawQueryString = q.Encode()
	out.RequestContext.HTTP.Method = ev.HTTPMethod
	out.RequestContext.HTTP.SourceIP = ev.RequestContext.Identity.SourceIP
	out.RequestContext.DomainName = ev.RequestContext.DomainName
	return out
}

// toV1 is the REST-API response of a payload-2.0 one: cookies go back as
// Set-Cookie values.
func toV1(res events.APIGatewayV2HTTPResponse) events.APIGatewayProxyResponse {
	out := events.APIGatewayProxyResponse{StatusCode: res.StatusCode, Headers: res.Headers, Body: res.Body, IsBase64Encoded: res.IsBase64Encoded}
	if len(res.Cookies) > 0 {
		out.MultiValueHeaders = map[string][]string{"Set-Cookie": res.Cookies}
	}
	return out
}
