package access_test

import (
	"context"
	"errors"
	"io"
	"net/http"
	"net/http/httptest"
	"testing"
	"time"

	"github.com/askplane/askplane/internal/access"
	"github.com/askplane/askplane/internal/apierr"
)

// budget is a Limiter that allows what ok says, per key.
type budget map[string]bool

func (b budget) Spend(_ context.Context, key string) (bool, time.Duration, error) {
	ok, known := b[key]
	if !known {
		return false, 0, errors.New("limit store down")
	}
	return ok, 7 * time.Second, nil
}

// unreadable is a body whose reading fails the test: no rule reads it.
type unreadable struct{ t *testing.T }

func (u unreadable) Read([]byte) (int, error) {
	u.t.Error("a per-site rule read the body")
	return 0, io.EOF
}

// TestSiteRulesOrder: Site.Wrap runs the per-site rules in one order, so a
// request that breaks several gets the first one's refusal: the address's
// budget, then the Authenticator (which writes its own refusal), then the
// hints, then the subject's budget; none reads the body, and the request
// that passes reaches next with its subject.
func TestSiteRulesOrder(t *testing.T) {
	type refusal struct {
		err, cause error
		subject    string
	}
	var got []refusal
	var reached string
	site := access.Site{
		AddressLimiter: budget{"10.0.0.1": true, "10.0.0.2": false},
		ClientAddr:     func(r *http.Request) string { return r.Header.Get("X-Addr") },
		Auth: access.AuthFunc(func(w http.ResponseWriter, r *http.Request) (string, bool) {
			switch s := r.Header.Get("X-Subject"); s {
			case "":
				w.WriteHeader(http.StatusUnauthorized)
				return "", false
			default:
				return s, true
			}
		}),
		Corpus: "docs-en", Persona: "guide",
		SubjectLimiter: budget{"anon:a": true, "anon:spent": false},
		Refuse: func(w http.ResponseWriter, r *http.Request, err, cause error) {
			got = append(got, refusal{err, cause, access.SubjectOf(r.Context())})
			w.WriteHeader(599)
		},
	}
	h := site.Wrap(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		reached = access.SubjectOf(r.Context())
		w.WriteHeader(http.StatusTeapot)
	}))
	for _, c := range []struct {
		name, addr, subject, query string
		status                     int
		err                        error
		limitDown                  bool
	}{
		{"breaks every rule: the address's budget", "10.0.0.2", "", "?corpus=x", 599, apierr.RateLimited(7 * time.Second), false},
		{"the address's limit is down", "10.0.0.9", "", "?corpus=x", 599, apierr.LimitUnavailable, true},
		{"no subject and a wrong hint: the Authenticator's", "10.0.0.1", "", "?corpus=x", 401, nil, false},
		{"an invalid subject", "10.0.0.1", "-bad subject", "?corpus=x", 599, access.ErrInvalidSubject, false},
		{"a wrong hint and a spent subject: the hint", "10.0.0.1", "anon:spent", "?persona=other", 599, apierr.Forbidden, false},
		{"hints that disagree", "10.0.0.1", "anon:a", "?corpus=docs-en&corpus=x", 599, apierr.Forbidden, false},
		{"a spent subject", "10.0.0.1", "anon:spent", "?corpus=docs-en&persona=guide", 599, apierr.RateLimited(7 * time.Second), false},
		{"the subject's limit is down", "10.0.0.1", "anon:unknown", "", 599, apierr.LimitUnavailable, true},
		{"admitted", "10.0.0.1", "anon:a", "?corpus=docs-en", 418, nil, false},
	} {
		got, reached = nil, ""
		r := httptest.NewRequest(http.MethodPost, "http://ask.example.com/v1/ask"+c.query, unreadable{t})
		r.Header.Set("X-Addr", c.addr)
		r.Header.Set("X-Subject", c.subject)
		w := httptest.NewRecorder()
		h.ServeHTTP(w, r)
		if w.Code != c.status {
			t.Errorf("%s: %d, want %d", c.name, w.Code, c.status)
			continue
		}
		switch c.status {
		case 599:
			if len(got) != 1 || !sameRefusal(got[0].err, c.err) || (got[0].cause != nil) != c.limitDown {
				t.Errorf("%s: refused with %+v, want %v", c.name, got, c.err)
			}
			// A refusal after authentication (the hints, the subject's
			// budget) knows the subject; one before it does not.
			want := ""
			if c.err != access.ErrInvalidSubject && c.subject != "" && c.addr == "10.0.0.1" {
				want = c.subject
			}
			if len(got) == 1 && got[0].subject != want {
				t.Errorf("%s: refused knowing subject %q", c.name, got[0].subject)
			}
		case 401:
			if len(got) != 0 || w.Header().Get("Connection") != "close" {
				t.Errorf("%s: the Authenticator's refusal went through Refuse (%v) or left the connection open", c.name, got)
			}
		case 418:
			if reached != c.subject || len(got) != 0 {
				t.Errorf("%s: reached with %q, refusals %v", c.name, reached, got)
			}
		}
	}
}

func sameRefusal(a, b error) bool {
	var ea, eb *apierr.Error
	if errors.As(a, &ea) && errors.As(b, &eb) {
		return ea.Status == eb.Status && ea.Code == eb.Code && ea.RetryAfter == eb.RetryAfter
	}
	return a == b
}
