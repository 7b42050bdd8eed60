package verify

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"net/url"
	"path"
	"strings"

	"github.com/askplane/askplane/internal/protocol"
)

// escapeError is a symbolic link on the way to a file that points outside
// the publish folder.
type escapeError struct{ link, target string }

func (e *escapeError) Error() string {
	return fmt.Sprintf("%s is a symbolic link to %q, outside the publish folder", e.link, e.target)
}

var errNotRegular = errors.New("not a regular file")

// readFile reads name, at most limit+1 bytes so that an oversize file is
// seen without being read whole. size is the file's size as far as it is
// known. Every directory on the way and the file itself are checked for
// symbolic links that leave fsys (fsys may not refuse them: os.DirFS
// follows them).
func readFile(fsys fs.FS, name string, limit int64) (data []byte, size int64, err error) {
	if err := checkLinks(fsys, name); err != nil {
		return nil, 0, err
	}
	f, err := fsys.Open(name)
	if err != nil {
		return nil, 0, err
	}
	defer f.Close()
	fi, err := f.Stat()
	if err != nil {
		return nil, 0, err
	}
	if !fi.Mode().IsRegular() {
		return nil, 0, errNotRegular
	}
	data, err = io.ReadAll(io.LimitReader(f, limit+1))
	if err != nil {
		return nil, 0, err
	}
	size = max(fi.Size(), int64(len(data)))
	return data, size, nil
}

// checkLinks reports a symbolic link among name and its parents whose
// target leaves the root of fsys. Links that stay inside are fine; a chain
// of links is checked one step at a time by fsys itself when it is an
// os.Root.
func checkLinks(fsys fs.FS, name string) error {
	if _, ok := fsys.(fs.ReadLinkFS); !ok {
		return nil
	}
	p := ""
	for _, elem := range strings.Split(name, "/") {
		p = path.Join(p, elem)
		fi, err := fs.Lstat(fsys, p)
		if err != nil {
			return nil // Open reports it
		}
		if fi.Mode()&fs.ModeSymlink == 0 {
			continue
		}
		target, err := fs.ReadLink(fsys, p)
		if err != nil {
			return err
		}
		if path.IsAbs(target) || strings.HasPrefix(target, `\`) {
			return &escapeError{p, target}
		}
		if j := path.Join(path.Dir(p), target); j == ".." || strings.HasPrefix(j, "../") {
			return &escapeError{p, target}
		}
	}
	return nil
}

// output reads a published file named by namedBy (the manifest's field),
// reporting why it cannot be read. Over limit it reports tooLarge, with
// hint appended to the message. It returns nil when it reported a problem.
func (c *checker) output(name, namedBy string, limit int64, tooLarge, hint string) []byte {
	data, size, err := readFile(c.fsys, name, limit)
	var esc *escapeError
	switch {
	case err == nil:
	case errors.Is(err, fs.ErrNotExist):
		c.add(Problem{Code: "file.missing", Source: name,
			Message: fmt.Sprintf("%s names this file, but it is not in the publish folder: was the folder copied or deployed partly, or edited after the build?", namedBy)})
		return nil
	case errors.As(err, &esc):
		msg := esc.Error()
		if esc.link == name {
			msg = fmt.Sprintf("the file is a symbolic link to %q, outside the publish folder", esc.target)
		}
		c.add(Problem{Code: "file.escape", Source: name, Message: msg + "; publish the file itself, not a link"})
		return nil
	case errors.Is(err, errNotRegular):
		c.add(Problem{Code: "file.unreadable", Source: name,
			Message: fmt.Sprintf("%s names this path, but it is not a regular file", namedBy)})
		return nil
	default:
		c.add(Problem{Code: "file.unreadable", Source: name, Message: err.Error()})
		return nil
	}
	if int64(len(data)) > limit {
		c.add(Problem{Code: tooLarge, Source: name,
			Message: fmt.Sprintf("the file is %d bytes; the limit is %d%s", size, limit, hint)})
		return nil
	}
	return data
}

// resolve maps a root-relative href of the manifest onto a path inside the
// publish folder. base is the site's base path ("/" or "/docs/" when
// baseURL has a path). It reports and returns false when the href is not a
// plain root-relative path to a file under base.
func (c *checker) resolve(field, href string) (string, bool) {
	bad := func(why string) (string, bool) {
		c.add(Problem{Code: "manifest.href.invalid", Source: c.manifestPath,
			Message: fmt.Sprintf("%s %q %s", field, href, why)})
		return "", false
	}
	if !protocol.ValidHref(href) || !strings.HasPrefix(href, "/") {
		return bad("is not a safe root-relative href (/askplane/<lang>/...)")
	}
	if strings.ContainsAny(href, "?#") {
		return bad("must name a file: no query or fragment")
	}
	if !strings.HasPrefix(href, c.base) {
		return bad(fmt.Sprintf("is not under the site's base path %q", c.base))
	}
	rel, err := url.PathUnescape(strings.TrimPrefix(href, c.base))
	if err != nil || !fs.ValidPath(rel) || rel == "." || strings.Contains(rel, `\`) {
		return bad("must be a clean path to a file inside the publish folder (no '.', '..' or empty segments)")
	}
	return rel, true
}

// basePath derives the site's base path from the site config href the
// manifest gives: the module publishes it at <base>askplane/<lang>/site.json.
func basePath(siteHref, lang string) string {
	suffix := outputsDir + "/" + lang + "/site.json"
	if b, ok := strings.CutSuffix(siteHref, suffix); ok && strings.HasPrefix(b, "/") && strings.HasSuffix(b, "/") {
		return b
	}
	return "/"
}
