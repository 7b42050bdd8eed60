// Package lambdaemu runs a Lambda function on a developer's machine the
// way the platform does: it serves the Lambda Runtime API (the function
// polls for the next invocation and posts its response or error) and turns
// plain HTTP requests into API Gateway v2 events and the function's
// responses back into HTTP, buffered whole as Netlify and API Gateway
// deliver them. askplane-lambda-local serves it; the function's own tests
// drive it directly.
package lambdaemu

import (
	"context"
	"encoding/base64"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"time"
	"unicode/utf8"

	"github.com/aws/aws-lambda-go/events"
)

// MaxPayload is the platform's limit on a synchronous invocation's event
// and on its response (6 MB).
const MaxPayload = 6 << 20

// Deadline is how long an invocation may run, as Netlify's synchronous
// functions allow.
const Deadline = 60 * time.Second

// Errors Invoke returns.
var (
	ErrTimeout  = errors.New("lambdaemu: the function did not answer before its deadline")
	ErrFunction = errors.New("lambdaemu: the function reported an error")
	ErrTooLarge = errors.New("lambdaemu: payload over 6 MB")
)

// Runtime is one function's Runtime API: invocations queue until the
// function asks for the next one.
type Runtime struct {
	queue   chan invocation
	seq     atomic.Uint64
	mu      sync.Mutex
	pending map[string]chan result
	initErr chan []byte
}

type invocation struct {
	id       string
	event    []byte
	deadline time.Time
}

type result struct {
	body []byte
	err  bool
}

// NewRuntime returns a Runtime with nothing queued.
func NewRuntime() *Runtime {
	return &Runtime{queue: make(chan invocation, 64), pending: map[string]chan result{}, initErr: make(chan []byte, 1)}
}

// InitErrors receives what the function posts when it fails to start.
func (rt *Runtime) InitErrors() <-chan []byte { return rt.initErr }

// Handler serves the Runtime API routes the function calls, at the
// address its AWS_LAMBDA_RUNTIME_API names.
func (rt *Runtime) Handler() http.Handler {
	mux := http.NewServeMux()
	mux.HandleFunc("GET /2018-06-01/runtime/invocation/next", func(w http.ResponseWriter, r *http.Request) {
		select {
		case inv := <-rt.queue:
			w.Header().Set("Lambda-Runtime-Aws-Request-Id", inv.id)
			w.Header().Set("Lambda-Runtime-Deadline-Ms", strconv.FormatInt(inv.deadline.UnixMilli(), 10))
			w.Header().Set("Lambda-Runtime-Invoked-Function-Arn", "arn:aws:lambda:local:000000000000:function:askplane")
			w.Write(inv.event)
		case <-r.Context().Done():
		}
	})
	for _, kind := range []string{"response", "error"} {
		mux.HandleFunc("POST /2018-06-01/runtime/invocation/{id}/"+kind, func(w http.ResponseWriter, r *http.Request) {
			body, err := io.ReadAll(io.LimitReader(r.Body, MaxPayload+1))
			if err != nil || len(body) > MaxPayload {
				body, kind = []byte(`{"errorType":"ResponseTooLarge"}`), "error"
			}
			rt.mu.Lock()
			ch := rt.pending[r.PathValue("id")]
			delete(rt.pending, r.PathValue("id"))
			rt.mu.Unlock()
			if ch == nil {
				http.Error(w, "unknown or finished invocation", http.StatusBadRequest)
				return
			}
			ch <- result{body, kind == "error"}
			w.WriteHeader(http.StatusAccepted)
		})
	}
	mux.HandleFunc("POST /2018-06-01/runtime/init/error", func(w http.ResponseWriter, r *http.Request) {
		body, _ := io.ReadAll(io.LimitReader(r.Body, 64<<10))
		select {
		case rt.initErr <- body:
		default:
		}
		w.WriteHeader(http.StatusAccepted)
	})
	return mux
}

