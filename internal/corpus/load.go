package corpus

import (
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"io"
	"io/fs"

	"github.com/askplane/askplane/internal/protocol"
)

// LoadDir loads the corpus of one language from a built site's publish
// folder (os.DirFS(public), or an embedded or test FS): it reads
// askplane/<lang>/manifest.json, then the corpus it names, and checks the
// corpus against the manifest's hash, site id and language.
func LoadDir(fsys fs.FS, lang string) (*Corpus, error) {
	c, _, err := LoadDirRaw(fsys, lang)
	return c, err
}

// Load decodes an already-read corpus file after checking that its exact
// bytes hash to wantHash ("sha256:" + hex), the contentHash its manifest
// pinned. The hash is checked first so unverified bytes are never parsed.
// A v3 corpus is chunked by the [Current] rules.
func Load(data []byte, wantHash string) (*Corpus, error) {
	return LoadWith(data, wantHash, Current)
}

// LoadWith is [Load] with the given chunking rules.
func LoadWith(data []byte, wantHash string, rules Rules) (*Corpus, error) {
	if len(data) > MaxCorpusBytes {
		return nil, fail(CodeTooLarge, "the corpus exceeds 64 MiB")
	}
	got := ContentHash(data)
	if got != wantHash {
		return nil, fail(CodeMismatch, "the corpus bytes hash to "+got+", not the pinned "+safeHash(wantHash))
	}
	c, err := decode(data, rules)
	if err != nil {
		return nil, err
	}
	c.Version = got
	return c, nil
}

// ContentHash is the corpus identity: "sha256:" + hex of the exact bytes.
func ContentHash(data []byte) string {
	sum := sha256.Sum256(data)
	return "sha256:" + hex.EncodeToString(sum[:])
}

// safeHash keeps an arbitrary caller string out of error messages unless
// it is a well-formed hash.
func safeHash(s string) string {
	if protocol.ValidContentHash(s) {
		return s
	}
	return "(malformed hash)"
}

// readBounded reads at most limit bytes of name, failing rather than
// truncating when the file is larger.
func readBounded(fsys fs.FS, name string, limit int64) ([]byte, error) {
	f, err := fsys.Open(name)
	if err != nil {
		if errors.Is(err, fs.ErrNotExist) {
			return nil, &Error{Code: CodeRead, Message: name + " does not exist", Err: err}
		}
		return nil, &Error{Code: CodeRead, Message: "cannot open " + name, Err: err}
	}
	defer f.Close()
	data, err := io.ReadAll(io.LimitReader(f, limit+1))
	if err != nil {
		return nil, &Error{Code: CodeRead, Message: "cannot read " + name, Err: err}
	}
	if int64(len(data)) > limit {
		return nil, fail(CodeTooLarge, name+" exceeds its size bound")
	}
	return data, nil
}
