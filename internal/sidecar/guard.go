package sidecar

import (
	"net/http"

	"github.com/askplane/askplane/internal/access"
)

// guard applies the Host allow-list and the Origin rules to every route,
// not just /v1/ask: a page on a rebinding name must not read /metrics or
// /ready either. The allowed hosts are the config's own and every site's;
// none configured allows any Host, as before. A request with two Origin
// headers is refused everywhere. On the routes other than /v1/ask (whose
// handler checks its site's origins itself), a request carrying an Origin
// that is neither the server's own nor one a site allows is refused too:
// a same-origin page never sends a foreign one (access.HostOrigin).
func (s *Server) guard(next http.Handler) http.Handler {
	hosts := append([]string(nil), s.cfg.Hosts...)
	var origins []string
	for _, st := range s.sites {
		hosts = append(hosts, st.cfg.Hosts...)
		origins = append(origins, st.cfg.Origins...)
	}
	return access.HostOrigin(hosts, origins, "/v1/ask")(next)
}