// Invoke queues event and waits for the function's response, at most
// Deadline or until ctx is done.
func (rt *Runtime) Invoke(ctx context.Context, event []byte) ([]byte, error) {
	if len(event) > MaxPayload {
		return nil, ErrTooLarge
	}
	id := fmt.Sprintf("local-%d", rt.seq.Add(1))
	ch := make(chan result, 1)
	rt.mu.Lock()
	rt.pending[id] = ch
	rt.mu.Unlock()
	defer func() {
		rt.mu.Lock()
		delete(rt.pending, id)
		rt.mu.Unlock()
	}()
	deadline := time.Now().Add(Deadline)
	ctx, cancel := context.WithDeadline(ctx, deadline)
	defer cancel()
	select {
	case rt.queue <- invocation{id, event, deadline}:
	case <-ctx.Done():
		return nil, ErrTimeout
	}
	select {
	case res := <-ch:
		if res.err {
			return res.body, ErrFunction
		}
		return res.body, nil
	case <-ctx.Done():
		return nil, ErrTimeout
	}
}

// HTTP serves plain HTTP requests through the function as API Gateway v2
// events: method, path, query, headers, cookies and body in; status,
// headers, cookies and body out.
func (rt *Runtime) HTTP() http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		body, err := io.ReadAll(io.LimitReader(r.Body, MaxPayload+1))
		if err != nil || len(body) > MaxPayload {
			http.Error(w, "request body over 6 MB", http.StatusRequestEntityTooLarge)
			return
		}
		event, err := json.Marshal(Event(r, body))
		if err != nil {
			http.Error(w, "could not encode the event", http.StatusInternalServerError)
			return
		}
		out, err := rt.Invoke(r.Context(), event)
		switch {
		case errors.Is(err, ErrTimeout):
			http.Error(w, "the function timed out", http.StatusGatewayTimeout)
			return
		case err != nil:
			http.Error(w, "the function failed (see its log)", http.StatusBadGateway)
			return
		}
		var res events.APIGatewayV2HTTPResponse
		if err := json.Unmarshal(out, &res); err != nil || res.StatusCode < 100 || res.StatusCode > 599 {
			http.Error(w, "the function returned something that is not an API Gateway v2 response", http.StatusBadGateway)
			return
		}
		writeResponse(w, res)
	})
}

// Event is the API Gateway v2 (payload format 2.0) event for r.
func Event(r *http.Request, body []byte) events.APIGatewayV2HTTPRequest {
	ev := events.APIGatewayV2HTTPRequest{
		Version:        "2.0",
		RouteKey:       "$default",
		RawPath:        r.URL.Path,
		RawQueryString: r.URL.RawQuery,
		Headers:        map[string]string{},
	}
	for name, values := range r.Header {
		if strings.EqualFold(name, "Cookie") {
			for _, v := range values {
				for _, c := range strings.Split(v, ";") {
					if c = strings.TrimSpace(c); c != "" {
						ev.Cookies = append(ev.Cookies, c)
					}
				}
			}
			continue
		}
		// API Gateway joins repeated headers with commas and lowercases
		// their names.
		ev.Headers[strings.ToLower(name)] = strings.Join(values, ",")
	}
	ev.Headers["host"] = r.Host
	if utf8.Valid(body) {
		ev.Body = string(body)
	} else {
		ev.Body, ev.IsBase64Encoded = base64.StdEncoding.EncodeToString(body), true
	}
	ev.RequestContext.HTTP.Method = r.Method
	ev.RequestContext.HTTP.Path = r.URL.Path
	ev.RequestContext.HTTP.Protocol = r.Proto
	ev.RequestContext.HTTP.UserAgent = r.UserAgent()
	if host, _, err := net.SplitHostPort(r.RemoteAddr); err == nil {
		ev.RequestContext.HTTP.SourceIP = host
	}
	ev.RequestContext.DomainName = r.Host
	ev.RequestContext.RequestID = strconv.FormatInt(time.Now().UnixNano(), 36)
	ev.RequestContext.TimeEpoch = time.Now().UnixMilli()
	return ev
}

func writeResponse(w http.ResponseWriter, res events.APIGatewayV2HTTPResponse) {
	h := w.Header()
	for name, v := range res.Headers {
		h.Set(name, v)
	}
	for name, vs := range res.MultiValueHeaders {
		for _, v := range vs {
			h.Add(name, v)
		}
	}
	for _, c := range res.Cookies {
		h.Add("Set-Cookie", c)
	}
	body := []byte(res.Body)
	if res.IsBase64Encoded {
		decoded, err := base64.StdEncoding.DecodeString(res.Body)
		if err != nil {
			http.Error(w, "the function's base64 body does not decode", http.StatusBadGateway)
			return
		}
		body = decoded
	}
	h.Set("Content-Length", strconv.Itoa(len(body)))
	w.WriteHeader(res.StatusCode)
	w.Write(body)
}
