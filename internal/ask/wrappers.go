package ask

import (
	"context"
	"net/http"

	"github.com/askplane/askplane/internal/access"
	"github.com/askplane/askplane/internal/protocol"
)

// The per-site rules (the client address's budget, who asks, the hints,
// the subject's budget) are internal/access's wrappers, composed once in
// New by access.Site.Wrap around admitted. A request runs them between
// the checks of its own route (method, content type) and its body: each
// wrapper either refuses, through refuseAdmission, or hands the request
// on, and admitted hands back to the step that ran them what they
// established. Nothing about the body is read until they have passed.

// admission is the outcome of the wrappers for one request: who they
// admitted, or nothing when one refused (and answered).
type admission struct {
	c       *call  // the request, for refuseAdmission
	subject string // set by admitted
	ok      bool
}

type admissionKey struct{}

// siteRules is the Handler's per-site rules around admitted; the hints
// must name site's corpus and persona.
func siteRules(c Config, site *protocol.BackendSite) http.Handler {
	return access.Site{
		AddressLimiter: c.AddressLimiter,
		ClientAddr:     c.ClientAddr,
		Auth:           c.Auth,
		Corpus:         site.Corpus.ID,
		Persona:        site.Assistant.ID,
		SubjectLimiter: c.RateLimiter,
		Refuse:         refuseAdmission,
	}.Wrap(http.HandlerFunc(admitted))
}

// runSiteRules runs the per-site rules for c under ctx and returns who
// asks, or false when a rule refused (the refusal is answered). Its
// admission is its own: only the wrappers it runs write it.
func (c *call) runSiteRules(ctx context.Context) (asker, bool) {
	adm := &admission{c: c}
	c.h.rules.ServeHTTP(c.w, c.r.WithContext(context.WithValue(ctx, admissionKey{}, adm)))
	if !adm.ok {
		return asker{}, false
	}
	return asker{call: c, site: &c.h.site, subject: adm.subject}, true
}

// admitted ends the wrappers: the request passed every rule.
func admitted(_ http.ResponseWriter, r *http.Request) {
	adm := r.Context().Value(admissionKey{}).(*admission)
	adm.subject, adm.ok = access.SubjectOf(r.Context()), true
}

// refuseAdmission answers a wrapper's refusal as the handler answers its
// own (call.refuse). Once the asker is authenticated, the refusal counts under
// the site's metrics; a limit that could not be consulted and a subject
// the Authenticator got wrong are logged with the request id.
func refuseAdmission(_ http.ResponseWriter, r *http.Request, err, cause error) {
	c := r.Context().Value(admissionKey{}).(*admission).c
	var site *protocol.BackendSite // the metrics' site, once someone is authenticated
	if err == access.ErrInvalidSubject || access.SubjectOf(r.Context()) != "" {
		site = &c.h.site
	}
	if cause != nil {
		c.h.log.Error("ask: a rate limit could not be consulted; refusing", "requestId", c.id, "err", cause)
	}
	if err == access.ErrInvalidSubject {
		c.h.log.Error("ask: authenticator returned an invalid subject", "requestId", c.id)
		err = errInternal
	}
	c.refuse(site, true, err)
}
