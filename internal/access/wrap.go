package access

import (
	"crypto/rand"
	"net/http"
	"slices"
	"strings"

	"github.com/askplane/askplane/internal/apierr"
)

// The access rules every route shares, as func(http.Handler)
// http.Handler wrappers (one job each, as net/http's own). The per-site
// rules of /v1/ask and the bodiless routes beside it (the limits; Policy:
// Host, Origin, token, cookie; the hints) are wrappers too (site.go),
// which Site.Wrap composes in the order that decides which refusal a
// request that breaks several gets.

// WithCORS puts next behind the CORS answers for origins (see CORS); with
// none, next is returned as it is.
func WithCORS(origins []string) func(http.Handler) http.Handler {
	return func(next http.Handler) http.Handler {
		if len(origins) == 0 {
			return next
		}
		return &CORS{Origins: origins, Next: next}
	}
}

// HostOrigin refuses, with 403 ASK_FORBIDDEN and the connection closed
// when a body is left unread, a request whose Host is not one of hosts
// (none allows any: a DNS-rebinding guard for every route, /metrics and
// /ready too), one with two Origin headers, and one whose Origin is
// neither the host it came to nor one of origins, except on the paths
// in selfChecked, whose handlers check the Origin against their own site.
func HostOrigin(hosts, origins []string, selfChecked ...string) func(http.Handler) http.Handler {
	return func(next http.Handler) http.Handler {
		return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			values := r.Header.Values("Origin")
			if len(hosts) > 0 && !containsFold(hosts, r.Host) ||
				len(values) > 1 ||
				len(values) == 1 && !slices.Contains(selfChecked, r.URL.Path) && !sameHost(values[0], r) && !containsFold(origins, values[0]) {
				apierr.CloseUnread(w, r)
				WriteForbidden(w)
				return
			}
			next.ServeHTTP(w, r)
		})
	}
}

// WriteForbidden sends 403 ASK_FORBIDDEN with a fresh request id, for a
// refusal in front of every handler (none has named the request yet).
func WriteForbidden(w http.ResponseWriter) {
	w.Header().Set("X-Request-Id", rand.Text())
	apierr.Write(w, apierr.Forbidden)
}

// sameHost reports whether origin names the host the request came to.
// The scheme is not compared: behind a TLS-terminating proxy the server
// sees http while the browser says https.
func sameHost(origin string, r *http.Request) bool {
	_, host, ok := strings.Cut(origin, "://")
	return ok && strings.EqualFold(host, r.Host)
}
