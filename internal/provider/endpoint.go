package provider

import (
	"net/url"

	"github.com/askplane/askplane/internal/baseurl"
)

// ParseEndpoint checks a base URL by askplane's endpoint rule (see
// baseurl.Parse: https, or plain http to a literal loopback IP only; no
// credentials, query or fragment) and returns it normalized to end in
// "/". A refusal is CodeEndpointRefused.
func ParseEndpoint(raw string) (*url.URL, error) {
	u, err := baseurl.Parse(raw)
	if err != nil {
		return nil, NewError(CodeEndpointRefused, "baseURL "+err.Error())
	}
	return u, nil
}
