package sidecar

import (
	"net/http"
	"strings"

	"github.com/askplane/askplane/internal/apierr"
)

// guard applies the Host allow-list and the Origin rules to every route,
// not just /v1/ask: a page on a rebinding name must not read /metrics or
// /ready either. The allowed hosts are the config's own and every site's;
// none configured allows any Host, as before. A request with two Origin
// headers is refused everywhere. On the routes other than /v1/ask (whose
// handler checks its site's origins itself), a request carrying an Origin
// that is neither the server's own nor one a site allows is refused too:
// a same-origin page never sends a foreign one.
func (s *Server) guard(next http.Handler) http.Handler {
	hosts := append([]string(nil), s.cfg.Hosts...)
	var origins []string
	for _, st := range s.sites {
		hosts = append(hosts, st.cfg.Hosts...)
		origins = append(origins, st.cfg.Origins...)
	}
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		values := r.Header.Values("Origin")
		if len(hosts) > 0 && !containsFold(hosts, r.Host) ||
			len(values) > 1 ||
			len(values) == 1 && r.URL.Path != "/v1/ask" && !sameOrigin(values[0], r) && !containsFold(origins, values[0]) {
			apierr.CloseUnread(w, r)
			writeForbidden(w)
			return
		}
		next.ServeHTTP(w, r)
	})
}

// sameOrigin reports whether origin names the host the request came to.
// The scheme is not compared: behind a TLS-terminating proxy the sidecar
// sees http while the browser says https.
func sameOrigin(origin string, r *http.Request) bool {
	_, host, ok := strings.Cut(origin, "://")
	return ok && strings.EqualFold(host, r.Host)
}

func containsFold(list []string, s string) bool {
	for _, v := range list {
		if strings.EqualFold(v, s) {
			return true
		}
	}
	return false
}
