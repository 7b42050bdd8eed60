package corpus

import (
	"context"
	"errors"
	"io"
	"io/fs"
	"net/http"
	"net/url"
	"time"
)

// fetchTimeout bounds each file of a FetchRaw.
const fetchTimeout = 60 * time.Second

var fetchClient = &http.Client{
	CheckRedirect: func(*http.Request, []*http.Request) error { return errRedirect },
}

var errRedirect = errors.New("corpus: redirects are not followed")

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
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, h.base.JoinPath(name).String(), nil)
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
