package corpus

import (
	"context"
	"errors"
	"io"
	"io/fs"
	"net"
	"net/http"
	"net/url"
	"strings"
	"time"
)

// Fetch loads the corpus of one language from a published site, for a
// sidecar that runs apart from the static host: it GETs
// <base>/askplane/<lang>/manifest.json and the corpus file it names, with
// the same bounds and checks as LoadDir. The corpus is trusted only
// because its bytes hash to what the manifest pins.
//
// base must be https, except for a literal loopback address (tests, a
// local preview); redirects are refused, not followed, and each file has
// its own timeout within ctx.
func Fetch(ctx context.Context, base string, lang string) (*Corpus, error) {
	u, err := url.Parse(base)
	if err != nil || u.Host == "" || u.User != nil || u.RawQuery != "" || u.Fragment != "" {
		return nil, fail(CodeRead, "the corpus URL must be an absolute https URL without credentials, query or fragment")
	}
	if u.Scheme != "https" && !(u.Scheme == "http" && isLoopback(u.Hostname())) {
		return nil, fail(CodeRead, "the corpus URL must be https (plain http only to a loopback address)")
	}
	u.Path = strings.TrimSuffix(u.Path, "/")
	return LoadDir(&httpFS{ctx: ctx, base: u, client: fetchClient}, lang)
}

// fetchTimeout bounds each file of a Fetch.
const fetchTimeout = 60 * time.Second

var fetchClient = &http.Client{
	CheckRedirect: func(*http.Request, []*http.Request) error { return errRedirect },
}

var errRedirect = errors.New("corpus: redirects are not followed")

func isLoopback(host string) bool {
	ip := net.ParseIP(host)
	return ip != nil && ip.IsLoopback()
}

// httpFS is the read-only fs.FS of a published site, as LoadDir needs it.
type httpFS struct {
	ctx    context.Context
	base   *url.URL
	client *http.Client
}

func (h *httpFS) Open(name string) (fs.File, error) {
	if !fs.ValidPath(name) {
		return nil, &fs.PathError{Op: "open", Path: name, Err: fs.ErrInvalid}
	}
	ctx, cancel := context.WithTimeout(h.ctx, fetchTimeout)
	u := *h.base
	u.Path += "/" + name
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, u.String(), nil)
	if err != nil {
		cancel()
		return nil, &fs.PathError{Op: "open", Path: name, Err: err}
	}
	resp, err := h.client.Do(req)
	if err != nil {
		cancel()
		// The URL error would repeat the address; the path is enough.
		if errors.Is(err, errRedirect) {
			return nil, &fs.PathError{Op: "open", Path: name, Err: errRedirect}
		}
		return nil, &fs.PathError{Op: "open", Path: name, Err: errors.New("request failed")}
	}
	switch {
	case resp.StatusCode == http.StatusNotFound:
		resp.Body.Close()
		cancel()
		return nil, &fs.PathError{Op: "open", Path: name, Err: fs.ErrNotExist}
	case resp.StatusCode != http.StatusOK:
		resp.Body.Close()
		cancel()
		return nil, &fs.PathError{Op: "open", Path: name, Err: errors.New("HTTP " + resp.Status)}
	}
	return &httpFile{name: name, body: resp.Body, cancel: cancel}, nil
}

// httpFile is one fetched file; LoadDir bounds how much it reads.
type httpFile struct {
	name   string
	body   io.ReadCloser
	cancel context.CancelFunc
}

func (f *httpFile) Read(p []byte) (int, error) { return f.body.Read(p) }
func (f *httpFile) Close() error {
	err := f.body.Close()
	f.cancel()
	return err
}
func (f *httpFile) Stat() (fs.FileInfo, error) {
	return nil, &fs.PathError{Op: "stat", Path: f.name, Err: errors.ErrUnsupported}
}
